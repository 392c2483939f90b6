// CpuPool: the simulated host's cores, as a resource that workload threads
// book bursts of CPU work on (system-call entry and exit, fio's own per-I/O
// work). A burst ready at time t runs on the core that frees up first, so
// more busy threads than cores queue for CPU; with fewer, bursts never wait.
// Bookings are made in advance (the runner knows the burst's length), which
// is exact for one thread and a close approximation across many.
// Not thread-safe.
#ifndef STORLAB_WORKLOADS_HOST_CPU_POOL_H_
#define STORLAB_WORKLOADS_HOST_CPU_POOL_H_

#include <cstdint>
#include <vector>

#include "sim/time.h"

namespace storlab {

class CpuPool {
 public:
  // REQUIRES: cores >= 1.
  explicit CpuPool(uint32_t cores) : free_at_(cores) {}

  // Runs `d` of CPU work ready at `t`; returns when it ends. `allowed`
  // (sorted core numbers below cores(); null or empty: any core) limits the
  // cores it may run on (a thread's CPU affinity).
  Nanos Run(Nanos t, Nanos d, const std::vector<uint32_t>* allowed = nullptr) {
    if (d == Nanos(0)) return t;
    size_t best = 0;
    if (allowed && !allowed->empty()) {
      best = (*allowed)[0];
      for (uint32_t i : *allowed) {
        if (free_at_[i] < free_at_[best]) best = i;
      }
    } else {
      for (size_t i = 1; i < free_at_.size(); ++i) {
        if (free_at_[i] < free_at_[best]) best = i;
      }
    }
    Nanos start = Max(t, free_at_[best]);
    free_at_[best] = start + d;
    busy_ += d;
    return start + d;
  }
  uint32_t cores() const { return static_cast<uint32_t>(free_at_.size()); }
  // CPU time booked so far, over all cores.
  Nanos busy() const { return busy_; }

 private:
  std::vector<Nanos> free_at_;
  Nanos busy_;
};

}  // namespace storlab

#endif  // STORLAB_WORKLOADS_HOST_CPU_POOL_H_
