// A transport's floor, measured on this machine: the round trip of a pair
// of connected sockets between two threads of this process. An export's
// real round trip (nbdkit's socket, the kernel's FUSE queue) costs the same
// two thread wake-ups and copies plus its client's own work, so this is a
// lower bound for it, used to tell a client's pause from a round trip
// (compensation.h).
#ifndef STORLAB_SIM_SERVE_TRANSPORT_PROBE_H_
#define STORLAB_SIM_SERVE_TRANSPORT_PROBE_H_

#include <cstdint>

#include "sim/clock.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

// The median of `samples` round trips (after a few to warm up), each a
// 16-byte request one way and `bytes` + 16 bytes back, the shape of an NBD
// read, timed with `clock`.
Result<Nanos> ProbeSocketRoundTrip(uint64_t bytes, int samples, Clock& clock);

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_TRANSPORT_PROBE_H_
