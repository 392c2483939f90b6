#include "sim/layers/nfs/nfs_link.h"

#include <cmath>

namespace storlab {

namespace {
constexpr uint32_t kTcpIpHeaders = 52;   // IPv4 20 + TCP 20 + timestamps option 12
constexpr uint32_t kEthernetExtra = 38;  // header 14 + FCS 4 + preamble 8 + gap 12
}  // namespace

NfsLink::NfsLink(double line_bytes_per_s, uint32_t mtu, Nanos rtt, Jitter jitter)
    : payload_rate_(line_bytes_per_s * (mtu - kTcpIpHeaders) / (mtu + kEthernetExtra)),
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
