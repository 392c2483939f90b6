#include "sim/layers/vm/vm_node.h"

#include <algorithm>

#include "sim/stat_table.h"

namespace storlab {

VmNode::VmNode(Engine& engine, std::string name, Node& child, const Config& config)
    : NodeWrapper(engine, std::move(name), child), config_(config) {
  caps_.volatile_cache = config.writeback;  // the guest sees WCE=1 only with cache.writeback
  caps_.trim = config.discard && child.caps().trim;
  caps_.queue_depth = config.queue_depth;
  if (config.no_flush) {
    caps_.honors_flush = false;
    caps_.honors_fua = false;
  }
  if (config.esxi) {
    stable_writes_ = child.kind() == NodeKind::kNfs;
    caps_.volatile_cache = child.caps().volatile_cache && !stable_writes_;
    if (caps_.volatile_cache) caps_.honors_flush = caps_.honors_fua = false;
  }
}

void VmNode::DoSubmit(Request req) {
  if (req.op == Op::kFlush && (config_.no_flush || config_.esxi)) {
    ++dropped_flushes_;
    return CompleteAfter(config_.latency, std::move(req));
  }
  if (req.op == Op::kTrim && !config_.discard)
    return CompleteAfter(config_.latency, std::move(req));
  // One iothread serves the virtqueue: requests leave it 1/iops apart.
  const Nanos now = engine_.now();
  Nanos start = std::max(now, next_slot_);
  if (config_.iops > 0) next_slot_ = start + Nanos(static_cast<int64_t>(1e9 / config_.iops));
  start += config_.latency;
  const uint64_t epoch = epoch_;
  engine_.At(start, [this, epoch, r = std::move(req)]() mutable {
    if (epoch == epoch_) Issue(std::move(r));
  });
}

void VmNode::Issue(Request req) {
  // The guest's O_DIRECT bypassed only the guest's page cache; the host's
  // open flags decide here (block/file-posix.c raw_parse_flags: O_DIRECT iff cache.direct).
  req.flags &= ~kDirect;
  if (config_.direct && req.op != Op::kFlush) req.flags |= kDirect;
  if (stable_writes_ && req.op == Op::kWrite) req.flags |= kFua;
  if (req.is_write_like() && req.op != Op::kTrim && !config_.writeback) {
    return FlushAfterWrite(std::move(req));
  }
  child_.Submit(std::move(req));
}

void VmNode::FlushAfterWrite(Request req) {
  // cache.writeback=off: the write, then bdrv_co_flush (FUA emulation).
  Completion done = std::move(req.done);
  const uint64_t epoch = epoch_;
  req.done = [this, epoch, done = std::move(done)](Status st) mutable {
    if (epoch != epoch_) return;
    if (!st.ok()) return done(std::move(st));
    ++emulated_flushes_;
    child_.Submit(Request{.op = Op::kFlush, .done = std::move(done)});
  };
  child_.Submit(std::move(req));
}

void VmNode::OnPowerCut() {
  ++epoch_;
  next_slot_ = Nanos(0);
}

void VmNode::AppendStats(StatList& out) const {
  static constexpr StatField<VmNode> kStats[] = {
      {"dropped_flushes", kCount, [](const VmNode& x) { return StatNumber(x.dropped_flushes_); }},
      {"emulated_flushes", kCount, [](const VmNode& x) { return StatNumber(x.emulated_flushes_); }},
  };
  AppendStatTable(*this, kStats, out);
}

}  // namespace storlab
