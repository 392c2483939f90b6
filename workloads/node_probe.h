// Probe: a minimal synthetic workload for measuring a node's headline
// figures (4K random IOPS at QD1 and QD32, sequential MB/s, latency) in
// virtual time. Used by the model tests and by `storlab stacks probe`
// (cli/probe.cc, the command around it).
// The fio interpreter (workloads/fio) is the full workload engine; this is
// the CrystalDiskMark of a catalog device. Not thread-safe.
#ifndef STORLAB_WORKLOADS_NODE_PROBE_H_
#define STORLAB_WORKLOADS_NODE_PROBE_H_

#include <cstdint>

#include "sim/engine.h"
#include "sim/node.h"
#include "sim/stack.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

struct ProbeSpec {
  Op op = Op::kRead;  // kRead or kWrite
  uint64_t block_size = 4096;
  uint32_t queue_depth = 1;
  bool random = true;
  uint64_t span = 0;                      // bytes of the device used; 0: all of it
  uint64_t offset = 0;                    // start of the span
  Nanos duration = Nanos(2'000'000'000);  // simulated time to run
  uint64_t max_ios = 0;                   // stop after this many I/Os (0: no limit)
  bool fua = false;
  bool direct = false;      // O_DIRECT (kDirect): past a page cache, e.g. a vm node's guest cache
  bool flush_each = false;  // a FLUSH after each write (fsync per write)
  uint64_t seed = 1;
};

struct ProbeResult {
  // The first error: a spec the node cannot run (a span smaller than a
  // block), a run that got stuck (sim/watchdog.h), or a failed request.
  Status status;
  uint64_t ios = 0;
  uint64_t bytes = 0;
  uint64_t errors = 0;
  Nanos elapsed;  // 0 for a device without latency
  double iops = 0;
  double bytes_per_s = 0;
  double mean_latency_us = 0;  // per I/O, including its flush if flush_each
};

// Runs `spec` against `node` on `engine` (virtual time) and returns the
// figures. The engine's clock advances by about spec.duration. With
// `watched` (the node's stack), a stuck run ends with an error in
// ProbeResult::status instead of spinning (sim/watchdog.h).
ProbeResult RunProbe(Engine& engine, Node& node, const ProbeSpec& spec,
                     const Stack* watched = nullptr);

}  // namespace storlab

#endif  // STORLAB_WORKLOADS_NODE_PROBE_H_
