// The block cache's saved state (storlab sim --state, docs/state.md): the
// table (which origin blocks sit in which slots, their valid and dirty
// sectors, the free-slot stack), the policy (cache_policy_state.cc), the
// sequential detector's streams, the write sequence and the destager's
// elevator cursor; with a cache device the committed mapping (what a
// restart after a power cut, or --reboot, reloads: dm-cache's metadata),
// without one the RAM's contents. Saved when the stack is idle: no client
// I/O, promotion, destage or commit in flight or waiting. Counters are per
// run and not kept.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "sim/layers/cache/cache_committer.h"
#include "sim/layers/cache/cache_core.h"
#include "sim/layers/cache/cache_destager.h"
#include "sim/layers/cache/cache_memory.h"
#include "sim/layers/cache/cache_seq.h"
#include "sim/layers/cache/cache_table.h"
#include "sim/state_coding.h"

namespace storlab {
namespace {

// A mask as its set runs.
void SaveMask(StateWriter& w, const BlockMask& m) {
  const auto runs = m.Runs();
  w.U64(runs.size());
  for (const auto& [first, count] : runs) {
    w.U64(first);
    w.U64(count);
  }
}

BlockMask RestoreMask(StateReader& r, uint32_t sectors) {
  BlockMask m(sectors);
  const uint64_t n = r.Count(2);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t first = r.Below(sectors, "a sector of a cache block");
    const uint64_t count = r.U64();
    if (!r.ok()) break;
    if (count == 0 || count > sectors - first) {
      r.Fail("a sector run past the cache block");
      break;
    }
    m.Set(static_cast<uint32_t>(first), static_cast<uint32_t>(count));
  }
  return m;
}

template <typename Map>
std::vector<uint64_t> SortedKeys(const Map& map) {
  std::vector<uint64_t> keys;
  keys.reserve(map.size());
  for (const auto& kv : map) keys.push_back(kv.first);
  std::sort(keys.begin(), keys.end());
  return keys;
}

template <typename T>
std::vector<uint64_t> SortedKeys(const KeyMap<T>& map) {
  std::vector<uint64_t> keys;
  keys.reserve(map.size());
  map.ForEach([&](uint64_t key, const T&) { keys.push_back(key); });
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

void SequentialDetector::SaveState(StateWriter& w) const {
  w.U64(clock_);
  w.U64(streams_.size());
  for (const Stream& s : streams_) {
    w.U64(s.end);
    w.U64(s.run);
    w.U64(s.used);
  }
}

Status SequentialDetector::RestoreState(StateReader& r) {
  clock_ = r.U64();
  const uint64_t n = r.Count(3);
  if (n > kStreams) r.Fail("more sequential streams than a cache tracks");
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    Stream s;
    s.end = r.U64();
    s.run = r.U64();
    s.used = r.U64();
    streams_.push_back(s);
  }
  return r.status();
}

Status CacheTable::SaveState(StateWriter& w) const {
  w.U64(slots_);
  w.U64(sectors_);
  w.U64(entries_.size());
  for (uint64_t block : SortedKeys(entries_)) {
    const CacheEntry& e = *entries_.Find(block);
    if (e.io || e.locked) return Status::Internal("cache table not idle");
    w.U64(block);
    w.U64(e.slot);
    SaveMask(w, e.valid);
    SaveMask(w, e.dirty);
    // A clean entry's oldest-write fields are stale (MarkDirty sets them
    // afresh): written as zeros, so one state is one byte string.
    const bool dirty = e.dirty.any();
    w.U64(dirty ? e.dirty_seq : 0);
    w.Time(dirty ? e.dirty_since : Nanos(0));
    w.Bool(e.destage_failed);
  }
  // The free stack from its bottom: the slots never taken, then free_.
  w.U64(slots_ - fresh_ + free_.size());
  for (uint32_t s = slots_; s > fresh_; --s) w.U64(s - 1);
  for (uint32_t s : free_) w.U64(s);
  w.U64(pending_.size());
  for (uint32_t s : pending_) w.U64(s);
  return Status();
}

Status CacheTable::RestoreState(StateReader& r) {
  if ((r.U64() != slots_ || r.U64() != sectors_) && r.ok()) {
    r.Fail("a cache of another size or block size");
  }
  Clear();
  fresh_ = slots_;  // the saved free stack, all of it in free_
  std::vector<bool> seen(slots_, false);
  auto take = [&](uint64_t slot) {
    if (r.ok() && seen[slot]) r.Fail("a cache slot used twice");
    if (r.ok()) seen[slot] = true;
  };
  const uint64_t n = r.Count(7);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t block = r.U64();
    const uint64_t slot = r.Below(slots_, "a cache slot");
    BlockMask valid = RestoreMask(r, sectors_);
    BlockMask dirty = RestoreMask(r, sectors_);
    const uint64_t seq = r.U64();
    const Nanos since = r.Time();
    const bool failed = r.Bool();
    take(slot);
    if (r.ok() && entries_.Find(block)) r.Fail("a cache block twice");
    if (!r.ok()) break;
    CacheEntry& e = Insert(block, static_cast<uint32_t>(slot));
    e.valid = std::move(valid);
    for (const auto& [first, count] : dirty.Runs()) MarkDirty(e, first, count, seq, since);
    if (failed && e.dirty.any()) MarkFailed(e);
  }
  for (std::vector<uint32_t>* v : {&free_, &pending_}) {
    const uint64_t m = r.Count(1);
    for (uint64_t i = 0; i < m && r.ok(); ++i) {
      const uint64_t slot = r.Below(slots_, "a cache slot");
      take(slot);
      v->push_back(static_cast<uint32_t>(slot));
    }
  }
  if (r.ok() && std::find(seen.begin(), seen.end(), false) != seen.end()) {
    r.Fail("a cache slot neither used nor free");
  }
  return r.status();
}

