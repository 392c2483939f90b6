#include "sim/layers/cache/cache_smq.h"

#include <algorithm>

#include "sim/layers/cache/cache_table.h"
#include "sim/stat_table.h"

namespace storlab {

SmqPolicy::SmqPolicy(uint64_t cache_blocks, uint64_t origin_blocks) : cache_blocks_(cache_blocks) {
  // calc_hotspot_params(): 16 cache blocks per hotspot block, a quarter as
  // many hotspot entries as cache blocks (at least 1024), hotspot blocks
  // halved until the entries do not cover more than the origin.
  nr_hotspots_ = std::max<uint64_t>(cache_blocks / 4, 1024);
  while (blocks_per_hotspot_ > 1 && blocks_per_hotspot_ * nr_hotspots_ > origin_blocks) {
    blocks_per_hotspot_ /= 2;
  }
  // Eight top levels holding about as many hotspots as fit in the cache.
  hotspot_.SetTopLevels(8, static_cast<uint32_t>(std::min(nr_hotspots_ / kLevels,
                                                          cache_blocks / blocks_per_hotspot_)));
}

int SmqPolicy::Confidence::Assess() const {
  uint64_t total = hits + misses;
  uint64_t c = total ? (hits << 8) / total : 0;  // FP_SHIFT 8
  if (c < (1u << 4)) return 0;                   // < 1/16: poor
  if (c < (1u << 5)) return 1;                   // < 1/8: fair
  return 2;
}

void SmqPolicy::CatchUpTicks(Nanos now) {
  int64_t t = now / kTick;
  if (t == tick_) return;
  // Every waker tick after the second with no access in between changes
  // nothing more, so only the last two are replayed.
  int64_t first = std::max(tick_ + 1, t - 1);
  for (int64_t k = first; k <= t; ++k) EndPeriod(kTick * k);
  tick_ = t;
}

void SmqPolicy::Tick(Nanos now) {
  CatchUpTicks(now);
  EndPeriod(now);
}

void SmqPolicy::EndPeriod(Nanos at) {
  // smq_tick: end_hotspot_period, then end_cache_period.
  ++ticks_;
  hotspot_hit_.clear();
  UpdatePromoteLevels();
  if (at >= next_hotspot_period_) {
    int a = hotspot_conf_.Assess();
    level_jump_ = a == 0 ? 4 : a == 1 ? 2 : 1;  // update_level_jump
    hotspot_.Redistribute();
    hotspot_conf_.Reset();
    next_hotspot_period_ = at + kHotspotPeriod;
  }
  if (at >= next_cache_period_) {
    cache_hit_.clear();
    dirty_.Redistribute();
    clean_.Redistribute();
    cache_conf_.Reset();
    next_cache_period_ = at + kCachePeriod;
  }
}

void SmqPolicy::UpdatePromoteLevels() {
  // update_promote_levels: the threshold would be default_promote_level()
  // (from the cache's hit ratio) with a full cache and NR_HOTSPOT_LEVELS / 2
  // with free blocks, but the kernel then takes
  // max(threshold_level, NR_HOTSPOT_LEVELS): always 64. Only the hotspot
  // queue's confidence cuts it down, and reads and writes share the level.
  uint32_t threshold = kLevels;
  int a = hotspot_conf_.Assess();
  if (a == 0) threshold /= 4;
  if (a == 1) threshold /= 2;
  read_promote_level_ = kLevels - threshold;
  write_promote_level_ = kLevels - threshold;
}

uint32_t SmqPolicy::UpdateHotspot(uint64_t block) {
  uint64_t hb = block / blocks_per_hotspot_;
  if (hotspot_.Contains(hb)) {
    uint32_t level = hotspot_.Level(hb);
    hotspot_conf_.Accessed(level);
    bool first = hotspot_hit_.insert(hb).second;
    hotspot_.Requeue(hb, first ? level_jump_ : 0);
    return hotspot_.Level(hb);
  }
  ++hotspot_conf_.misses;
  uint32_t level = 0;
  if (hotspot_.size() >= nr_hotspots_) {
    // The coldest entry is reused as it is: the new hotspot takes its
    // level (alloc_entry fails, q_pop, q_push without init_entry).
    uint64_t old = hotspot_.PopColdest(&level);
    hotspot_hit_.erase(old);
  }
  hotspot_.Push(hb, level);
  return level;
}

void SmqPolicy::Hit(const Access& a, CacheEntry& /*e*/) {
  // __lookup: a hit requeues the block (once per cache period); the
  // hotspot queue only sees misses.
  CatchUpTicks(a.now);
  bool dirty = dirty_set_.count(a.block) != 0;
  LevelQueue& q = queue(dirty);
  if (!q.Contains(a.block)) return;
  cache_conf_.Accessed(q.Level(a.block));
  if (cache_hit_.insert(a.block).second) q.Requeue(a.block, 1);
}

Promote SmqPolicy::Miss(const Access& a) {
  CatchUpTicks(a.now);
  ++cache_conf_.misses;
  uint32_t level = UpdateHotspot(a.block);
  // should_promote.
  bool has_free = cached_ < cache_blocks_;
  if (a.is_write) {
    if (has_free && a.full_block) return Promote::kTemporary;
    return level >= write_promote_level_ ? Promote::kPermanent : Promote::kNo;
  }
  return level >= read_promote_level_ ? Promote::kPermanent : Promote::kNo;
}

void SmqPolicy::Insert(CacheEntry& e, bool dirty, Promote how) {
  const uint64_t block = e.block;
  if (clean_.Contains(block) || dirty_.Contains(block)) return;
  // A promotion enters at the top level (__complete_background_work:
  // e->level = NR_CACHE_LEVELS - 1), fast or not.
  queue(dirty).Push(block, kLevels - 1);
  if (dirty) dirty_set_.insert(block);
  ++cached_;
}

void SmqPolicy::Load(CacheEntry& e, bool dirty) {
  const uint64_t block = e.block;
  const uint32_t slot = e.slot;
  if (clean_.Contains(block) || dirty_.Contains(block)) return;
  // smq_load_mapping without a hint: random_level(cblock) =
  // hash_32(cblock, 9) & 63 (include/linux/hash.h: GOLDEN_RATIO_32), ahead
  // of the level's other entries (push_front).
  const uint32_t level = ((slot * 0x61C88647u) >> (32 - 9)) & (kLevels - 1);
  queue(dirty).Push(block, level, /*oldest=*/true);
  if (dirty) dirty_set_.insert(block);
  ++cached_;
}

void SmqPolicy::Remove(CacheEntry& e) {
  const uint64_t block = e.block;
  if (!clean_.Contains(block) && !dirty_.Contains(block)) return;
  clean_.Remove(block);
  dirty_.Remove(block);
  dirty_set_.erase(block);
  cache_hit_.erase(block);
  --cached_;
}

void SmqPolicy::SetDirty(CacheEntry& e, bool dirty) {
  const uint64_t block = e.block;
  LevelQueue& from = queue(!dirty);
  if (!from.Contains(block)) return;
  uint32_t level = from.Level(block);
  from.Remove(block);
  queue(dirty).Push(block, level);
  if (dirty) {
    dirty_set_.insert(block);
  } else {
    dirty_set_.erase(block);
  }
}

std::optional<uint64_t> SmqPolicy::Victim(const std::function<bool(uint64_t)>& evictable,
                                          size_t max_scan) {
  return clean_.FindColdest(evictable, max_scan);
}

std::optional<uint64_t> SmqPolicy::DemotionVictim(const std::function<bool(uint64_t)>& evictable,
                                                  size_t max_scan) {
  // queue_demotion: q_peek(&mq->clean, mq->clean.nr_levels / 2, true).
  return clean_.FindColdest(evictable, max_scan, kLevels / 2);
}

std::optional<uint32_t> SmqPolicy::CacheLevel(uint64_t block) const {
  if (clean_.Contains(block)) return clean_.Level(block);
  if (dirty_.Contains(block)) return dirty_.Level(block);
  return std::nullopt;
}

void SmqPolicy::AppendStats(StatList& out) const {
  static constexpr StatField<SmqPolicy> kStats[] = {
      {"smq_read_promote_level", kCount,
       [](const SmqPolicy& x) { return StatNumber(x.read_promote_level_); }},
      {"smq_write_promote_level", kCount,
       [](const SmqPolicy& x) { return StatNumber(x.write_promote_level_); }},
      {"smq_hotspot_level_jump", kCount,
       [](const SmqPolicy& x) { return StatNumber(x.level_jump_); }},
      {"smq_blocks_per_hotspot", kCount,
       [](const SmqPolicy& x) { return StatNumber(x.blocks_per_hotspot_); }},
      {"smq_hotspots", kCount, [](const SmqPolicy& x) { return StatNumber(x.hotspots()); }},
      {"smq_hotspots_promotable", kCount,
       [](const SmqPolicy& x) { return StatNumber(x.hotspots_promotable()); }},
      {"smq_ticks", kCount, [](const SmqPolicy& x) { return StatNumber(x.ticks_); }},
  };
  AppendStatTable(*this, kStats, out);
}

}  // namespace storlab
