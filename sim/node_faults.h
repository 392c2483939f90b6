// NodeFaults: the faults any node can be given at run time, by the control
// commands (sim/serve/control.h: `detach`, `delay`, `ignore-fua`, `corrupt`)
// — generic, so that every device and every layer of every stack has them,
// without a faults node in the stack file:
//
//   detached     every new request is answered with EIO at once, as by a
//                disk whose cable was pulled; requests already in service
//                finish. Unlike `fail`, the layer above is not told: it
//                learns from the errors (md fails a member on a write error).
//   delay        requests that arrive before `delay_until` wait `delay`
//                before the node acts on them (nbdkit's delay filter: wait,
//                then call next), a latency spike.
//   ignore_fua   writes lose their FUA flag here (a USB bridge that drops
//                it); Node::IgnoreFua also clears caps().honors_fua.
//   corrupt      blocks (offsets of logical blocks) whose contents are
//                silently wrong: a read that covers one succeeds with the
//                block's first byte inverted; a write, write-zeroes or trim
//                that covers it rewrites it and heals it.
// A value type owned by its Node; not thread-safe (the engine's thread).
#ifndef STORLAB_SIM_NODE_FAULTS_H_
#define STORLAB_SIM_NODE_FAULTS_H_

#include <cstdint>
#include <set>

#include "sim/time.h"

namespace storlab {

struct NodeFaults {
  bool detached = false;
  Nanos delay;
  Nanos delay_until;
  bool ignore_fua = false;
  std::set<uint64_t> corrupt;  // block offsets, aligned to the logical block
  // Counters (for the commands' answers and the tests).
  uint64_t detached_errors = 0;
  uint64_t delayed = 0;
  uint64_t fua_dropped = 0;
  uint64_t corrupted_reads = 0;
  uint64_t healed_blocks = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_NODE_FAULTS_H_
