#include "sim/layers/host_cpu.h"

#include <algorithm>

namespace storlab {

HostCpu::HostCpu(uint32_t cores, double per_core_bytes_per_s, double memory_bytes_per_s)
    : per_core_(per_core_bytes_per_s), memory_(memory_bytes_per_s), core_free_(cores) {}

Nanos HostCpu::Copy(Nanos now, uint64_t bytes) {
  return Compute(now, TransferTime(bytes, per_core_), bytes);
}

Nanos HostCpu::Compute(Nanos now, Nanos cpu_time, uint64_t memory_bytes) {
  auto core = std::min_element(core_free_.begin(), core_free_.end());
  const Nanos start = Max(now, *core);
  Nanos end = start + cpu_time;
  if (memory_bytes > 0) {
    bus_free_ = Max(bus_free_, start) + TransferTime(memory_bytes, memory_);
    end = Max(end, bus_free_);
  }
  *core = end;
  busy_ += cpu_time;
  return end;
}

void HostCpu::Reset() {
  std::fill(core_free_.begin(), core_free_.end(), Nanos());
  bus_free_ = Nanos();
}

}  // namespace storlab
