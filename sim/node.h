// Node: the interface every device and every layer of a stack implements.
//
// A node accepts requests (Submit) and completes each later, in simulated
// time, by running its completion from an engine event. Leaves are device
// models; inner nodes are layers that turn one request into requests to
// their children, the way an nbdkit filter calls `next`.
//
// Submit() is the same for every node: it rejects malformed requests (out of
// range, misaligned, unsupported) with an error completion, counts the
// request in the node's stats, and hands it to DoSubmit(). So a model only
// ever sees valid requests, and every node is measured the same way.
//
// Threading: a node belongs to the thread that runs its engine.
#ifndef STORLAB_SIM_NODE_H_
#define STORLAB_SIM_NODE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine.h"
#include "sim/node_kind.h"
#include "sim/node_stats.h"
#include "sim/request.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;
class Store;
class Tracer;

struct Geometry {
  uint64_t capacity = 0;           // bytes
  uint32_t logical_block = 512;    // requests must be aligned to this
  uint32_t physical_block = 4096;  // smaller writes may cost a read-modify-write
};

struct Capabilities {
  bool trim = false;            // accepts kTrim
  bool rotational = false;      // seeks cost time (for the export's hints)
  bool volatile_cache = false;  // acknowledges writes before they are durable,
                                // so FLUSH and FUA mean something
  // Whether FLUSH and FUA keep their promise. False models a stack that lies:
  // an NFS server exported `async` answers COMMIT before the data is on
  // stable storage; a USB bridge with broken FUA drops the flag. A layer
  // honours them only if every child does. The conformance suite expects
  // durability only where these are true, and the oracle reports the loss.
  bool honors_flush = true;
  bool honors_fua = true;
  bool caches_reads = false;  // keeps read data in memory it owns (a prefetch helps)
  bool fast_zero = false;     // write-zeroes costs less than writing zeros (it unmaps)
  uint32_t queue_depth = 1;   // requests the node works on at once (advisory)
  // Its timing depends on what writes carry (ZFS compresses records): a
  // workload that can should give writes their bytes even in a run that
  // keeps no data (Request::data).
  bool uses_write_data = false;
};
// kRead, kWrite, kFlush and kWriteZeroes are always accepted: a node without
// a volatile cache completes FLUSH at once, and treats write-zeroes as a
// write of zeros unless it has something faster.

struct NodeFaults;

class Node {
 public:
  Node(Engine& engine, std::string name);
  virtual ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // Starts `req`. Its completion runs exactly once, later, from an engine
  // event (possibly at the current time), never from inside Submit().
  void Submit(Request req);

  // The model's kind, as named in profiles: "hdd", "ssd", "raid", ...
  virtual std::string_view type() const = 0;
  // The same as a type, for NodeAs<T>() (sim/node_kind.h); kOther for nodes
  // that are no catalog model (tests' own nodes).
  virtual NodeKind kind() const { return NodeKind::kOther; }
  const std::string& name() const { return name_; }
  const Geometry& geometry() const { return geometry_; }
  const Capabilities& caps() const { return caps_; }
  Engine& engine() const { return engine_; }

  // Children in a fixed order (a layer's child, a RAID's members).
  virtual std::vector<Node*> children() const { return {}; }

  // A power cut: this node and every node below drop what they hold in
  // volatile memory and forget work in flight. The caller (Stack::PowerCut)
  // clears the engine first, so completions of in-flight requests never run.
  // Afterwards the node behaves as if just powered on with its durable data.
  void PowerCut();

  // Stats. AppendStats adds the model's own figures (hits, dirty bytes, ...),
  // each with its unit, from one table (sim/stat_table.h); Series lists its
  // time series.
  const NodeStats& stats() const { return stats_; }
  void ResetStats();
  virtual void AppendStats(StatList& out) const {}
  virtual std::vector<const TimeSeries*> Series() const { return {}; }
  // Bytes of acknowledged writes this node holds only in volatile memory
  // now (a drive's write cache, a page cache's dirty pages): what a power
  // cut at this moment could lose here. The oracle's report names the
  // nodes that held some at a cut (workloads/power_cuts.h).
  virtual uint64_t volatile_bytes() const { return 0; }
  // Where this node keeps its durable data (a device's, a pool's), or
  // nullptr: the service reports each store's host memory (Store::AppendStats).
  virtual const Store* durable_store() const { return nullptr; }

  // The trace every request here is written to (sim/trace.h); nullptr:
  // none, the default (Stack::SetTracer sets it on every node).
  void set_tracer(Tracer* tracer) { tracer_ = tracer; }
  Tracer* tracer() const { return tracer_; }
  // Whether the model traces where writes leave its volatile memory
  // (TraceDestaged / TraceDurable), so a trace's reader can tell which
  // nodes held a write.
  bool traces_volatile() const { return traces_volatile_; }

  // Checks a request against this node's geometry and capabilities.
  Status Validate(const Request& req) const;

