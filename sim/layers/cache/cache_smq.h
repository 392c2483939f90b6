// SmqPolicy: a hot-spot promotion policy after dm-cache's default "smq"
// (stochastic multiqueue; Linux drivers/md/dm-cache-policy-smq.c and
// Documentation/admin-guide/device-mapper/cache-policies.rst).
//
// Accesses are tracked in coarse "hotspot" blocks (16 cache blocks each,
// fewer on small origins) kept in a 64-level queue: the first access in a
// period to a hotspot moves it up `level_jump` levels. A missed block is
// promoted only when its hotspot has climbed to the promote level. The
// promote level is recomputed every tick (1 s of simulated time): with free
// cache blocks it is the middle level, with a full cache it depends on the
// cache's hit ratio; and when the hotspot queue predicts accesses poorly
// (few accesses land in its top quarter) promotion is cut back to the very
// top levels. A fresh cache therefore promotes nothing during its first
// tick, and needs a few ticks of repeated accesses to learn a hot set — and
// to re-learn after the workload moves. Cached blocks sit in clean and
// dirty multiqueues; hits move them up one level per 10 s period, and the
// victim is the oldest clean block of the lowest level.
//
// Simplifications against the kernel: no sentinels (aging within a level),
// and the cache's own destager, not the dirty queue, picks writeback order.
// Ticks are computed lazily from the simulated time of each call.
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_SMQ_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_SMQ_H_

#include <unordered_set>

#include "sim/layers/cache/cache_levels.h"
#include "sim/layers/cache/cache_policy.h"

namespace storlab {

class SmqPolicy : public CachePolicy {
 public:
  static constexpr uint32_t kLevels = 64;               // NR_HOTSPOT_LEVELS, NR_CACHE_LEVELS
  static constexpr Nanos kTick = Nanos(1'000'000'000);  // dm-cache COMMIT_PERIOD (HZ)
  static constexpr Nanos kHotspotPeriod = Nanos(1'000'000'000);  // HOTSPOT_UPDATE_PERIOD
  static constexpr Nanos kCachePeriod = Nanos(10'000'000'000);   // CACHE_UPDATE_PERIOD

  SmqPolicy(uint64_t cache_blocks, uint64_t origin_blocks);
  SmqPolicy(const SmqPolicy&) = delete;
  SmqPolicy& operator=(const SmqPolicy&) = delete;

  std::string_view name() const override { return "smq"; }
  void Hit(const Access& a) override;
  Promote Miss(const Access& a) override;
  void Insert(uint64_t block, bool dirty, Promote how) override;
  void Remove(uint64_t block) override;
  void SetDirty(uint64_t block, bool dirty) override;
  std::optional<uint64_t> Victim(const std::function<bool(uint64_t)>& evictable,
                                 size_t max_scan) override;
  void AppendStats(StatList& out) const override;
  // The three queues level by level, the hits of this tick and this cache
  // period, the confidence counts, the promote levels, the level jump, the
  // tick and the next periods.
  void SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;

  uint32_t read_promote_level() const { return read_promote_level_; }
  uint64_t blocks_per_hotspot() const { return blocks_per_hotspot_; }
  uint64_t hotspot_entries() const { return nr_hotspots_; }

 private:
  // Hits in the top quarter of a queue against all lookups: how well the
  // queue predicts accesses.
  struct Confidence {
    uint64_t hits = 0, misses = 0;
    void Accessed(uint32_t level) { level >= kLevels * 3 / 4 ? ++hits : ++misses; }
    void Reset() { hits = misses = 0; }
    int Assess() const;  // 0 poor, 1 fair, 2 well
  };

  void CatchUpTicks(Nanos now);
  void EndPeriod(Nanos at);
  void UpdatePromoteLevels();
  uint32_t DefaultPromoteLevel() const;
  // Records an access in the hotspot queue; returns the hotspot's level.
  uint32_t UpdateHotspot(uint64_t block);
  LevelQueue& queue(bool dirty) { return dirty ? dirty_ : clean_; }

  const uint64_t cache_blocks_;
  uint64_t blocks_per_hotspot_ = 16;
  uint64_t nr_hotspots_ = 1024;
  LevelQueue hotspot_{kLevels};
  LevelQueue clean_{kLevels};
  LevelQueue dirty_{kLevels};
  std::unordered_set<uint64_t> hotspot_hit_;  // hit in this tick
  std::unordered_set<uint64_t> cache_hit_;    // hit in this cache period
  std::unordered_set<uint64_t> dirty_set_;
  Confidence hotspot_conf_, cache_conf_;
  uint32_t level_jump_ = 1;
  uint32_t read_promote_level_ = kLevels;  // nothing is promoted before the first tick
  uint32_t write_promote_level_ = kLevels;
  int64_t tick_ = 0;
  Nanos next_hotspot_period_;
  Nanos next_cache_period_;
  uint64_t cached_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_SMQ_H_
