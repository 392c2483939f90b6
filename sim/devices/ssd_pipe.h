// SsdPipe: one shared resource of the SSD model (the controller, a link
// direction, a flash channel) as a timeline of reservations.
//
// Each piece of work reserves `service` on the pipe. The pipe never runs
// more than one piece at a time, so over any busy period it delivers exactly
// its capacity; and no piece finishes before `ready + service`. When work is
// ready at once (ready == now) this is first-come first-served. When the
// work becomes ready later (data still on its way from a die), the slot is
// taken now and the piece finishes at max(ready + service, slot end): the
// pipe's bandwidth is conserved without leaving idle gaps for requests that
// happen to be reserved out of time order. This keeps every stage O(1) and
// free of events; only the request's completion is an event.
//
// Not thread-safe; a value type.
#ifndef STORLAB_SIM_DEVICES_SSD_PIPE_H_
#define STORLAB_SIM_DEVICES_SSD_PIPE_H_

#include <cstdint>

#include "sim/time.h"

namespace storlab {

// The time to move bytes at a fixed rate, rounded up to a whole nanosecond
// like TransferTime(), with the division done once.
class SsdByteTime {
 public:
  // REQUIRES: bytes_per_s > 0.
  explicit SsdByteTime(double bytes_per_s) : ns_per_byte_(1e9 / bytes_per_s) {}
  Nanos operator()(uint64_t bytes) const {
    const double t = static_cast<double>(bytes) * ns_per_byte_;
    const auto n = static_cast<int64_t>(t);
    return Nanos(n + (static_cast<double>(n) < t ? 1 : 0));
  }

 private:
  double ns_per_byte_;
};

// x / d and x % d for a divisor fixed at construction: shifts and masks when
// it is a power of two (the usual case for dies, planes and pages).
class SsdDivisor {
 public:
  explicit SsdDivisor(uint64_t d) : d_(d), shift_(PowerOfTwo(d) ? Log2(d) : -1) {}
  uint64_t Div(uint64_t x) const { return shift_ >= 0 ? x >> shift_ : x / d_; }
  uint64_t Mod(uint64_t x) const { return shift_ >= 0 ? x & (d_ - 1) : x % d_; }
  uint64_t value() const { return d_; }

 private:
  static bool PowerOfTwo(uint64_t d) { return d != 0 && (d & (d - 1)) == 0; }
  static int Log2(uint64_t d) {
    int n = 0;
    while ((uint64_t{1} << n) < d) ++n;
    return n;
  }
  uint64_t d_;
  int shift_;
};

class SsdPipe {
 public:
  // Reserves `service` for work ready at `ready`; returns when it is done.
  // REQUIRES: ready >= now, service >= 0.
  Nanos Reserve(Nanos now, Nanos ready, Nanos service) {
    next_free_ = Max(next_free_, now) + service;
    busy_ += service;
    return Max(ready + service, next_free_);
  }
  // When the pipe has worked off everything reserved so far.
  Nanos next_free() const { return next_free_; }
  // Total time reserved (for utilisation figures).
  Nanos busy() const { return busy_; }
  // storlab sim --state: both times (the owner writes and reads them).
  void Set(Nanos next_free, Nanos busy) {
    next_free_ = next_free;
    busy_ = busy;
  }
  // Forgets reservations (a power cut); keeps the busy total.
  void Reset() { next_free_ = Nanos(0); }

 private:
  Nanos next_free_;
  Nanos busy_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_PIPE_H_
