// SsdHostInterface: the drive's side of the host connection — the link
// (SATA 6 Gb/s, PCIe lanes) and the controller's command processing — as
// time, with no state beyond a few SsdPipes.
//
// Every command costs the controller a latency (write_command_time for
// writes, read_command_time for everything else) and a share of its
// throughput (1 / max_write_iops or 1 / max_read_iops), and
// costs the link a fixed overhead (SATA FIS exchange; NVMe SQE fetch, CQE,
// doorbell and interrupt). Payloads cross the link at its payload rate: a
// SATA link is half duplex (one pipe both ways), PCIe full duplex (one pipe
// per direction). Write payloads also pass the controller's write path
// (write_rate), which is what limits a SATA drive's sequential writes below
// its reads. Not thread-safe.
#ifndef STORLAB_SIM_DEVICES_SSD_HOST_H_
#define STORLAB_SIM_DEVICES_SSD_HOST_H_

#include <cstdint>

#include "sim/devices/ssd_config.h"
#include "sim/devices/ssd_pipe.h"
#include "sim/request.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

class SsdHostInterface {
 public:
  explicit SsdHostInterface(const SsdConfig& config);
  SsdHostInterface(const SsdHostInterface&) = delete;
  SsdHostInterface& operator=(const SsdHostInterface&) = delete;

  // A command of kind `op` arrives at `now`: returns when the controller is
  // ready to act on it.
  Nanos Command(Nanos now, Op op);
  // A write's payload, ready to move at `ready`: returns when it is in the
  // drive's buffer.
  Nanos FromHost(Nanos now, Nanos ready, uint64_t bytes);
  // A read's payload, in the controller at `ready`: returns when the host
  // has it (and the completion is posted).
  Nanos ToHost(Nanos now, Nanos ready, uint64_t bytes);

  // storlab sim --state (ssd_state.cc): the controller's and the link's timelines; read back into a
  // fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  // Time the link was busy, both directions summed.
  Nanos link_busy() const;
  // A power cut: reservations are forgotten.
  void Reset();

 private:
  SsdPipe& up() { return full_duplex_ ? up_ : down_; }

  bool full_duplex_;
  SsdByteTime link_time_;
  Nanos link_overhead_;
  Nanos read_latency_, write_latency_;
  Nanos read_cost_, write_cost_;  // controller time per command (1 / max iops)
  bool write_path_limited_;
  SsdByteTime write_path_time_;
  SsdPipe controller_, write_path_, down_, up_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_HOST_H_
