#include "sim/layers/iscsi/iscsi.h"

#include <algorithm>
#include <utility>

#include "sim/layers/link/ethernet_frame.h"
#include "sim/stat_table.h"

namespace storlab {
namespace {

// UNMAP's parameter list: an 8-byte header and one 16-byte block descriptor
// (SBC-3 §5.28.2); WRITE SAME carries one logical block of data.
constexpr uint64_t kUnmapParameters = 24;

}  // namespace

Iscsi::Iscsi(Engine& engine, std::string name, Node& child, const IscsiConfig& config)
    : NodeWrapper(engine, std::move(name), child),
      c_(config),
      rate_(EthernetFrame::ForMtu(config.mtu).payload_rate(config.line_bytes_per_s)),
      one_way_(config.rtt / 2),
      depth_(std::min(config.initiator_queue_depth, config.target_queue_depth)) {
  caps_.queue_depth = std::min(child.caps().queue_depth, depth_);
  // WCE=0: the target writes through, so the initiator sees no volatile
  // cache (and has nothing to flush) — if the LUN honours FUA.
  if (!c_.write_cache && child.caps().honors_fua) caps_.volatile_cache = false;
}

void Iscsi::DoSubmit(Request req) {
  if (active_ >= depth_) {
    ++queued_;
    waiting_.push_back(std::move(req));
    return;
  }
  Start(std::move(req));
}

void Iscsi::Start(Request req) {
  ++active_;
  const Nanos now = engine_.now();
  if (req.op == Op::kWrite) return StartWrite(std::move(req));
  uint64_t out = IscsiSession::kBhs;  // READ, SYNCHRONIZE CACHE: the command alone
  if (req.op == Op::kTrim) out = IscsiSession::DataPduBytes(kUnmapParameters, kUnmapParameters);
  if (req.op == Op::kWriteZeroes)
    out = IscsiSession::kBhs + geometry().logical_block;  // WRITE SAME: one block, immediate
  const Nanos at_target = Reserve(down_, now, out) + one_way_;
  engine_.At(at_target, [this, r = std::move(req)]() mutable { Execute(std::move(r)); });
}

void Iscsi::StartWrite(Request req) {
  const IscsiSession::WritePlan plan = c_.session.PlanWrite(req.length);
  const Nanos sent = Reserve(down_, engine_.now(), plan.command_bytes);
  if (plan.bursts == 0) {
    engine_.At(sent + one_way_, [this, r = std::move(req)]() mutable { Execute(std::move(r)); });
    return;
  }
  // The target asks for the rest as soon as the command's header arrives
  // (the unsolicited data may still be on the wire); the R2T comes back.
  const Nanos header_out =
      sent - TransferTime(plan.command_bytes, rate_) + TransferTime(IscsiSession::kBhs, rate_);
  const Nanos r2t_here = header_out + one_way_ + TransferTime(IscsiSession::kBhs, rate_) + one_way_;
  ++r2ts_;
  up_.bytes += IscsiSession::kBhs;
  engine_.At(r2t_here, [this, r = std::move(req), rest = plan.solicited]() mutable {
    SendBurst(std::move(r), rest);
  });
}

void Iscsi::SendBurst(Request req, uint64_t remaining) {
  const uint64_t burst = std::min(remaining, c_.session.max_burst);
  const Nanos sent = Reserve(down_, engine_.now(), c_.session.BurstBytes(burst));
  remaining -= burst;
  if (remaining == 0) {
    engine_.At(sent + one_way_, [this, r = std::move(req)]() mutable { Execute(std::move(r)); });
    return;
  }
  // MaxOutstandingR2T=1: the next R2T leaves once this burst has arrived.
  ++r2ts_;
  up_.bytes += IscsiSession::kBhs;
  const Nanos r2t_here = sent + one_way_ + TransferTime(IscsiSession::kBhs, rate_) + one_way_;
  engine_.At(r2t_here, [this, r = std::move(req), remaining]() mutable {
    SendBurst(std::move(r), remaining);
  });
}

void Iscsi::Execute(Request parent) {
  uint32_t flags = parent.flags;
  // WCE=0 (vdisk write_through): every write is made stable before its status.
  if (!c_.write_cache && parent.is_write_like() && parent.op != Op::kTrim) flags |= kFua;
  Request child{.op = parent.op,
                .flags = flags,
                .offset = parent.offset,
                .length = parent.length,
                .data = parent.data,
                .file_id = parent.file_id,
                .done = [this, p = std::move(parent)](Status st) mutable {
                  Respond(std::move(p), std::move(st));
                }};
  child_.Submit(std::move(child));
}

void Iscsi::Respond(Request parent, Status st) {
  // A read's data and status come back in its Data-In PDUs; anything else
  // gets a SCSI Response PDU.
  const uint64_t bytes = parent.op == Op::kRead && st.ok()
                             ? c_.session.ReadReplyBytes(parent.length)
                             : IscsiSession::kBhs;
  const Nanos back = Reserve(up_, engine_.now(), bytes) + one_way_;
  engine_.At(back, [this, p = std::move(parent), st = std::move(st)]() mutable {
    Finish(std::move(p), std::move(st));
  });
}

void Iscsi::Finish(Request parent, Status st) {
  --active_;
  // The next waiting command starts before this one completes, so a request
  // submitted from the completion cannot overtake it.
  if (!waiting_.empty()) {
    Request next = std::move(waiting_.front());
    waiting_.pop_front();
    Start(std::move(next));
  }
  parent.done(std::move(st));
}

void Iscsi::OnPowerCut() {
  active_ = 0;
  waiting_.clear();
  down_.busy_until = up_.busy_until = engine_.now();
}

void Iscsi::AppendStats(StatList& out) const {
  static constexpr StatField<Iscsi> kStats[] = {
      {"iscsi_payload_bytes_per_s", kBytesPerSecond, [](const Iscsi& n) { return n.rate_; }},
      {"iscsi_bytes_down", kBytes, [](const Iscsi& n) { return StatNumber(n.down_.bytes); }},
      {"iscsi_bytes_up", kBytes, [](const Iscsi& n) { return StatNumber(n.up_.bytes); }},
      {"iscsi_busy_down_ns", kNanos, [](const Iscsi& n) { return StatNumber(n.down_.busy_total); }},
      {"iscsi_busy_up_ns", kNanos, [](const Iscsi& n) { return StatNumber(n.up_.busy_total); }},
      {"iscsi_r2ts", kCount, [](const Iscsi& n) { return StatNumber(n.r2ts_); }},
      {"iscsi_commands_queued", kCount, [](const Iscsi& n) { return StatNumber(n.queued_); }},
  };
  AppendStatTable(*this, kStats, out);
}

}  // namespace storlab
