// BlockInfos (block_infos.h): fio 3.33's io_u.c trim_block_info(),
// iolog.c unlog_io_piece() and stat.c calc_block_percentiles() /
// show_block_infos().
#include "workloads/fio/block_infos.h"

#include <algorithm>

#include "workloads/fio/append_printf.h"

namespace storlab::fio {

const char* BlockInfos::StateName(uint32_t state) {
  static const char* const kNames[kStates] = {"unwritten", "trimmed", "written", "trim failure",
                                              "write failure"};
  return state < kStates ? kNames[state] : "?";
}

void BlockInfos::Trimmed(uint64_t idx) {
  // io_u_block_info(): an I/O spanning several blocks counts for its first.
  if (idx >= info_.size()) return;
  uint32_t& v = info_[idx];
  if (StateOf(v) >= kTrimFailure) return;
  v = Make(kTrimmed, Trims(v) + 1);
}

void BlockInfos::Failed(uint64_t idx, bool trim) {
  if (idx >= info_.size()) return;
  uint32_t& v = info_[idx];
  if (StateOf(v) >= kTrimFailure) return;
  v = Make(trim ? kTrimFailure : kWriteFailure, Trims(v));
}

BlockInfos::Summary BlockInfos::Summarize(const std::vector<double>& plist) const {
  Summary s;
  for (uint32_t v : info_) ++s.states[StateOf(v)];
  // block_state_category(): unwritten first, then trimmed and written, then
  // the failures; within one, by trim count, then by state.
  auto category = [](uint32_t state) { return state == kUninit ? 0 : state <= kWritten ? 1 : 2; };
  std::vector<uint32_t> sorted = info_;
  std::sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) {
    const int ca = category(StateOf(a)), cb = category(StateOf(b));
    if (ca != cb) return ca < cb;
    if (Trims(a) != Trims(b)) return Trims(a) < Trims(b);
    return StateOf(a) < StateOf(b);
  });
  const uint64_t uninit = s.states[kUninit];
  if (uninit == sorted.size()) return s;
  const uint64_t n = sorted.size() - uninit;
  for (double p : plist) {
    auto idx = static_cast<uint64_t>(p * static_cast<double>(n) / 100) + uninit;
    s.percentiles.push_back(Trims(sorted[std::min<uint64_t>(idx, sorted.size() - 1)]));
  }
  return s;
}

void BlockInfos::AppendNormal(const std::vector<double>& plist, std::string* out) const {
  const Summary s = Summarize(plist);
  out->append("  block lifetime percentiles :\n   |");
  constexpr size_t kLine = 75;  // show_block_infos()'s LINE_LENGTH
  size_t pos = 0;
  for (size_t i = 0; i < s.percentiles.size(); ++i) {
    std::string item;
    AppendPrintf(&item, " %3.2fth=%u%c", plist[i], s.percentiles[i],
                 i + 1 == s.percentiles.size() ? '\n' : ',');
    if (pos + item.size() > kLine) {
      pos = 0;
      out->append("\n   |");
    }
    out->append(item);
    pos += item.size();
  }
  // With no block trimmed fio prints its counts uninitialised; these are
  // the real ones.
  out->append("        states               :");
  for (uint32_t k = 0; k < kStates; ++k) {
    AppendPrintf(out, " %s=%u%c", StateName(k), s.states[k], k + 1 == kStates ? '\n' : ',');
  }
}

}  // namespace storlab::fio