Status CacheCommitter::SaveState(StateWriter& w) const {
  if (running_ || next_force_ || !next_waiters_.empty()) {
    return Status::Internal("cache commit not idle");
  }
  w.U64(committed_.size());
  for (uint64_t block : SortedKeys(committed_)) {
    const Mapping& m = committed_.at(block);
    w.U64(block);
    w.U64(m.slot);
    SaveMask(w, m.valid);
  }
  w.U64(changes_.size());
  for (uint64_t block : SortedKeys(changes_)) {
    const std::optional<Mapping>& m = changes_.at(block);
    w.U64(block);
    w.Bool(m.has_value());
    if (m) {
      w.U64(m->slot);
      SaveMask(w, m->valid);
    }
  }
  w.Bool(fast_written_);
  w.Bool(origin_written_);
  return Status();
}

Status CacheCommitter::RestoreState(StateReader& r, uint32_t slots, uint32_t sectors) {
  const uint64_t n = r.Count(3);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t block = r.U64();
    const auto slot = static_cast<uint32_t>(r.Below(slots, "a committed cache slot"));
    committed_[block] = Mapping{slot, RestoreMask(r, sectors)};
  }
  const uint64_t changes = r.Count(2);
  for (uint64_t i = 0; i < changes && r.ok(); ++i) {
    const uint64_t block = r.U64();
    if (!r.Bool()) {
      changes_[block] = std::nullopt;
      continue;
    }
    const auto slot = static_cast<uint32_t>(r.Below(slots, "a changed cache slot"));
    changes_[block] = Mapping{slot, RestoreMask(r, sectors)};
  }
  fast_written_ = r.Bool();
  origin_written_ = r.Bool();
  return r.status();
}

Status CacheDestager::SaveState(StateWriter& w) const {
  if (destaging_ || !flush_waiters_.empty()) return Status::Internal("cache destager not idle");
  w.U64(cursor_);
  return Status();
}

Status CacheDestager::RestoreState(StateReader& r) {
  cursor_ = r.U64();
  return r.status();
}

void CacheMemory::SaveMemory(StateWriter& w) const {
  w.Time(busy_until_);
  data_.SaveState(w);
}

Status CacheMemory::RestoreMemory(StateReader& r) {
  busy_until_ = r.Time();
  RETURN_IF_ERROR(r.status());
  return data_.RestoreState(r);
}

Status CacheCore::SaveState(StateWriter& w) const {
  if (!block_waiters_.empty() || !space_waiters_.empty() || !busy_writes_.empty() ||
      dirty_reserved_ != 0) {
    return Status::Internal("cache not idle");
  }
  w.Bytes(policy_->name());
  w.U64(write_seq_);
  w.Bool(kick_pending_);
  RETURN_IF_ERROR(table_.SaveState(w));
  policy_->SaveState(w);
  seq_.SaveState(w);
  RETURN_IF_ERROR(destager_.SaveState(w));
  w.Bool(committer_ != nullptr);
  if (committer_) RETURN_IF_ERROR(committer_->SaveState(w));
  if (memory_) memory_->SaveMemory(w);
  return Status();
}

Status CacheCore::RestoreState(StateReader& r) {
  if (r.Bytes() != policy_->name() && r.ok()) r.Fail("saved with another cache policy");
  write_seq_ = r.U64();
  kick_pending_ = r.Bool();
  RETURN_IF_ERROR(r.status());
  RETURN_IF_ERROR(table_.RestoreState(r));
  RETURN_IF_ERROR(policy_->RestoreState(r));
  RETURN_IF_ERROR(seq_.RestoreState(r));
  RETURN_IF_ERROR(destager_.RestoreState(r));
  if (r.Bool() != (committer_ != nullptr) && r.ok()) r.Fail("saved with(out) a cache device");
  RETURN_IF_ERROR(r.status());
  if (committer_) {
    RETURN_IF_ERROR(committer_->RestoreState(r, table_.slots(), table_.sectors_per_block()));
  }
  if (memory_) RETURN_IF_ERROR(memory_->RestoreMemory(r));
  return r.status();
}

}  // namespace storlab
