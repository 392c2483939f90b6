#include "sim/layers/link/link.h"

#include <utility>

#include "sim/stat_table.h"

namespace storlab {
namespace {

// Ops whose payload crosses the wire (write-zeroes and trim carry only a range).
bool CarriesWriteData(const Request& r) { return r.op == Op::kWrite; }
bool CarriesReadData(const Request& r) { return r.op == Op::kRead; }

}  // namespace

Link::Link(Engine& engine, std::string name, Node& child, const LinkConfig& config)
    : NodeWrapper(engine, std::move(name), child), c_(config), rate_(config.payload_rate()) {
  caps_.trim = child.caps().trim && c_.trim_passthrough;
  caps_.honors_fua = child.caps().honors_fua && !c_.broken_fua;
  caps_.queue_depth = std::min(child.caps().queue_depth, c_.queue_depth);
}

void Link::DoSubmit(Request req) {
  if (active_ >= c_.queue_depth) {
    ++queued_;
    waiting_.push_back(std::move(req));
    return;
  }
  Start(std::move(req));
}

void Link::Start(Request req) {
  ++active_;
  const Nanos cmd_at = engine_.now() + c_.command_latency;
  if (CarriesWriteData(req)) {
    // Cut-through: the child starts as the data starts to arrive; the write
    // is not done before its last byte has crossed the wire.
    const Nanos data_done = Reserve(down(), cmd_at, req.length);
    const Nanos data_start = data_done - TransferTime(req.length, rate_);
    engine_.At(data_start, [this, r = std::move(req), data_done]() mutable {
      SubmitToChild(std::move(r), data_done);
    });
    return;
  }
  engine_.At(cmd_at,
             [this, r = std::move(req)]() mutable { SubmitToChild(std::move(r), engine_.now()); });
}

void Link::SubmitToChild(Request parent, Nanos data_done) {
  uint32_t flags = parent.flags;
  if (c_.broken_fua && (flags & kFua) != 0) {
    flags &= ~kFua;
    ++fua_dropped_;
  }
  const Nanos child_start = engine_.now();
  Request child{.op = parent.op,
                .flags = flags,
                .offset = parent.offset,
                .length = parent.length,
                .data = parent.data,
                .file_id = parent.file_id,
                .done = [this, p = std::move(parent), child_start, data_done](Status st) mutable {
                  OnChildDone(std::move(p), child_start, data_done, std::move(st));
                }};
  child_.Submit(std::move(child));
}

void Link::OnChildDone(Request parent, Nanos child_start, Nanos data_done, Status st) {
  const Nanos now = engine_.now();
  Nanos done_at = Max(now, data_done);
  if (st.ok() && CarriesReadData(parent)) {
    // The read's data streamed up while the child produced it: at best from
    // when the child started, never before the wire was free, never ending
    // before the child did.
    const Nanos wire = TransferTime(parent.length, rate_);
    const Nanos produced_from = now - Min(wire, now - child_start);
    done_at = Max(now, Reserve(up(), produced_from, parent.length));
  }
  engine_.At(done_at + c_.status_latency,
             [this, p = std::move(parent), st = std::move(st)]() mutable {
               Finish(std::move(p), std::move(st));
             });
}

void Link::Finish(Request parent, Status st) {
  --active_;
  // Start the next waiting command before completing this one, so a request
  // submitted from the completion cannot overtake it.
  if (!waiting_.empty()) {
    Request next = std::move(waiting_.front());
    waiting_.pop_front();
    Start(std::move(next));
  }
  parent.done(std::move(st));
}

void Link::OnPowerCut() {
  active_ = 0;
  waiting_.clear();
  down_.busy_until = up_.busy_until = engine_.now();
}

void Link::AppendStats(StatList& out) const {
  static constexpr StatField<Link> kStats[] = {
      {"link_payload_bytes_per_s", kBytesPerSecond, [](const Link& l) { return l.rate_; }},
      {"link_busy_down_ns", kNanos, [](const Link& l) { return StatNumber(l.down_.busy_total); }},
      {"link_busy_up_ns", kNanos, [](const Link& l) { return StatNumber(l.up_.busy_total); }},
      {"link_bytes_down", kBytes, [](const Link& l) { return StatNumber(l.down_.bytes); }},
      {"link_bytes_up", kBytes, [](const Link& l) { return StatNumber(l.up_.bytes); }},
      {"link_commands_queued", kCount, [](const Link& l) { return StatNumber(l.queued_); }},
      {"link_fua_dropped", kCount, [](const Link& l) { return StatNumber(l.fua_dropped_); }},
  };
  AppendStatTable(*this, kStats, out);
}

}  // namespace storlab
