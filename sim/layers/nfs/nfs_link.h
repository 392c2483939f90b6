// NfsLink: the Ethernet between an NFS client and its server, one timeline
// per direction (full duplex).
//
// The payload rate is derived from the line rate and the frame layout
// (EthernetFrame, sim/layers/link/ethernet_frame.h): for 1GbE with a
// 1500-byte MTU, 1448 of 1538 bytes, 117.7 MB/s. Every message queues
// behind the ones sent before it in the same direction, then takes half the
// round-trip time to arrive — give or take a jitter (--seed), never before
// the message sent ahead of it (TCP keeps the order). Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_NFS_NFS_LINK_H_
#define STORLAB_SIM_LAYERS_NFS_NFS_LINK_H_

#include <cstdint>

#include "sim/random.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

class NfsLink {
 public:
  enum Direction { kToServer = 0, kToClient = 1 };

  // `line_bytes_per_s`: the line rate (1 Gb/s = 125e6 bytes/s).
  NfsLink(double line_bytes_per_s, uint32_t mtu, Nanos rtt, Jitter jitter);

  // Payload bytes per second in each direction.
  double payload_bytes_per_s() const { return payload_rate_; }
  Nanos rtt() const { return rtt_; }

  // Sends `bytes` of payload at `now`; returns when the last byte arrives.
  Nanos Send(Direction d, uint64_t bytes, Nanos now);
  void Reset(Nanos now);

  // storlab sim --state (nfs_state.cc): when each direction is next free
  // and when its last message arrived (no message overtakes it), and the
  // jitter's generators.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

  uint64_t bytes(Direction d) const { return pipes_[d].bytes; }
  Nanos busy(Direction d) const { return pipes_[d].busy; }

 private:
  struct Pipe {
    Nanos free_at;
    Nanos arrived;  // when the last message sent arrives
    Nanos busy;
    uint64_t bytes = 0;
  };
  double payload_rate_;
  Nanos rtt_;
  Jitter jitter_;
  Pipe pipes_[2];
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_NFS_NFS_LINK_H_
