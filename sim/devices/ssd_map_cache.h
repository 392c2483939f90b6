// SsdMapCache: the part of the logical-to-physical table a DRAM-less
// controller holds in SRAM or in the host memory buffer (HMB).
//
// The table is cut into segments, one flash page of 4-byte entries each (a
// 16 KiB page maps 16 MiB of LBAs). The cache keeps the most recently used
// segments (LRU, sim/lru_list.h, over one array of segments: O(1) per
// access, no allocation after construction). A miss costs the I/O an extra flash read of the
// segment; a dirty segment pushed out costs a map-page program. So random I/O over a span larger
// than the cache covers slows down — the DRAM-less cliff (TechPowerUp, Team MP33: 4K random write
// falls off past ~15 GB). A drive with DRAM holds the whole table and has no SsdMapCache. Not
// thread-safe.
#ifndef STORLAB_SIM_DEVICES_SSD_MAP_CACHE_H_
#define STORLAB_SIM_DEVICES_SSD_MAP_CACHE_H_

#include <cstdint>
#include <vector>

#include "sim/lru_list.h"
#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class SsdMapCache {
 public:
  struct Outcome {
    bool hit = true;
    bool evicted_dirty = false;  // a dirty segment was written back
    uint64_t evicted = 0;        // which one (if evicted_dirty)
  };

  // `segments` in the whole table, `capacity` of them cached.
  // REQUIRES: capacity >= 1.
  SsdMapCache(uint64_t segments, uint64_t capacity);
  SsdMapCache(const SsdMapCache&) = delete;
  SsdMapCache& operator=(const SsdMapCache&) = delete;

  // Looks segment `s` up (loading it on a miss) and marks it dirty if the
  // access changes the mapping.
  Outcome Access(uint64_t s, bool dirty);
  // A power cut: the cache's contents are gone (the table on flash and its
  // journal are what the controller rebuilds from).
  void Clear();

  // storlab sim --state (ssd_state.cc): the cached segments in LRU order and their dirty flags;
  // read back into a fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  uint64_t segments() const { return segments_.size(); }
  uint64_t capacity() const { return capacity_; }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  struct Segment {
    bool dirty = false;
    LruHook<Segment> hook;  // linked: cached
  };

  uint64_t capacity_;
  std::vector<Segment> segments_;  // sized once: lru_ links them
  LruList<Segment, &Segment::hook> lru_;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_MAP_CACHE_H_
