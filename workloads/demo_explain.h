// Where the bytes of a seed-table cell went, computed from the run's own
// statistics: what fio counted, what crossed the stack's narrowest link and
// reached its device, what the host page cache (or a ZFS pool) absorbed,
// rewrote while dirty and wrote back, how long end_fsync ran inside fio's
// runtime, and which layer acknowledged flushes without making data
// durable. Thread-compatible.
#ifndef STORLAB_WORKLOADS_DEMO_EXPLAIN_H_
#define STORLAB_WORKLOADS_DEMO_EXPLAIN_H_

#include <string>

#include "workloads/fio/fio_run.h"

namespace storlab::demo {

struct Limit {
  double mbps = 0;   // 10^6 bytes/s
  std::string what;  // "link 'eth' (117.7 MB/s)"
};

// The stack's limit for the run: its narrowest link's payload rate, or —
// without links — the rate at which its device took writes over the run.
Limit StackLimit(const fio::FioRun& run);
// The paragraph for a cell that fio measured at `simulated_mbps`.
std::string ExplainRun(const fio::FioRun& run, double simulated_mbps, const Limit& limit);
// For `storlab sim` and its report: the paragraph when the run's client
// figure (the busiest group's bandwidth, reads and writes together, as fio
// prints it in "Run status group") exceeds StackLimit by more than 2×, as
// the demo flags a cell; "" otherwise.
std::string ExplainIfInflated(const fio::FioRun& run);

}  // namespace storlab::demo

#endif  // STORLAB_WORKLOADS_DEMO_EXPLAIN_H_
