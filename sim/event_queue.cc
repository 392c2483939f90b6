#include "sim/event_queue.h"

#include <algorithm>
#include <bit>
#include <cassert>

namespace storlab {

unsigned EventQueue::BucketOf(Key k) const {
  const Key x = k ^ last_;
  const auto hi = static_cast<uint64_t>(x >> 64), lo = static_cast<uint64_t>(x);
  if (hi != 0) return 128 - static_cast<unsigned>(std::countl_zero(hi));
  return lo != 0 ? 64 - static_cast<unsigned>(std::countl_zero(lo)) : 0;
}

void EventQueue::Refill() {
  assert(size_ > 0);
  unsigned b = 0;
  for (unsigned w = 0; w < nonempty_.size(); ++w) {
    if (nonempty_[w] != 0) {
      b = w * 64 + static_cast<unsigned>(std::countr_zero(nonempty_[w]));
      break;
    }
  }
  std::vector<Entry>& from = buckets_[b];
  nonempty_[b / 64] &= ~(uint64_t{1} << (b % 64));
  Key least = KeyOf(from[0]);
  for (size_t i = 1; i < from.size(); ++i) least = std::min(least, KeyOf(from[i]));
  last_ = least;
  size_ -= from.size();
  // Each goes to a bucket below b (the least to 0), never back into `from`.
  for (const Entry& e : from) Put(e);
  from.clear();
}

void EventQueue::Rebase(Key k) {
  const unsigned to = BucketOf(k);  // >= 1: k != last_
  for (unsigned b = 0; b < to; ++b) {
    if (buckets_[b].empty()) continue;
    buckets_[to].insert(buckets_[to].end(), buckets_[b].begin(), buckets_[b].end());
    buckets_[b].clear();
    nonempty_[b / 64] &= ~(uint64_t{1} << (b % 64));
    nonempty_[to / 64] |= uint64_t{1} << (to % 64);
  }
  last_ = k;
}

void EventQueue::Clear() {
  for (auto& b : buckets_) b.clear();
  nonempty_.fill(0);
  last_ = 0;
  size_ = 0;
}

}  // namespace storlab