  // Requests submitted here and not completed yet, and when the oldest of
  // them was submitted (now() when none): for the driver's watchdog.
  uint32_t in_flight() const { return stats_.in_flight(); }
  Nanos oldest_in_flight() const;

  // --- State that lasts across runs (storlab sim --state: sim/stack_state.h) ---
  // Whether SaveState() keeps everything this node's later behaviour
  // depends on, once the stack is idle (nothing in flight, no timer armed).
  // False by default: the node refuses, and a run asked to save its stack
  // refuses before it starts, naming it (StateRefused()).
  virtual bool CanSaveState() const { return false; }
  // Appends the node's state. REQUIRES: the engine is idle. The default
  // returns StateRefused().
  virtual Status SaveState(StateWriter& w) const;
  // Reads what SaveState() wrote into a node just built from the same stack
  // description, before any request; an error (a corrupt or truncated file)
  // names the file and offset. The default returns StateRefused().
  virtual Status RestoreState(StateReader& r);
  // kNotSupported: "node NAME (type T) cannot save its state".
  Status StateRefused() const;

  // --- Control: a device that dies and is replaced ---
  // A failed node answers every new request with kIoError, as a disk that
  // died or was pulled; requests already in service finish. Its contents
  // stay, untrusted, for when it comes back.
  void SetFailed(bool failed) { failed_ = failed; }
  bool failed() const { return failed_; }
  // `child` (one of children()) has failed, or has come back as a fresh
  // disk in the same slot. A layer with redundancy drops it from its set
  // (mdadm --fail) or starts rebuilding it (--add); the default does nothing.
  virtual Status OnChildFailed(Node& child) { return Status(); }
  virtual Status OnChildReplaced(Node& child) { return Status(); }

  // --- Control: faults any node can be given at run time (sim/node_faults.h:
  // detached, a latency spike, FUA ignored, silently corrupted blocks) ---
  // Created on first use; a node never given one pays one null test a request.
  NodeFaults& faults();
  const NodeFaults* faults_if_any() const { return faults_.get(); }
  // FUA ignored from now on: capabilities say so (honors_fua false), so the
  // oracle counts what it loses as a promise this node breaks.
  void IgnoreFua();

 protected:
  // REQUIRES: Validate(req).ok(). Must eventually run req.done exactly once.
  virtual void DoSubmit(Request req) = 0;
  // Drops volatile state and forgets in-flight work (children are handled by
  // PowerCut()).
  virtual void OnPowerCut() {}

  // Runs `req.done(st)` at now + delay.
  void CompleteAfter(Nanos delay, Request req, Status st = Status());

  // For models with a volatile cache, where they move data out of it: to
  // the node below (destaged) or onto their own durable media (durable).
  // One pointer check when nothing traces.
  void TraceDestaged(uint64_t offset, uint64_t length) {
    if (tracer_) TraceMove(false, offset, length);
  }
  void TraceDurable(uint64_t offset, uint64_t length) {
    if (tracer_) TraceMove(true, offset, length);
  }

  // The alignment Validate() asks of `req`'s offset and length: the logical
  // block. A page cache takes buffered reads and writes at any byte (it
  // reads and rewrites partial pages itself, as Linux does); O_DIRECT keeps
  // the block's alignment.
  virtual uint64_t Alignment(const Request& req) const { return geometry_.logical_block; }

  Engine& engine_;
  Geometry geometry_;
  Capabilities caps_;
  bool traces_volatile_ = false;  // set by models that call TraceDestaged/TraceDurable

 private:
  // A request in service here: its submitter's completion and what the stats
  // need. Kept in a slab so the completion Submit() installs stays small
  // (this, slot, generation) and never allocates.
  struct InFlight {
    Completion done;
    Nanos start;
    uint64_t length = 0;
    Op op = Op::kRead;
    // For the trace only.
    uint32_t flags = 0;
    uint64_t offset = 0;
    uint64_t trace_id = 0;
  };
  void Finish(uint32_t slot, uint32_t generation, Status st);
  // Submit()'s last step when faults_ is set (sim/node_faults.cc).
  void SubmitWithFaults(Request req);
  void TraceMove(bool durable, uint64_t offset, uint64_t length);
  void TraceFinish(const InFlight& rec, const Status& st);

  std::string name_;
  NodeStats stats_;
  std::vector<InFlight> in_flight_;
  std::vector<uint32_t> free_slots_;
  uint32_t generation_ = 0;  // bumped by a power cut: stale completions are ignored
  bool failed_ = false;
  std::unique_ptr<NodeFaults> faults_;
  Tracer* tracer_ = nullptr;
};

// A layer with one child that, by default, passes everything through: a
// model overrides only what it changes (like an nbdkit filter).
class NodeWrapper : public Node {
 public:
  // The wrapper takes its geometry and capabilities from `child`.
  NodeWrapper(Engine& engine, std::string name, Node& child);
  std::vector<Node*> children() const override { return {&child_}; }

 protected:
  void DoSubmit(Request req) override { child_.Submit(std::move(req)); }
  Node& child_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_NODE_H_
