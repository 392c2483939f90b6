// The FTL's saved state (storlab sim --state, docs/state.md): the mapping,
// the blocks' valid counts, states and bucket lists, the free pool, the
// frontiers and the sampling positions. The per-block arrays are written at
// the flash's full length, the blocks never opened as free, empty ones at
// the head of the free pool (as a new drive's pool lists them), and read
// back into the same form: a restore expands only the blocks in use.
#include <cstdint>
#include <vector>

#include "sim/devices/ssd_ftl.h"
#include "sim/devices/ssd_state_runs.h"
#include "sim/state_coding.h"

namespace storlab {

using ssd_state::GetInts;
using ssd_state::kAnySize;
using ssd_state::PutInts;
using ssd_state::PutPadded;
using ssd_state::RunList;
using ssd_state::RunWriter;

void SsdScaledFtl::SaveState(StateWriter& w) const {
  const uint64_t units = uint64_t{blocks_} * units_per_block_;
  PutInts(w, l2p_);
  PutPadded(w, p2l_, units, kNone);
  PutPadded(w, valid_, blocks_, uint16_t{0});
  std::vector<uint8_t> states(state_.size());
  for (size_t i = 0; i < state_.size(); ++i) states[i] = static_cast<uint8_t>(state_[i]);
  PutPadded(w, states, blocks_, static_cast<uint8_t>(State::kFree));
  PutInts(w, bucket_head_);
  PutPadded(w, next_, blocks_, kNone);
  PutPadded(w, prev_, blocks_, kNone);
  {
    RunWriter free(w, free_blocks());
    free.Add(fresh_, blocks_ - fresh_, 1);
    for (uint32_t b : free_) free.Add(b);
  }
  for (const Frontier* f : {&host_, &gc_}) {
    w.U64(f->block);
    w.U64(f->next);
  }
  w.U64(valid_units_);
  w.U64(write_pos_);
  w.U64(trim_pos_);
  w.U64(copies_);
  w.U64(erases_);
}

Status SsdScaledFtl::RestoreState(StateReader& r) {
  const uint64_t per = units_per_block_;
  l2p_ = GetInts<uint32_t>(r, l2p_.size(), "ftl map");
  const RunList<uint32_t> p2l(r, blocks_ * per, "ftl reverse map");
  const RunList<uint16_t> valid(r, blocks_, "ftl valid counts");
  const RunList<uint8_t> states(r, blocks_, "ftl block states");
  bucket_head_ = GetInts<uint32_t>(r, bucket_head_.size(), "ftl buckets");
  const RunList<uint32_t> next(r, blocks_, "ftl bucket lists");
  const RunList<uint32_t> prev(r, blocks_, "ftl bucket lists");
  const RunList<uint32_t> free(r, kAnySize, "ftl free blocks");
  for (Frontier* f : {&host_, &gc_}) {
    f->block = static_cast<uint32_t>(r.U64());
    f->next = static_cast<uint32_t>(r.U64());
    if (f->block != kNone && f->block >= blocks_) r.Fail("ftl frontier block out of range");
  }
  valid_units_ = r.U64();
  write_pos_ = r.U64();
  trim_pos_ = r.U64();
  copies_ = r.U64();
  erases_ = r.U64();
  if (!r.ok()) return r.status();
  // The blocks never opened: the free pool's head counting up to the last
  // block, each free and empty, no frontier's.
  uint32_t fresh = blocks_;
  if (free.size() > 0 && free.at(0) >= 0 && free.at(0) < blocks_) {
    const auto s = static_cast<uint32_t>(free.at(0));
    const uint64_t n = blocks_ - s;
    const auto untouched = [&](const auto& list, uint64_t from, uint64_t to, int64_t v) {
      return list.Follows(from, to, v, 0);
    };
    if (n <= free.size() && free.Follows(0, n, s, 1) &&
        untouched(states, s, blocks_, static_cast<int64_t>(State::kFree)) &&
        untouched(valid, s, blocks_, 0) && untouched(next, s, blocks_, kNone) &&
        untouched(prev, s, blocks_, kNone) && untouched(p2l, s * per, blocks_ * per, kNone) &&
        (host_.block == kNone || host_.block < s) && (gc_.block == kNone || gc_.block < s)) {
      fresh = s;
    }
  }
  fresh_ = fresh;
  p2l_ = p2l.Expand(0, fresh * per);
  valid_ = valid.Expand(0, fresh);
  state_.clear();
  for (uint8_t v : states.Expand(0, fresh)) {
    if (v > static_cast<uint8_t>(State::kFull)) r.Fail("ftl block state out of range");
    state_.push_back(static_cast<State>(v));
  }
  next_ = next.Expand(0, fresh);
  prev_ = prev.Expand(0, fresh);
  free_.clear();
  for (uint32_t b : free.Expand(blocks_ - fresh, free.size())) {
    if (b >= blocks_) r.Fail("ftl free block out of range");
    free_.push_back(b);
  }
  return r.status();
}

}  // namespace storlab
