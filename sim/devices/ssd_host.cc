#include "sim/devices/ssd_host.h"

namespace storlab {
namespace {

Nanos CostOf(double per_second) {
  return per_second > 0 ? Nanos::FromSeconds(1.0 / per_second) : Nanos(0);
}

}  // namespace

SsdHostInterface::SsdHostInterface(const SsdConfig& c)
    : full_duplex_(c.interface == SsdConfig::Interface::kNvme),
      link_time_(c.link_bytes_per_s),
      link_overhead_(c.link_command_overhead),
      read_latency_(c.read_command_time),
      write_latency_(c.write_command_time),
      read_cost_(CostOf(c.max_read_iops)),
      write_cost_(CostOf(c.max_write_iops)),
      write_path_limited_(c.write_bytes_per_s > 0),
      write_path_time_(c.write_bytes_per_s > 0 ? c.write_bytes_per_s : 1.0) {}

Nanos SsdHostInterface::Command(Nanos now, Op op) {
  const bool write = op == Op::kWrite;  // FLUSH, TRIM: light commands
  const Nanos slot = controller_.Reserve(now, now, write ? write_cost_ : read_cost_);
  const Nanos link = down_.Reserve(now, now, link_overhead_);
  return Max(Max(slot, link), now + (write ? write_latency_ : read_latency_));
}

Nanos SsdHostInterface::FromHost(Nanos now, Nanos ready, uint64_t bytes) {
  Nanos t = down_.Reserve(now, ready, link_time_(bytes));
  if (write_path_limited_) t = Max(t, write_path_.Reserve(now, ready, write_path_time_(bytes)));
  return t;
}

Nanos SsdHostInterface::ToHost(Nanos now, Nanos ready, uint64_t bytes) {
  return up().Reserve(now, ready, link_time_(bytes));
}

Nanos SsdHostInterface::link_busy() const {
  return full_duplex_ ? down_.busy() + up_.busy() : down_.busy();
}

void SsdHostInterface::Reset() {
  controller_.Reset();
  write_path_.Reset();
  down_.Reset();
  up_.Reset();
}

}  // namespace storlab
