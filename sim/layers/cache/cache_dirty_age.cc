#include "sim/layers/cache/cache_dirty_age.h"

#include <iterator>

namespace storlab {

void DirtyAgeIndex::Insert(uint64_t seq, uint64_t block, Nanos since) {
  const Key k{seq, block};
  auto [it, inserted] = by_seq_.emplace(k, since);
  if (!inserted) return;
  // Keep the rising order of write times, or leave the fast path.
  if (it != by_seq_.begin() && std::prev(it)->second > since) rising_ = false;
  if (auto next = std::next(it); next != by_seq_.end() && next->second < since) rising_ = false;
  // A key inside the counted prefix (not a new write's): count it again.
  if (k < prefix_end_) ForgetPrefix();
}

void DirtyAgeIndex::Erase(uint64_t seq, uint64_t block) {
  const Key k{seq, block};
  if (by_seq_.erase(k) == 0) return;
  if (k < prefix_end_) --prefix_len_;
  if (by_seq_.empty()) {
    rising_ = true;
    ForgetPrefix();
  }
}

void DirtyAgeIndex::Clear() {
  by_seq_.clear();
  rising_ = true;
  ForgetPrefix();
}

DirtyAgeIndex::Expiry DirtyAgeIndex::ScanFromStart(Nanos now, Nanos expire, uint64_t limit) const {
  Expiry r;
  for (const auto& [k, since] : by_seq_) {
    if (!Expired(since, now, expire)) {
      r.next = since;
      return r;
    }
    if (++r.expired > limit) return r;
  }
  return r;
}

DirtyAgeIndex::Expiry DirtyAgeIndex::Scan(Nanos now, Nanos expire, uint64_t limit) {
  if (!rising_) return ScanFromStart(now, expire, limit);
  if (now < last_now_ || expire != last_expire_) ForgetPrefix();
  last_now_ = now;
  last_expire_ = expire;
  // Move the end of the expired prefix on: each entry crosses it once.
  auto it = by_seq_.lower_bound(prefix_end_);
  for (; it != by_seq_.end() && Expired(it->second, now, expire); ++it) ++prefix_len_;
  if (it != by_seq_.end()) {
    prefix_end_ = it->first;
  } else if (!by_seq_.empty()) {
    // Past the last entry: the next write's sequence is higher.
    prefix_end_ = Key{by_seq_.rbegin()->first.first + 1, 0};
  }
  Expiry r;
  r.expired = prefix_len_;
  if (r.expired > limit) {
    r.expired = limit + 1;
    return r;
  }
  if (it != by_seq_.end()) r.next = it->second;
  return r;
}

}  // namespace storlab
