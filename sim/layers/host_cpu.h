// HostCpu: the host's cores and memory bandwidth, shared by the copies
// (buffered reads and writes) and the CPU work (compression, checksums)
// that layers charge to the machine running the workload.
//
// A reservation model: each piece of work runs on the core that is free
// first, taking `bytes / per_core_rate` (or an explicit CPU time) there,
// and every byte that crosses memory also reserves the machine-wide memory
// bus at `memory_bandwidth`, first come first served. One copier runs at
// the per-core rate; many copiers together reach min(cores × per-core,
// memory bandwidth). Deterministic; not thread-safe.
#ifndef STORLAB_SIM_LAYERS_HOST_CPU_H_
#define STORLAB_SIM_LAYERS_HOST_CPU_H_

#include <cstdint>
#include <vector>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

class HostCpu {
 public:
  // REQUIRES: cores >= 1, per_core_bytes_per_s > 0, memory_bytes_per_s > 0.
  HostCpu(uint32_t cores, double per_core_bytes_per_s, double memory_bytes_per_s);

  // A copy of `bytes` that can start at `now`; returns when it ends.
  Nanos Copy(Nanos now, uint64_t bytes);
  // Zeroing `bytes` (clear_page, memset): a zeroing writes each byte once
  // where a copy reads and writes it — derived, half a copy's core time and
  // memory traffic. Returns when it ends.
  Nanos Zero(Nanos now, uint64_t bytes);
  // CPU work of `cpu_time` on one core that also moves `memory_bytes`
  // across the memory bus; returns when it ends.
  Nanos Compute(Nanos now, Nanos cpu_time, uint64_t memory_bytes);

  // Forgets all reservations (a power cut).
  void Reset();
  // Core time reserved so far, summed over cores.
  Nanos busy() const { return busy_; }

  // storlab sim --state: when each core and the memory bus are next free; read back into a fresh
  // one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  double per_core_;
  double memory_;
  std::vector<Nanos> core_free_;
  Nanos bus_free_;
  Nanos busy_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_HOST_CPU_H_
