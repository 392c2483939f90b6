#include "sim/layers/raid/raid_node.h"

#include <algorithm>

#include "sim/layers/raid/raid_ops.h"
#include "sim/stat_table.h"

namespace storlab {
namespace {

uint64_t MemberSize(const std::vector<Node*>& members, uint64_t chunk) {
  uint64_t size = UINT64_MAX;
  for (Node* m : members) size = std::min(size, m->geometry().capacity);
  return size / chunk * chunk;
}

uint32_t MaxLogicalBlock(const std::vector<Node*>& members) {
  uint32_t lb = 512;
  for (Node* m : members) lb = std::max(lb, m->geometry().logical_block);
  return lb;
}

}  // namespace

RaidNode::RaidNode(Engine& engine, const std::string& name, const Config& config,
                   const std::vector<Node*>& members, bool keeps_data)
    : Node(engine, name),
      config_(config),
      array_(engine, name,
             RaidLayout(config.level, static_cast<int>(members.size()), config.chunk,
                        MemberSize(members, config.chunk), config.copies),
             members, keeps_data, std::max<uint64_t>(4096, MaxLogicalBlock(members))),
      sync_(array_, config.sync) {
  array_.set_rmw_level(config.rmw_level);
  array_.set_stripe_cache_size(config.stripe_cache_size);
  array_.on_member_change = [this] { sync_.Kick(); };
  array_.on_read_error = [this](int m, uint64_t off, uint64_t len) {
    sync_.RewriteRange(m, off, len);
  };

  geometry_.capacity = array_.layout().capacity();
  geometry_.logical_block = MaxLogicalBlock(members);
  geometry_.physical_block = geometry_.logical_block;
  caps_.trim = true;
  caps_.queue_depth = 0;
  for (Node* m : members) {
    geometry_.physical_block = std::max(geometry_.physical_block, m->geometry().physical_block);
    caps_.trim &= m->caps().trim;
    caps_.rotational |= m->caps().rotational;
    caps_.volatile_cache |= m->caps().volatile_cache;
    caps_.honors_flush &= m->caps().honors_flush;
    caps_.honors_fua &= m->caps().honors_fua;
    caps_.queue_depth = std::min<uint32_t>(65536, caps_.queue_depth + m->caps().queue_depth);
  }
}

std::vector<Node*> RaidNode::children() const {
  std::vector<Node*> out;
  out.reserve(array_.size());
  for (int i = 0; i < array_.size(); ++i) out.push_back(array_.member(i).node);
  return out;
}

void RaidNode::DoSubmit(Request req) {
  const RaidLevel level = array_.layout().level();
  switch (req.op) {
    case Op::kFlush:
      return Flush(std::move(req));
    case Op::kRead:
      if (array_.layout().striped()) return StartStripedRead(array_, std::move(req));
      return StartMirrorRead(array_, std::move(req));
    case Op::kWrite:
    case Op::kWriteZeroes:
    case Op::kTrim:
      if (level == RaidLevel::kRaid0) return StartRaid0Write(array_, std::move(req));
      if (array_.layout().mirrored()) return StartMirrorWrite(array_, std::move(req));
      if (req.op == Op::kTrim) return StartParityTrim(array_, std::move(req));
      return StartParityWrite(array_, std::move(req));
  }
}

void RaidNode::Flush(Request req) {
  // md passes a flush to every member that is still in the array.
  if (array_.failed()) {
    return CompleteAfter(Nanos(0), std::move(req), Status::IoError(name() + ": array has failed"));
  }
  uint64_t mask = 0;
  for (int m = 0; m < array_.size(); ++m)
    if (array_.member(m).state != RaidArray::State::kFailed) mask |= uint64_t{1} << m;
  array_.IssueEach(mask, Op::kFlush, 0, 0, 0, [this, r = std::move(req)](uint64_t failed) mutable {
    for (int m = 0; m < array_.size(); ++m)
      if ((failed >> m) & 1) array_.MarkFailed(m);
    r.done(array_.failed() ? Status::IoError(name() + ": array has failed") : Status());
  });
}

Status RaidNode::FailMember(int i) {
  if (i < 0 || i >= array_.size()) {
    return Status::InvalidArgument(name() + ": no member " + std::to_string(i));
  }
  if (!array_.MarkFailed(i)) {
    return Status::InvalidArgument(name() + ": member " + std::to_string(i) + " already failed");
  }
  return Status();
}

Status RaidNode::ReplaceMember(int i, Node* spare, uint64_t recovery_start) {
  if (i < 0 || i >= array_.size()) {
    return Status::InvalidArgument(name() + ": no member " + std::to_string(i));
  }
  RaidArray::Member& m = array_.member(i);
  if (m.state != RaidArray::State::kFailed) {
    return Status::InvalidArgument(name() + ": member " + std::to_string(i) +
                                   " is not failed (fail it first)");
  }
  if (array_.failed()) {
    return Status::InvalidArgument(name() + ": the array has failed; nothing to rebuild from");
  }
  const RaidLayout& l = array_.layout();
  if (recovery_start > l.member_size() || recovery_start % l.chunk() != 0) {
    return Status::InvalidArgument(name() + ": recovery_start " + std::to_string(recovery_start) +
                                   " is not a multiple of the chunk within the member");
  }
  if (spare != nullptr) {
    if (spare->geometry().capacity < array_.layout().member_size() ||
        array_.layout().member_size() % spare->geometry().logical_block != 0 ||
        spare->geometry().logical_block > geometry_.logical_block) {
      return Status::InvalidArgument(name() + ": spare '" + spare->name() +
                                     "' is too small or has a larger logical block");
    }
    m.node = spare;
  }
  m.state = RaidArray::State::kRecovering;
  m.frontier = m.durable_frontier = recovery_start;
  m.head = recovery_start;
  if (array_.on_member_change) array_.on_member_change();
  return Status();
}

int RaidNode::MemberIndex(const Node& child) const {
  for (int i = 0; i < array_.size(); ++i)
    if (array_.member(i).node == &child) return i;
  return -1;
}

Status RaidNode::OnChildFailed(Node& child) {
  int i = MemberIndex(child);
  if (i < 0) return Status::NotFound(name() + ": '" + child.name() + "' is not a member");
  if (array_.member(i).state == RaidArray::State::kFailed) return Status();
  return FailMember(i);
}

Status RaidNode::OnChildReplaced(Node& child) {
  int i = MemberIndex(child);
  if (i < 0) return Status::NotFound(name() + ": '" + child.name() + "' is not a member");
  if (array_.member(i).state != RaidArray::State::kFailed) return Status();
  return ReplaceMember(i);
}

double RaidNode::sync_progress() const {
  if (sync_.action() == RaidSync::Action::kIdle || sync_.end() == 0) return 1.0;
  return static_cast<double>(sync_.position()) / static_cast<double>(sync_.end());
}

uint64_t RaidNode::member_frontier(int i) const {
  const auto& m = array_.member(i);
  switch (m.state) {
    case RaidArray::State::kInSync:
      return array_.layout().member_size();
    case RaidArray::State::kFailed:
      return 0;
    case RaidArray::State::kRecovering:
      return m.frontier;
  }
  return 0;
}

void RaidNode::OnPowerCut() {
  array_.PowerCut();
  sync_.PowerCut();
}

int RaidNode::MembersIn(RaidArray::State state) const {
  int n = 0;
  for (int m = 0; m < array_.size(); ++m) n += array_.member(m).state == state;
  return n;
}

void RaidNode::AppendStats(StatList& out) const {
  static constexpr StatField<RaidNode> kMembers[] = {
      {"members", kCount, [](const RaidNode& x) { return StatNumber(x.array_.size()); }},
      {"members_failed_now", kCount,
       [](const RaidNode& x) { return StatNumber(x.MembersIn(RaidArray::State::kFailed)); }},
      {"members_recovering", kCount,
       [](const RaidNode& x) { return StatNumber(x.MembersIn(RaidArray::State::kRecovering)); }},
      {"array_failed", kFlag, [](const RaidNode& x) { return StatNumber(x.array_.failed()); }},
  };
  static constexpr StatField<RaidCounters> kCounters[] = {
      Field<&RaidCounters::full_stripe_writes>("full_stripe_writes", kCount),
      Field<&RaidCounters::rmw_writes>("rmw_writes", kCount),
      Field<&RaidCounters::rcw_writes>("rcw_writes", kCount),
      Field<&RaidCounters::degraded_writes>("degraded_writes", kCount),
      Field<&RaidCounters::degraded_reads>("degraded_reads", kCount),
      Field<&RaidCounters::member_errors>("member_errors", kCount),
      Field<&RaidCounters::read_errors_corrected>("read_errors_corrected", kCount),
      Field<&RaidCounters::members_failed>("members_failed_total", kCount),
  };
  // md's delayed pre-reads (preread_gate.h).
  static constexpr StatField<PrereadGate> kPreread[] = {
      {"preread_delayed", kCount,
       [](const PrereadGate& g) { return StatNumber(g.delayed_total()); }},
      {"preread_generations", kCount,
       [](const PrereadGate& g) { return StatNumber(g.generations()); }},
  };
  static constexpr StatField<RaidNode> kSync[] = {
      {"sync_running", kFlag,
       [](const RaidNode& x) { return StatNumber(x.sync_.action() != RaidSync::Action::kIdle); }},
      {"sync_progress", kRatio, [](const RaidNode& x) { return StatNumber(x.sync_progress()); }},
      {"sync_bytes", kBytes, [](const RaidNode& x) { return StatNumber(x.sync_.synced_bytes()); }},
      {"sync_errors", kCount, [](const RaidNode& x) { return StatNumber(x.sync_.errors()); }},
      {"rebuilds_completed", kCount,
       [](const RaidNode& x) { return StatNumber(x.sync_.completed_recoveries()); }},
      {"mismatch_sectors", kCount,
       [](const RaidNode& x) { return StatNumber(x.sync_.mismatch_sectors()); }},
  };
  AppendStatTable(*this, kMembers, out);
  AppendStatTable(array_.counters(), kCounters, out);
  AppendStatTable(array_.preread_gate(), kPreread, out);
  AppendStatTable(*this, kSync, out);
}

}  // namespace storlab
