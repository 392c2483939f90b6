#include "sim/layers/nfs/nfs_link.h"

namespace storlab {

namespace {
constexpr uint32_t kTcpIpHeaders = 52;   // IPv4 20 + TCP 20 + timestamps option 12
constexpr uint32_t kEthernetExtra = 38;  // header 14 + FCS 4 + preamble 8 + gap 12
}  // namespace

NfsLink::NfsLink(double line_bytes_per_s, uint32_t mtu, Nanos rtt)
    : payload_rate_(line_bytes_per_s * (mtu - kTcpIpHeaders) / (mtu + kEthernetExtra)), rtt_(rtt) {}

Nanos NfsLink::Send(Direction d, uint64_t bytes, Nanos now) {
  Pipe& p = pipes_[d];
  Nanos start = Max(now, p.free_at);
  Nanos wire = TransferTime(bytes, payload_rate_);
  p.free_at = start + wire;
  p.busy += wire;
  p.bytes += bytes;
  return p.free_at + rtt_ / 2;
}

void NfsLink::Reset(Nanos now) {
  for (auto& p : pipes_) p.free_at = now;
}

}  // namespace storlab
