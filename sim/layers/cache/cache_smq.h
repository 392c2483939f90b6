// SmqPolicy: dm-cache's default policy "smq" (stochastic multiqueue), as
// Linux drivers/md/dm-cache-policy-smq.c has it since the 4.12 rework of
// dm-cache's migrations (Documentation/admin-guide/device-mapper/
// cache-policies.rst).
//
// Misses only — reads and writes alike — are tracked in coarse "hotspot"
// blocks (16 cache blocks each, fewer on small origins; a quarter as many
// entries as cache blocks, at least 1024) kept in a 64-level queue
// (update_hotspot_queue): the first miss in a tick to a hotspot moves it up
// `level_jump` levels (1, 2 or 4: faster while the queue predicts poorly).
// A missed block is promoted when its hotspot's level reaches the promote
// level (should_promote), which every tick sets from the hotspot queue's
// confidence (update_promote_levels): 0 while it predicts well, 32 fair,
// 48 poor — the kernel's `max(threshold_level, NR_HOTSPOT_LEVELS)` makes
// the threshold 64 whatever the cache's own hit ratio, so
// default_promote_level's table has no effect. Before the first tick the
// promote level is 64: nothing is promoted. The hotspot queue is evened
// out (q_redistribute, eight sparse top levels) once per second.
//
// Ticks (smq_tick): the cache's one-second waker (do_waker), and the end
// of each "tick bio" (cache_end_io): the first bio mapped after the
// previous tick bio ended. At queue depth 1 every I/O is a tick bio, so a
// hotspot climbs on every miss; at queue depth 32 about one I/O in 32
// ticks, so it climbs a level per I/O time at most.
//
// Cached blocks sit in clean and dirty 64-level queues; a promoted block
// enters at the top level (__complete_background_work), a hit moves it up
// one level once per cache period (60 s), and demotion takes the oldest
// clean block of the lowest level below 32 (queue_demotion) — so a fresh
// promotion is not demoted before the clean queue is redistributed.
// Reloaded blocks (a restart, a prefilled cache) get the level of their
// hint or, without one, random_level(cblock) (smq_load_mapping).
//
// Simplifications: no sentinels (see cache_levels.h: in current kernels
// only the dirty queue's would matter); the cache's own destager, not the
// dirty queue, picks writeback order; the waker's ticks are computed
// lazily from the simulated time of each call. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_SMQ_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_SMQ_H_

#include <unordered_set>

#include "sim/layers/cache/cache_levels.h"
#include "sim/layers/cache/cache_policy.h"

namespace storlab {

class SmqPolicy : public CachePolicy {
 public:
  static constexpr uint32_t kLevels = 64;               // NR_HOTSPOT_LEVELS, NR_CACHE_LEVELS
  static constexpr Nanos kTick = Nanos(1'000'000'000);  // dm-cache-target.c COMMIT_PERIOD (HZ)
  static constexpr Nanos kHotspotPeriod = Nanos(1'000'000'000);  // HOTSPOT_UPDATE_PERIOD (HZ)
  static constexpr Nanos kCachePeriod = Nanos(60'000'000'000);   // CACHE_UPDATE_PERIOD (60 HZ)

  SmqPolicy(uint64_t cache_blocks, uint64_t origin_blocks);
  SmqPolicy(const SmqPolicy&) = delete;
  SmqPolicy& operator=(const SmqPolicy&) = delete;

  std::string_view name() const override { return "smq"; }
  void Hit(const Access& a, CacheEntry& e) override;
  // `a.full_block`: a fast promotion is possible (writeback mode, the whole
  // block written: optimisable_bio).
  Promote Miss(const Access& a) override;
  void Insert(CacheEntry& e, bool dirty, Promote how) override;
  void Load(CacheEntry& e, bool dirty) override;
  void Remove(CacheEntry& e) override;
  void SetDirty(CacheEntry& e, bool dirty) override;
  std::optional<uint64_t> Victim(const std::function<bool(uint64_t)>& evictable,
                                 size_t max_scan) override;
  std::optional<uint64_t> DemotionVictim(const std::function<bool(uint64_t)>& evictable,
                                         size_t max_scan) override;
  void Tick(Nanos now) override;
  bool background_migrations() const override { return true; }
  void AppendStats(StatList& out) const override;
  // The three queues level by level, the hits of this tick and this cache
  // period, the confidence counts, the promote levels, the level jump, the
  // tick and the next periods.
  void SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;

  uint32_t read_promote_level() const { return read_promote_level_; }
  uint32_t write_promote_level() const { return write_promote_level_; }
  uint32_t level_jump() const { return level_jump_; }
  uint64_t blocks_per_hotspot() const { return blocks_per_hotspot_; }
  uint64_t hotspot_entries() const { return nr_hotspots_; }
  // Hotspots tracked now, and those at or above the read promote level.
  uint64_t hotspots() const { return hotspot_.size(); }
  uint64_t hotspots_promotable() const { return hotspot_.CountFrom(read_promote_level_); }
  uint64_t ticks() const { return ticks_; }
  // The level of a cached block (nullopt if not cached).
  std::optional<uint32_t> CacheLevel(uint64_t block) const;

 private:
  // Hits in the top quarter of a queue against all lookups: how well the
  // queue predicts accesses (stats_level_accessed, stats_assess).
  struct Confidence {
    uint64_t hits = 0, misses = 0;
    void Accessed(uint32_t level) { level >= kLevels * 3 / 4 ? ++hits : ++misses; }
    void Reset() { hits = misses = 0; }
    int Assess() const;  // 0 poor, 1 fair, 2 well
  };

  void CatchUpTicks(Nanos now);
  void EndPeriod(Nanos at);
  void UpdatePromoteLevels();
  // Records a miss in the hotspot queue; returns the hotspot's level.
  uint32_t UpdateHotspot(uint64_t block);
  LevelQueue& queue(bool dirty) { return dirty ? dirty_ : clean_; }

  const uint64_t cache_blocks_;
  uint64_t blocks_per_hotspot_ = 16;
  uint64_t nr_hotspots_ = 1024;
  LevelQueue hotspot_{kLevels};
  LevelQueue clean_{kLevels};
  LevelQueue dirty_{kLevels};
  std::unordered_set<uint64_t> hotspot_hit_;  // jumped in this tick
  std::unordered_set<uint64_t> cache_hit_;    // hit in this cache period
  std::unordered_set<uint64_t> dirty_set_;
  Confidence hotspot_conf_, cache_conf_;
  uint32_t level_jump_ = 1;
  uint32_t read_promote_level_ = kLevels;  // nothing is promoted before the first tick
  uint32_t write_promote_level_ = kLevels;
  int64_t tick_ = 0;  // the waker's last tick (in kTick units)
  Nanos next_hotspot_period_;
  Nanos next_cache_period_;
  uint64_t cached_ = 0;
  uint64_t ticks_ = 0;  // ticks so far (a figure, not saved)
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_SMQ_H_
