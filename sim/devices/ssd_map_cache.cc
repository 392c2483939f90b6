#include "sim/devices/ssd_map_cache.h"

#include <algorithm>

namespace storlab {

SsdMapCache::SsdMapCache(uint64_t segments, uint64_t capacity)
    : capacity_(std::max<uint64_t>(1, capacity)),
      flags_(segments, 0),
      prev_(segments, kNone),
      next_(segments, kNone) {}

SsdMapCache::Outcome SsdMapCache::Access(uint64_t seg, bool dirty) {
  Outcome out;
  const auto s = static_cast<uint32_t>(seg);
  if (flags_[s] & kCached) {
    ++hits_;
    Unlink(s);
  } else {
    ++misses_;
    out.hit = false;
    if (count_ == capacity_) {
      const uint32_t victim = tail_;
      Unlink(victim);
      if (flags_[victim] & kDirty) {
        out.evicted_dirty = true;
        out.evicted = victim;
      }
      flags_[victim] = 0;
      --count_;
    }
    flags_[s] = kCached;
    ++count_;
  }
  if (dirty) flags_[s] |= kDirty;
  PushFront(s);
  return out;
}

void SsdMapCache::Clear() {
  std::fill(flags_.begin(), flags_.end(), 0);
  std::fill(prev_.begin(), prev_.end(), kNone);
  std::fill(next_.begin(), next_.end(), kNone);
  head_ = tail_ = kNone;
  count_ = 0;
}

void SsdMapCache::Unlink(uint32_t s) {
  if (prev_[s] != kNone) {
    next_[prev_[s]] = next_[s];
  } else {
    head_ = next_[s];
  }
  if (next_[s] != kNone) {
    prev_[next_[s]] = prev_[s];
  } else {
    tail_ = prev_[s];
  }
  prev_[s] = next_[s] = kNone;
}

void SsdMapCache::PushFront(uint32_t s) {
  prev_[s] = kNone;
  next_[s] = head_;
  if (head_ != kNone) prev_[head_] = s;
  head_ = s;
  if (tail_ == kNone) tail_ = s;
}

}  // namespace storlab
