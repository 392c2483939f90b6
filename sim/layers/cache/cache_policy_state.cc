// The cache policies' saved state (storlab sim --state, docs/state.md):
// LevelQueue (smq's multiqueues), SmqPolicy (its hotspot queue, clean and
// dirty queues, this tick's and this period's hits, the confidence counts,
// promote levels, tick and periods: what it has learnt of the hot set, so a
// restored cache does not start again from "promote nothing in the first
// tick") and LruPolicy (its two lists). Sets are written sorted, so one
// state is one byte string.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "sim/layers/cache/cache_levels.h"
#include "sim/layers/cache/cache_lru.h"
#include "sim/layers/cache/cache_smq.h"
#include "sim/state_coding.h"

namespace storlab {
namespace {

void SaveSet(StateWriter& w, const std::unordered_set<uint64_t>& set) {
  std::vector<uint64_t> keys(set.begin(), set.end());
  std::sort(keys.begin(), keys.end());
  w.U64(keys.size());
  for (uint64_t k : keys) w.U64(k);
}

void RestoreSet(StateReader& r, std::unordered_set<uint64_t>& set) {
  const uint64_t n = r.Count(1);
  for (uint64_t i = 0; i < n && r.ok(); ++i) set.insert(r.U64());
}

}  // namespace

void LevelQueue::SaveState(StateWriter& w) const {
  w.U64(num_levels_);
  for (uint32_t level = 0; level < num_levels_; ++level) {
    w.U64(levels_[level].size());
    for (const Pos& p : levels_[level]) w.U64(p.key);  // oldest first
  }
}

Status LevelQueue::RestoreState(StateReader& r) {
  if (r.U64() != num_levels_ && r.ok()) r.Fail("a queue of another number of levels");
  for (uint32_t level = 0; level < num_levels_ && r.ok(); ++level) {
    const uint64_t n = r.Count(1);
    for (uint64_t i = 0; i < n && r.ok(); ++i) {
      const uint64_t key = r.U64();
      if (Contains(key)) {
        r.Fail("a key twice in a queue");
        break;
      }
      Push(key, level);
    }
  }
  return r.status();
}

void SmqPolicy::SaveState(StateWriter& w) const {
  w.U64(blocks_per_hotspot_);
  w.U64(nr_hotspots_);
  hotspot_.SaveState(w);
  clean_.SaveState(w);
  dirty_.SaveState(w);
  SaveSet(w, hotspot_hit_);
  SaveSet(w, cache_hit_);
  for (const Confidence* c : {&hotspot_conf_, &cache_conf_}) {
    w.U64(c->hits);
    w.U64(c->misses);
  }
  w.U64(level_jump_);
  w.U64(read_promote_level_);
  w.U64(write_promote_level_);
  w.I64(tick_);
  w.Time(next_hotspot_period_);
  w.Time(next_cache_period_);
  SaveSet(w, dirty_set_);
}

Status SmqPolicy::RestoreState(StateReader& r) {
  if ((r.U64() != blocks_per_hotspot_ || r.U64() != nr_hotspots_) && r.ok()) {
    r.Fail("smq hotspots of another size (another cache or origin size)");
  }
  RETURN_IF_ERROR(r.status());
  RETURN_IF_ERROR(hotspot_.RestoreState(r));
  RETURN_IF_ERROR(clean_.RestoreState(r));
  RETURN_IF_ERROR(dirty_.RestoreState(r));
  RestoreSet(r, hotspot_hit_);
  RestoreSet(r, cache_hit_);
  for (Confidence* c : {&hotspot_conf_, &cache_conf_}) {
    c->hits = r.U64();
    c->misses = r.U64();
  }
  level_jump_ = static_cast<uint32_t>(r.Below(kLevels + 1, "the smq level jump"));
  read_promote_level_ = static_cast<uint32_t>(r.Below(kLevels + 3, "an smq promote level"));
  write_promote_level_ = static_cast<uint32_t>(r.Below(kLevels + 3, "an smq promote level"));
  tick_ = r.I64();
  next_hotspot_period_ = r.Time();
  next_cache_period_ = r.Time();
  RestoreSet(r, dirty_set_);
  RETURN_IF_ERROR(r.status());
  cached_ = clean_.size() + dirty_.size();
  if (cached_ > cache_blocks_) r.Fail("more blocks in the smq queues than the cache holds");
  // The dirty set names the dirty queue's blocks (Insert and SetDirty keep
  // the two in step).
  bool in_step = dirty_set_.size() == dirty_.size();
  for (uint64_t b : dirty_set_) in_step = in_step && dirty_.Contains(b) && !clean_.Contains(b);
  if (!in_step && r.ok()) r.Fail("the smq dirty set is not its dirty queue");
  return r.status();
}

void LruPolicy::SaveState(StateWriter& w) const {
  for (const List* l : {&clean_, &dirty_}) {
    w.U64(l->size());
    for (const CacheEntry& e : *l) w.U64(e.block);  // least recently used first
  }
}

Status LruPolicy::RestoreState(StateReader& r) {
  for (const bool dirty : {false, true}) {
    const uint64_t n = r.Count(1);
    for (uint64_t i = 0; i < n && r.ok(); ++i) {
      const uint64_t block = r.U64();
      CacheEntry* e = r.ok() ? table_.Find(block) : nullptr;
      if (r.ok() && !e) {
        r.Fail("a block in the lru lists that the cache does not hold");
      } else if (e && List::Linked(*e)) {
        r.Fail("a block twice in the lru lists");
      }
      if (!r.ok()) break;
      e->lru_dirty = dirty;
      list(dirty).PushHot(*e);
    }
  }
  return r.status();
}

}  // namespace storlab
