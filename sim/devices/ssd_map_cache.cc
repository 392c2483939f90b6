#include "sim/devices/ssd_map_cache.h"

#include <algorithm>

namespace storlab {

SsdMapCache::SsdMapCache(uint64_t segments, uint64_t capacity)
    : capacity_(std::max<uint64_t>(1, capacity)), segments_(segments) {}

SsdMapCache::Outcome SsdMapCache::Access(uint64_t seg, bool dirty) {
  Outcome out;
  Segment& s = segments_[seg];
  if (lru_.Linked(s)) {
    ++hits_;
  } else {
    ++misses_;
    out.hit = false;
    if (lru_.size() == capacity_) {
      Segment& victim = *lru_.Coldest();
      lru_.Unlink(victim);
      if (victim.dirty) {
        out.evicted_dirty = true;
        out.evicted = static_cast<uint64_t>(&victim - segments_.data());
      }
      victim.dirty = false;
    }
    s.dirty = false;
  }
  if (dirty) s.dirty = true;
  lru_.PushHot(s);
  return out;
}

void SsdMapCache::Clear() {
  lru_.Clear();
  std::fill(segments_.begin(), segments_.end(), Segment());
}

}  // namespace storlab
