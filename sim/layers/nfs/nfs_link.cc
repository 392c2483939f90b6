#include "sim/layers/nfs/nfs_link.h"

#include <cmath>

#include "sim/layers/link/ethernet_frame.h"

namespace storlab {

NfsLink::NfsLink(double line_bytes_per_s, uint32_t mtu, Nanos rtt, Jitter jitter)
    : payload_rate_(EthernetFrame::ForMtu(mtu).payload_rate(line_bytes_per_s)),
      rtt_(rtt),
      jitter_(jitter) {}

Nanos NfsLink::Send(Direction d, uint64_t bytes, Nanos now) {
  Pipe& p = pipes_[d];
  Nanos start = Max(now, p.free_at);
  Nanos wire = TransferTime(bytes, payload_rate_);
  p.free_at = start + wire;
  p.busy += wire;
  p.bytes += bytes;
  Nanos arrive = p.free_at + rtt_ / 2;
  if (const double j = jitter_.Next(); j != 0) {
    arrive = Max(p.arrived, Max(p.free_at, arrive + Nanos(std::llround(j))));
  }
  p.arrived = arrive;
  return arrive;
}

void NfsLink::Reset(Nanos now) {
  for (auto& p : pipes_) p.free_at = p.arrived = now;
}

}  // namespace storlab
