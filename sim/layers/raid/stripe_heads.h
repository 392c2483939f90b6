// StripeHeads: md RAID5/6's stripe cache as a limit on work in flight.
//
// md handles every RAID5/6 write through stripe_heads, one per 4 KiB page
// row across the members, taken from a pool of stripe_cache_size entries
// (default 256, drivers/md/raid5.c NR_STRIPES; sysfs stripe_cache_size,
// 17-32768). A write waits (raid5_get_active_stripe sleeps) while the pool
// is empty, and holds its stripe_heads through the pre-reads of a
// read-modify-write or reconstruct-write and the writes that follow. With
// 512 KiB chunks one stripe row is 128 stripe_heads, so the default pool
// holds two rows: small or partial-stripe writes get little parallelism
// from the members, which is why raising stripe_cache_size is the usual
// advice for md RAID5 write speed (md(4)).
//
// Grants are first come, first served; a request larger than the pool is
// granted the whole pool (md cycles such a bio through the cache). Not
// thread-safe; owned by a RaidArray.
#ifndef STORLAB_SIM_LAYERS_RAID_STRIPE_HEADS_H_
#define STORLAB_SIM_LAYERS_RAID_STRIPE_HEADS_H_

#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>

#include "sim/callback.h"

namespace storlab {

class StripeHeads {
 public:
  static constexpr uint32_t kDefault = 256;           // md's NR_STRIPES
  static constexpr uint32_t kMin = 17, kMax = 32768;  // raid5_set_cache_size's bounds

  explicit StripeHeads(uint32_t capacity = kDefault) : capacity_(capacity), free_(capacity) {}

  uint32_t capacity() const { return capacity_; }
  uint32_t in_use() const { return capacity_ - free_; }
  size_t waiting() const { return waiters_.size(); }

  // Takes min(n, capacity) stripe_heads and runs `then(granted)`: at once
  // if they are free and nobody waits, else from the Release that frees
  // them.
  void Acquire(uint32_t n, Callback<void(uint32_t)> then) {
    n = std::clamp<uint32_t>(n, 1, capacity_);
    if (waiters_.empty() && free_ >= n) {
      free_ -= n;
      return then(n);
    }
    waiters_.emplace_back(n, std::move(then));
  }
  void Release(uint32_t n) {
    free_ = std::min(capacity_, free_ + n);
    while (!waiters_.empty() && free_ >= waiters_.front().first) {
      auto [k, fn] = std::move(waiters_.front());
      waiters_.pop_front();
      free_ -= k;
      fn(k);
    }
  }
  // Forgets holders and waiters without running them (a power cut).
  void Clear() {
    waiters_.clear();
    free_ = capacity_;
  }

 private:
  uint32_t capacity_;
  uint32_t free_;
  std::deque<std::pair<uint32_t, Callback<void(uint32_t)>>> waiters_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_STRIPE_HEADS_H_
