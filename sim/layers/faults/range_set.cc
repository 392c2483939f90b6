#include "sim/layers/faults/range_set.h"

#include <algorithm>
#include <iterator>

namespace storlab {

void RangeSet::Add(uint64_t off, uint64_t len) {
  uint64_t lo = off, hi = off + len;
  auto it = ranges_.upper_bound(lo);
  if (it != ranges_.begin() && std::prev(it)->second >= lo) --it;
  while (it != ranges_.end() && it->first <= hi) {
    lo = std::min(lo, it->first);
    hi = std::max(hi, it->second);
    it = ranges_.erase(it);
  }
  ranges_.emplace(lo, hi);
}

void RangeSet::Remove(uint64_t off, uint64_t len) {
  const uint64_t lo = off, hi = off + len;
  auto it = ranges_.upper_bound(lo);
  if (it != ranges_.begin()) --it;
  while (it != ranges_.end() && it->first < hi) {
    const uint64_t a = it->first, b = it->second;
    if (b <= lo) {
      ++it;
      continue;
    }
    it = ranges_.erase(it);
    if (a < lo) ranges_.emplace(a, lo);
    if (b > hi) ranges_.emplace(hi, b);
  }
}

bool RangeSet::Intersects(uint64_t off, uint64_t len) const {
  auto it = ranges_.upper_bound(off);
  if (it != ranges_.begin() && std::prev(it)->second > off) return true;
  return it != ranges_.end() && it->first < off + len;
}

uint64_t RangeSet::bytes() const {
  uint64_t b = 0;
  for (const auto& [lo, hi] : ranges_) b += hi - lo;
  return b;
}

}  // namespace storlab
