// SummarizeTrace: a trace (sim/trace_read.h) told as the life of each
// write — for a small job, each client write (a write submitted at the top
// of the stack: not by a layer on its own, not while a node above it had
// the write in service) with when it was acknowledged, when all of its
// bytes were on durable media, and which nodes held it in volatile memory
// meanwhile; then, for each power cut in the trace, which acknowledged
// writes survived (durable before the cut) and which were lost.
//
// It follows byte ranges down the stack unchanged, which is exact for
// stacks that do not remap (a device, its caches and links) and approximate
// under RAID or thin pools; and ranges, not versions: a later write of the
// same bytes made durable counts for an earlier one too.
// Thread-compatible.
#ifndef STORLAB_SIM_TRACE_SUMMARY_H_
#define STORLAB_SIM_TRACE_SUMMARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace_read.h"

namespace storlab {

// One client write's life.
struct WriteLife {
  uint64_t id = 0;
  int node = -1;  // where it was submitted
  uint64_t offset = 0, length = 0;
  bool fua = false;
  int64_t submit_ns = 0;
  size_t submit_event = 0;  // index into ParsedTrace::events
  int64_t ack_ns = -1;      // -1: never acknowledged in the trace
  size_t ack_event = 0;     // index of its complete event
  bool ack_ok = true;
  int64_t durable_ns = -1;  // -1: not durable by the end of the trace
  size_t durable_event = 0;
  struct Hold {
    int node;
    int64_t from_ns, to_ns;  // to_ns -1: still held at the end
    size_t from_event, to_event;
  };
  std::vector<Hold> held;  // nodes that held it volatile, top first
};

std::vector<WriteLife> WriteLives(const ParsedTrace& t);

// The report `storlab trace summarize` prints; at most `max_writes` listed.
std::string SummarizeTrace(const ParsedTrace& t, size_t max_writes = 200);

}  // namespace storlab

#endif  // STORLAB_SIM_TRACE_SUMMARY_H_
