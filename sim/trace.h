// Tracer: the write's life, one line per event — every request every node
// of a stack sees (submit, complete), where a model moves data out of its
// volatile memory (destaged: to the node below; durable: onto its media),
// and power cuts. For teaching and for `storlab trace summarize`
// (sim/trace_summary.h); the format, "storlab-trace 1", is in docs/sim.md.
//
// A Node holds a Tracer* (nullptr: no tracing, one pointer check per
// request); Stack::SetTracer gives it to every node of a stack. Tracing
// never changes what the simulation does. At most `limit` event lines are
// written; the rest are counted, and Close() notes that the limit cut the
// trace short.
// Not thread-safe: belongs to the thread that runs the engine.
#ifndef STORLAB_SIM_TRACE_H_
#define STORLAB_SIM_TRACE_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/request.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

inline constexpr char kTraceFormat[] = "storlab-trace";
inline constexpr int kTraceVersion = 1;

class Tracer {
 public:
  // Writes to `path` (created or truncated).
  static Result<std::unique_ptr<Tracer>> Open(const std::string& path, uint64_t limit);
  // Keeps the trace in memory (text()), for tests.
  explicit Tracer(uint64_t limit);
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  // Times are written from `origin` on (the jobs' start). Events before it
  // are not expected.
  void set_origin(Nanos origin) { origin_ = origin; }

  // "node NAME TYPE VOLATILE CHILDREN": the stack's shape, for the reader.
  // VOLATILE: 0, 1 (acknowledges writes before they are durable), or
  // "traced" (and its model writes where they leave its volatile memory).
  void DescribeNode(std::string_view name, std::string_view type, bool is_volatile, bool traced,
                    const std::vector<std::string_view>& children);
  // A request entered a node; returns its id (for its complete line).
  uint64_t Submit(Nanos t, std::string_view node, const Request& req);
  void Complete(Nanos t, uint64_t id, std::string_view node, Op op, uint64_t offset,
                uint64_t length, uint32_t flags, const Status& st);
  // The node's volatile copy of [offset, offset+length) went to the node
  // below (destaged) or onto its own durable media (durable).
  void Destaged(Nanos t, std::string_view node, uint64_t offset, uint64_t length);
  void Durable(Nanos t, std::string_view node, uint64_t offset, uint64_t length);
  void PowerCut(Nanos t);

  uint64_t limit() const { return limit_; }
  uint64_t written() const { return events_; }
  uint64_t dropped() const { return dropped_; }
  // Notes a cut-short trace, flushes and closes the file.
  Status Close();
  // The in-memory trace (the second constructor).
  const std::string& text() const { return text_; }

 private:
  Tracer(FILE* f, std::string path, uint64_t limit);
  void Event(Nanos t, std::string_view event, uint64_t id, std::string_view node,
             std::string_view op, uint64_t offset, uint64_t length, uint32_t flags,
             std::string_view status);
  void Put(const std::string& line);

  FILE* f_ = nullptr;  // nullptr: into text_
  std::string path_;
  std::string text_;
  uint64_t limit_;
  uint64_t events_ = 0;
  uint64_t dropped_ = 0;
  Nanos cut_short_at_{0};
  Nanos origin_{0};
  uint64_t next_id_ = 1;
  bool closed_ = false;
};

}  // namespace storlab

#endif  // STORLAB_SIM_TRACE_H_
