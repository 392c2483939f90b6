// ReadTrace: a trace written by Tracer (sim/trace.h, format "storlab-trace
// 1", docs/sim.md) read back into events and the stack's shape, for
// `storlab trace summarize` (sim/trace_summary.h). Anything else is an
// error naming the file and the line.
// Thread-compatible.
#ifndef STORLAB_SIM_TRACE_READ_H_
#define STORLAB_SIM_TRACE_READ_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/status.h"

namespace storlab {

struct TraceNode {
  std::string name, type;
  bool is_volatile = false;
  bool traced = false;  // its model writes where writes leave its volatile memory
  std::vector<std::string> children;
  int parent = -1;  // index into ParsedTrace::nodes, -1: a root
};

enum class TraceEventKind : uint8_t { kSubmit, kComplete, kDestaged, kDurable, kPowerCut };

struct TraceEvent {
  int64_t t_ns = 0;
  TraceEventKind kind = TraceEventKind::kSubmit;
  uint64_t id = 0;  // submit / complete; 0 for the others
  int node = -1;    // index into ParsedTrace::nodes; -1 for a power cut
  std::string op;   // read, write, flush, trim, write_zeroes ("-" for a cut)
  uint64_t offset = 0, length = 0;
  bool fua = false, background = false;
  bool ok = true;  // complete: the status was "ok"
  size_t line = 0;
  bool is_write() const { return op == "write" || op == "write_zeroes"; }
};

struct ParsedTrace {
  std::string file;
  std::vector<TraceNode> nodes;
  std::vector<TraceEvent> events;  // in the file's order
  bool truncated = false;          // the trace limit cut it short
  std::string truncated_note;
};

// Reads `path`; errors: "PATH: cannot read: ..." or "PATH:LINE: ...".
Result<ParsedTrace> ReadTrace(const std::string& path);
// The same from text already read (`file` names it in errors).
Result<ParsedTrace> ParseTrace(std::string_view text, const std::string& file);

}  // namespace storlab

#endif  // STORLAB_SIM_TRACE_READ_H_
