// LevelQueue: a stack of LRU lists ("levels"), the stochastic multiqueue of
// dm-cache's smq policy.
//
// Entries (keys) move up a level when they are used, so the most used sit in
// the top levels and the least used at the bottom. Moving an entry up swaps
// it with the oldest entry of the level it enters, so levels keep their
// sizes between redistributions; Redistribute() then evens the levels out to
// their target sizes (optionally with fewer entries in the top levels, which
// makes "the top levels" a sharp notion of hotness). Within a level the front
// is the oldest entry. Modelled on the queue of Linux
// drivers/md/dm-cache-policy-smq.c (q_requeue, q_redistribute, q_peek,
// q_pop), without its sentinels: in current kernels the demote sentinels
// are crossed by every q_peek that uses the clean queue (queue_demotion
// passes can_cross_sentinel = true) and the hotspot queue has none, so
// only the dirty queue's writeback sentinels would matter, and the
// cache's own destager writes dirty blocks back (cache_smq.h). Not
// thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_LEVELS_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_LEVELS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sim/lru_list.h"
#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class LevelQueue {
 public:
  explicit LevelQueue(uint32_t levels);
  LevelQueue(const LevelQueue&) = delete;
  LevelQueue& operator=(const LevelQueue&) = delete;

  uint32_t levels() const { return num_levels_; }
  size_t size() const { return pos_.size(); }
  bool Contains(uint64_t key) const { return pos_.count(key) != 0; }
  // REQUIRES: Contains(key).
  uint32_t Level(uint64_t key) const { return pos_.at(key).level; }

  // Adds `key` as the newest (or, with `oldest`, the oldest) entry of
  // `level`. REQUIRES: !Contains(key), level < levels().
  void Push(uint64_t key, uint32_t level, bool oldest = false);
  void Remove(uint64_t key);
  // Makes `key` the newest entry of its level, after moving it up
  // `extra_levels` (swapping with the oldest entry of the level it enters).
  void Requeue(uint64_t key, uint32_t extra_levels);
  // The oldest entry of the lowest populated level below `max_level` for
  // which `pred` is true, looking at no more than `max_scan` entries.
  std::optional<uint64_t> FindColdest(const std::function<bool(uint64_t)>& pred, size_t max_scan,
                                      uint32_t max_level = ~0u) const;
  // Removes and returns the coldest entry; *level: the level it was in.
  // REQUIRES: size() > 0.
  uint64_t PopColdest(uint32_t* level = nullptr);
  // Entries in levels >= `level`.
  size_t CountFrom(uint32_t level) const;

  // The top `top_levels` levels together should hold `in_top` entries.
  void SetTopLevels(uint32_t top_levels, uint32_t in_top);
  // Moves entries between adjacent levels until each holds its target count.
  void Redistribute();

  // storlab sim --state: each level's keys, oldest first (the targets
  // follow from the sizes). Restores into an empty queue of as many levels.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  struct Pos {
    uint64_t key;
    uint32_t level;
    LruHook<Pos> hook;
  };
  // Each level is an LRU order: cold end the oldest entry.
  using LevelList = LruList<Pos, &Pos::hook>;
  void Move(Pos& p, uint32_t level, bool oldest);
  void SetTargets();

  uint32_t num_levels_;
  std::unique_ptr<LevelList[]> levels_;
  std::unordered_map<uint64_t, Pos> pos_;  // stable nodes: the levels link them
  uint32_t top_levels_ = 0;
  uint32_t in_top_ = 0;
  std::vector<size_t> target_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_LEVELS_H_
