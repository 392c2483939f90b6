#include "sim/layers/range_lock.h"

#include <cassert>

namespace storlab {

void RangeLock::Acquire(uint64_t lo, uint64_t hi, Grant granted) {
  assert(lo < hi);
  waiters_.push_back({next_ticket_++, lo, hi, std::move(granted)});
  Pump();
}

void RangeLock::Release(uint64_t ticket) {
  if (held_.erase(ticket) != 0) Pump();
}

void RangeLock::Clear() {
  held_.clear();
  waiters_.clear();
  repump_ = false;
}

bool RangeLock::Overlaps(uint64_t lo, uint64_t hi, size_t before_waiter) const {
  for (const auto& [t, r] : held_)
    if (r.first < hi && lo < r.second) return true;
  for (size_t i = 0; i < before_waiter; ++i)
    if (waiters_[i].lo < hi && lo < waiters_[i].hi) return true;
  return false;
}

void RangeLock::Pump() {
  // A grant may acquire or release: the outer loop picks up the change.
  if (pumping_) {
    repump_ = true;
    return;
  }
  pumping_ = true;
  do {
    repump_ = false;
    for (size_t i = 0; i < waiters_.size(); ++i) {
      if (Overlaps(waiters_[i].lo, waiters_[i].hi, i)) continue;
      Waiter w = std::move(waiters_[i]);
      waiters_.erase(waiters_.begin() + static_cast<std::ptrdiff_t>(i));
      held_.emplace(w.ticket, std::make_pair(w.lo, w.hi));
      w.granted(w.ticket);
      repump_ = true;
      break;
    }
  } while (repump_);
  pumping_ = false;
}

}  // namespace storlab
