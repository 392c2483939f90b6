#include "sim/node.h"

#include <string>

#include "sim/node_faults.h"
#include "sim/trace.h"

namespace storlab {

const char* OpName(Op op) {
  switch (op) {
    case Op::kRead:
      return "read";
    case Op::kWrite:
      return "write";
    case Op::kFlush:
      return "flush";
    case Op::kTrim:
      return "trim";
    case Op::kWriteZeroes:
      return "write_zeroes";
  }
  return "unknown";
}

Node::Node(Engine& engine, std::string name) : engine_(engine), name_(std::move(name)) {}
Node::~Node() = default;

Status Node::Validate(const Request& req) const {
  if (req.op == Op::kFlush) return Status();
  if (req.op == Op::kTrim && !caps_.trim) {
    return Status::NotSupported(name_ + ": trim is not supported");
  }
  if (req.length == 0) {
    return Status::InvalidArgument(name_ + ": " + OpName(req.op) + " of zero length");
  }
  const uint64_t lb = Alignment(req);
  if (req.offset % lb != 0 || req.length % lb != 0) {
    return Status::InvalidArgument(
        name_ + ": " + OpName(req.op) + " at offset " + std::to_string(req.offset) + " length " +
        std::to_string(req.length) + " is not aligned to the " + std::to_string(lb) +
        "-byte logical block" + (req.flags & kDirect ? " (O_DIRECT)" : ""));
  }
  if (req.offset > geometry_.capacity || req.length > geometry_.capacity - req.offset) {
    return Status::OutOfRange(name_ + ": " + OpName(req.op) + " at offset " +
                              std::to_string(req.offset) + " length " + std::to_string(req.length) +
                              " ends beyond the capacity " + std::to_string(geometry_.capacity));
  }
  return Status();
}

void Node::Submit(Request req) {
  const Op op = req.op;
  Status st = failed_ ? Status::IoError(name_ + ": the device has failed") : Validate(req);
  if (st.ok() && faults_ && faults_->detached) {
    ++faults_->detached_errors;
    st = Status::IoError(name_ + ": the device is detached");
  }
  if (!st.ok()) {
    ++stats_.op(op).errors;
    if (tracer_) {
      // Answered at once (from an event at now()).
      const uint64_t id = tracer_->Submit(engine_.now(), name_, req);
      tracer_->Complete(engine_.now(), id, name_, op, req.offset, req.length, req.flags, st);
    }
    CompleteAfter(Nanos(0), std::move(req), std::move(st));
    return;
  }
  uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<uint32_t>(in_flight_.size());
    in_flight_.emplace_back();
  }
  InFlight& rec = in_flight_[slot];
  rec.done = std::move(req.done);
  rec.start = engine_.now();
  rec.length = op == Op::kFlush ? 0 : req.length;
  rec.op = op;
  if (tracer_) {
    rec.flags = req.flags;
    rec.offset = op == Op::kFlush ? 0 : req.offset;
    rec.trace_id = tracer_->Submit(rec.start, name_, req);
  }
  stats_.OnStart(rec.start);
  req.done = [this, slot, gen = generation_](Status s) { Finish(slot, gen, std::move(s)); };
  if (faults_) return SubmitWithFaults(std::move(req));
  DoSubmit(std::move(req));
}

void Node::Finish(uint32_t slot, uint32_t generation, Status s) {
  if (generation != generation_) return;  // issued before a power cut
  InFlight rec = std::move(in_flight_[slot]);
  free_slots_.push_back(slot);
  OpStats& os = stats_.op(rec.op);
  ++os.ops;
  if (s.ok()) {
    os.bytes += rec.length;
    os.latency_ns.Add(static_cast<uint64_t>((engine_.now() - rec.start).count()));
  } else {
    ++os.errors;
  }
  stats_.OnDone(engine_.now());
  if (tracer_) TraceFinish(rec, s);
  rec.done(std::move(s));
}

void Node::TraceFinish(const InFlight& rec, const Status& st) {
  tracer_->Complete(engine_.now(), rec.trace_id, name_, rec.op, rec.offset, rec.length, rec.flags,
                    st);
  // A device writes through when it has no volatile cache, or for FUA when
  // it keeps FUA's promise: the data is on its media now.
  const bool write = rec.op == Op::kWrite || rec.op == Op::kWriteZeroes;
  if (write && st.ok() && children().empty() &&
      (!caps_.volatile_cache || ((rec.flags & kFua) && caps_.honors_fua))) {
    tracer_->Durable(engine_.now(), name_, rec.offset, rec.length);
  }
}

void Node::TraceMove(bool durable, uint64_t offset, uint64_t length) {
  if (durable) {
    tracer_->Durable(engine_.now(), name_, offset, length);
  } else {
    tracer_->Destaged(engine_.now(), name_, offset, length);
  }
}

Status Node::SaveState(StateWriter&) const { return StateRefused(); }

Status Node::RestoreState(StateReader&) { return StateRefused(); }

Status Node::StateRefused() const {
  return Status::NotSupported("node " + name_ + " (type " + std::string(type()) +
                              ") cannot save its state");
}

void Node::PowerCut() {
  stats_.DropInFlight(engine_.now());
  // Requests in service are forgotten: their completions never run.
  in_flight_.clear();
  free_slots_.clear();
  ++generation_;
  OnPowerCut();
  for (Node* c : children()) c->PowerCut();
}

void Node::ResetStats() { stats_.Reset(engine_.now()); }

Nanos Node::oldest_in_flight() const {
  Nanos oldest = engine_.now();
  for (const InFlight& r : in_flight_) {
    if (r.done) oldest = Min(oldest, r.start);  // free slots hold no completion
  }
  return oldest;
}

void Node::CompleteAfter(Nanos delay, Request req, Status st) {
  engine_.After(
      delay, [done = std::move(req.done), st = std::move(st)]() mutable { done(std::move(st)); });
}

NodeWrapper::NodeWrapper(Engine& engine, std::string name, Node& child)
    : Node(engine, std::move(name)), child_(child) {
  geometry_ = child.geometry();
  caps_ = child.caps();
}

}  // namespace storlab
