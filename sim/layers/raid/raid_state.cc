// The md array's saved state (storlab sim --state, docs/state.md): what md
// keeps in its members' superblocks and in sysfs while the machine runs —
// each member's role (in sync, failed, recovering) and recovery_offset, the
// last check's mismatch_cnt, rmw_level, stripe_cache_size — and the heads
// the read balancer steers by. The stripe cache is RAM but holds nothing
// once the array is idle (every stripe_head is released when its write
// ends), so there is nothing of it to keep or for a reboot to drop. Not
// modelled, so not saved: the write-intent bitmap (md's resync after an
// unclean shutdown). Counters are per run.
#include <string>

#include "sim/layers/raid/raid_array.h"
#include "sim/layers/raid/raid_node.h"
#include "sim/layers/raid/raid_sync.h"
#include "sim/quoted.h"
#include "sim/state_coding.h"

namespace storlab {

Status RaidArray::SaveState(StateWriter& w) const {
  if (stripe_heads_.in_use() || stripe_heads_.waiting()) {
    return Status::Internal("raid stripe cache not idle");
  }
  w.U64(members_.size());
  for (const Member& m : members_) {
    if (m.in_flight) return Status::Internal("raid member not idle");
    w.Bytes(m.node->name());
    w.U64(static_cast<uint64_t>(m.state));
    w.U64(m.frontier);
    w.U64(m.durable_frontier);
    w.U64(m.head);
  }
  w.U64(static_cast<uint64_t>(rmw_level_));
  w.U64(stripe_heads_.capacity());
  w.U64(foreground_bytes_);
  return Status();
}

Status RaidArray::RestoreState(StateReader& r) {
  if (r.U64() != members_.size() && r.ok()) r.Fail("an array of another number of members");
  const uint64_t size = layout_.member_size();
  for (Member& m : members_) {
    const std::string name = r.Bytes();
    if (r.ok() && name != m.node->name()) {
      // The name comes from the file: quoted (it may hold any byte).
      r.Fail("member " + Quoted(m.node->name()) + " was replaced by node " + Quoted(name) +
             ", which this stack does not have there");
    }
    m.state = static_cast<State>(r.Below(3, "a raid member state"));
    m.frontier = r.Below(size + 1, "a recovery frontier");
    m.durable_frontier = r.Below(m.frontier + 1, "a checkpointed recovery frontier");
    m.head = r.U64();
  }
  rmw_level_ = static_cast<int>(r.Below(3, "rmw_level"));
  const uint64_t stripes = r.U64();
  if (r.ok() && (stripes < StripeHeads::kMin || stripes > StripeHeads::kMax)) {
    r.Fail("a stripe_cache_size out of md's range");
  }
  if (r.ok()) stripe_heads_ = StripeHeads(static_cast<uint32_t>(stripes));
  foreground_bytes_ = r.U64();
  return r.status();
}

Status RaidSync::SaveState(StateWriter& w) const {
  if (action_ != Action::kIdle || kick_pending_ || !steps_.empty()) {
    return Status::Internal("raid sync not idle");
  }
  w.U64(mismatch_sectors_);
  w.U64(last_foreground_);
  return Status();
}

Status RaidSync::RestoreState(StateReader& r) {
  mismatch_sectors_ = r.U64();
  last_foreground_ = r.U64();
  return r.status();
}

Status RaidNode::SaveState(StateWriter& w) const {
  RETURN_IF_ERROR(array_.SaveState(w));
  return sync_.SaveState(w);
}

Status RaidNode::RestoreState(StateReader& r) {
  RETURN_IF_ERROR(array_.RestoreState(r));
  return sync_.RestoreState(r);
}

}  // namespace storlab
