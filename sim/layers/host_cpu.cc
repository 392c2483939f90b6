#include "sim/layers/host_cpu.h"

#include <algorithm>

#include "sim/state_coding.h"

namespace storlab {

HostCpu::HostCpu(uint32_t cores, double per_core_bytes_per_s, double memory_bytes_per_s)
    : per_core_(per_core_bytes_per_s), memory_(memory_bytes_per_s), core_free_(cores) {}

Nanos HostCpu::Copy(Nanos now, uint64_t bytes) {
  return Compute(now, TransferTime(bytes, per_core_), bytes);
}

Nanos HostCpu::Zero(Nanos now, uint64_t bytes) {
  return Compute(now, TransferTime(bytes, 2 * per_core_), bytes / 2);
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

void HostCpu::SaveState(StateWriter& w) const {
  w.U64(core_free_.size());
  for (Nanos t : core_free_) w.Time(t);
  w.Time(bus_free_);
  w.Time(busy_);
}

Status HostCpu::RestoreState(StateReader& r) {
  if (r.U64() != core_free_.size()) r.Fail("saved with another number of cores");
  std::vector<Nanos> cores(core_free_.size());
  for (Nanos& t : cores) t = r.Time();
  const Nanos bus = r.Time(), busy = r.Time();
  if (!r.ok()) return r.status();
  core_free_ = std::move(cores);
  bus_free_ = bus;
  busy_ = busy;
  return Status();
}

}  // namespace storlab
