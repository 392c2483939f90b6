// WireChannel: one direction of a wire (a host link, an iSCSI session's
// TCP connection): transfers occupy it back to back, in the order they were
// reserved, at the wire's payload rate. Plain data; not thread-safe.
#ifndef STORLAB_SIM_LAYERS_LINK_WIRE_CHANNEL_H_
#define STORLAB_SIM_LAYERS_LINK_WIRE_CHANNEL_H_

#include <cstdint>

#include "sim/time.h"

namespace storlab {

struct WireChannel {
  Nanos busy_until;
  Nanos busy_total;
  uint64_t bytes = 0;

  // Reserves `n` bytes at `rate` bytes per second, starting no earlier than
  // `earliest`; returns when the last byte has left.
  Nanos Reserve(Nanos earliest, uint64_t n, double rate) {
    const Nanos t = TransferTime(n, rate);
    const Nanos start = Max(earliest, busy_until);
    busy_until = start + t;
    busy_total += t;
    bytes += n;
    return busy_until;
  }
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_LINK_WIRE_CHANNEL_H_
