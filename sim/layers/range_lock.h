// RangeLock: exclusive locks on byte ranges, granted in arrival order.
//
// Layers that read, modify and write back use it so that two such cycles
// on the same bytes never interleave: md serialises a stripe through its
// stripe_head (the raid layer's parity updates, degraded reads, rebuild
// steps), and a block-size mismatch must not lose one of two concurrent
// sub-unit writes (the rmw layer). A request is granted once its range overlaps no
// held range and no earlier waiting request, so overlapping requests keep
// their order. Not thread-safe; owned by one node.
#ifndef STORLAB_SIM_LAYERS_RANGE_LOCK_H_
#define STORLAB_SIM_LAYERS_RANGE_LOCK_H_

#include <cstdint>
#include <deque>
#include <map>
#include <utility>

#include "sim/callback.h"

namespace storlab {

class RangeLock {
 public:
  using Grant = Callback<void(uint64_t ticket)>;

  RangeLock() = default;
  RangeLock(const RangeLock&) = delete;
  RangeLock& operator=(const RangeLock&) = delete;

  // Asks for [lo, hi). `granted(ticket)` runs once the range is free: at
  // once, from inside Acquire, if nothing is in the way, otherwise from the
  // Release that frees it. REQUIRES: lo < hi.
  void Acquire(uint64_t lo, uint64_t hi, Grant granted);
  // Releases a granted range. Unknown tickets are ignored.
  void Release(uint64_t ticket);
  // Forgets every holder and waiter without running them (a power cut).
  void Clear();

  size_t held() const { return held_.size(); }
  size_t waiting() const { return waiters_.size(); }

 private:
  struct Waiter {
    uint64_t ticket, lo, hi;
    Grant granted;
  };
  bool Overlaps(uint64_t lo, uint64_t hi, size_t before_waiter) const;
  void Pump();

  uint64_t next_ticket_ = 1;
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> held_;  // ticket -> [lo, hi)
  std::deque<Waiter> waiters_;
  bool pumping_ = false;
  bool repump_ = false;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RANGE_LOCK_H_
