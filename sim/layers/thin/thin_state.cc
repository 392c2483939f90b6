// The thin pool's saved state (storlab sim --state, docs/state.md): its
// metadata — the current and the committed mapping, the open transaction's
// journal, the space map's allocation hint, the pool's size (an lvextend
// may have grown it) and the chunks of the volumes not modelled — and the
// no-space policy's latch. Saved when the stack is idle: nothing locked,
// queued or committing, no timer armed (so the journal is empty unless a
// commit failed). Counters are per run and not kept.
#include <algorithm>
#include <bit>
#include <string>
#include <utility>
#include <vector>

#include "sim/layers/thin/thin_metadata.h"
#include "sim/layers/thin/thin_node.h"
#include "sim/state_coding.h"
#include "sim/status.h"

namespace storlab {
namespace {

void SaveMap(StateWriter& w, const std::unordered_map<uint64_t, uint64_t>& map) {
  std::vector<std::pair<uint64_t, uint64_t>> sorted(map.begin(), map.end());
  std::sort(sorted.begin(), sorted.end());  // the same state, the same bytes
  w.U64(sorted.size());
  uint64_t prev = 0;
  for (const auto& [v, p] : sorted) {
    w.U64(v - prev);  // ascending: deltas stay short
    w.U64(p);
    prev = v;
  }
}

// Reads a mapping into `map` and marks its pool chunks in `bits`, refusing
// a chunk out of the pool or mapped twice.
void RestoreMap(StateReader& r, uint64_t pool_chunks, std::unordered_map<uint64_t, uint64_t>& map,
                std::vector<uint64_t>& bits) {
  const uint64_t n = r.Count(2);
  uint64_t v = 0;
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t dv = r.U64();
    if (i > 0 && dv == 0) r.Fail("a thin mapping out of order");
    v += dv;
    const uint64_t p = r.Below(pool_chunks, "a pool chunk");
    if (!r.ok()) break;
    const uint64_t m = uint64_t{1} << (p % 64);
    if (bits[p / 64] & m) {
      r.Fail("a pool chunk mapped twice");
      break;
    }
    bits[p / 64] |= m;
    map[v] = p;
  }
}

}  // namespace

void ThinMetadata::SaveState(StateWriter& w) const {
  w.U64(pool_chunks_);
  w.U64(others_);
  w.U64(hint_);
  SaveMap(w, map_);
  SaveMap(w, committed_);
  w.U64(journal_.size());
  for (const Change& c : journal_) {
    w.U64(c.v);
    w.Bool(c.before.has_value());
    w.U64(c.before.value_or(0));
    w.Bool(c.after.has_value());
    w.U64(c.after.value_or(0));
  }
}

Status ThinMetadata::RestoreState(StateReader& r, uint64_t max_chunks) {
  const uint64_t pool = r.U64();
  if (r.ok() && (pool < pool_chunks_ || pool > max_chunks)) {
    r.Fail("a pool of " + std::to_string(pool) + " chunks, this one has " +
           std::to_string(pool_chunks_) + " and its data device room for " +
           std::to_string(max_chunks));
  }
  RETURN_IF_ERROR(r.status());
  set_pool_chunks(pool);
  others_ = r.U64();
  hint_ = r.Below(pool_chunks_ + 1, "the allocation hint");
  RestoreMap(r, pool_chunks_, map_, now_);
  RestoreMap(r, pool_chunks_, committed_, committed_bits_);
  const uint64_t changes = r.Count(5);
  for (uint64_t i = 0; i < changes && r.ok(); ++i) {
    Change c{.v = r.U64()};
    const bool before = r.Bool();
    const uint64_t was = r.U64();
    const bool after = r.Bool();
    const uint64_t is = r.U64();
    if (before) c.before = was;
    if (after) c.after = is;
    journal_.push_back(c);
  }
  RETURN_IF_ERROR(r.status());
  held_ = 0;
  for (size_t i = 0; i < now_.size(); ++i) held_ += std::popcount(now_[i] | committed_bits_[i]);
  return Status();
}

Status ThinNode::SaveState(StateWriter& w) const {
  if (committing_ || commit_timer_ || !no_space_queue_.empty() || no_space_timer_ ||
      !commit_waiters_.empty()) {
    return Status::Internal("thin pool not idle");
  }
  md_.SaveState(w);
  w.Bool(no_space_failed_);
  return Status();
}

Status ThinNode::RestoreState(StateReader& r) {
  RETURN_IF_ERROR(md_.RestoreState(r, child_.geometry().capacity / config_.chunk));
  no_space_failed_ = r.Bool();
  return r.status();
}

}  // namespace storlab
