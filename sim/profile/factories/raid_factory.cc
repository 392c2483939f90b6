// MakeRaid: the "raid" node type's profile keys (each with its meaning beside
// its getter: `storlab stacks types raid`).
#include <algorithm>
#include <memory>
#include <string>

#include "sim/layers/raid/raid_node.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

Result<std::unique_ptr<Node>> MakeRaid(Params& params, BuildContext& ctx) {
  RaidNode::Config c;
  int level = -1;
  params.Require("level");
  params.Int({"level", "RAID level: 0, 1, 5, 6 or 10"}, &level, 0, 10);
  if (level == 1 && !params.Has("chunk") && !ctx.children.empty()) {
    // RAID1 has no chunks to speak of (md ignores --chunk there); the
    // layout still rounds members to one: no larger than the smallest.
    uint64_t smallest = UINT64_MAX;
    for (Node* m : ctx.children) smallest = std::min(smallest, m->geometry().capacity);
    while (c.chunk > 4096 && c.chunk > smallest) c.chunk /= 2;
  }
  params.Size({"chunk", "chunk size (mdadm --chunk): a power of two >= 4 KiB"}, &c.chunk, 4096,
              uint64_t{1} << 30);
  // Read (and so listed in the resolved stack) only where it applies, so
  // that a resolved RAID5/6 loads back.
  if (level == 10 || params.Has("copies")) {
    params.Int({"copies", "RAID10 near copies (mdadm layout n2); level 10 only"}, &c.copies, 2,
               RaidArray::kMaxMembers);
  }
  params.Int(
      {"rmw_level", "md rmw_level: 0 never read-modify-write, 1 when cheaper, 2 also on ties"},
      &c.rmw_level, 0, 2);
  if (level == 5 || level == 6 || params.Has("stripe_cache_size")) {
    params.Int(
        {"stripe_cache_size",
         "md stripe cache in 4 KiB page rows: RAID5/6 writes in flight; levels 5 and 6 only"},
        &c.stripe_cache_size, StripeHeads::kMin, StripeHeads::kMax);
  }
  params.Rate({"speed_limit_min", "rebuild speed floor (md speed_limit_min)"},
              &c.sync.speed_min_bytes_per_s);
  params.Rate({"speed_limit_max", "rebuild speed ceiling (md speed_limit_max)"},
              &c.sync.speed_max_bytes_per_s);
  RETURN_IF_ERROR(params.Finish());

  const int n = static_cast<int>(ctx.children.size());
  int min_members = 2;
  switch (level) {
    case 0:
      c.level = RaidLevel::kRaid0;
      break;
    case 1:
      c.level = RaidLevel::kRaid1;
      break;
    case 5:
      c.level = RaidLevel::kRaid5;
      min_members = 3;
      break;
    case 6:
      c.level = RaidLevel::kRaid6;
      min_members = 4;
      break;
    case 10:
      c.level = RaidLevel::kRaid10;
      min_members = c.copies;
      break;
    default:
      params.Fail("level", "expected 0, 1, 5, 6 or 10, got " + std::to_string(level));
  }
  if (params.Has("copies") && level != 10) params.Fail("copies", "applies to level 10 only");
  if (params.Has("stripe_cache_size") && level != 5 && level != 6) {
    params.Fail("stripe_cache_size", "applies to levels 5 and 6 only");
  }
  if (n < min_members) {
    params.Fail("level", "raid" + std::to_string(level) + " needs at least " +
                             std::to_string(min_members) + " members, has " + std::to_string(n));
  }
  if (n > RaidArray::kMaxMembers) {
    params.Fail("level", "at most " + std::to_string(RaidArray::kMaxMembers) + " members");
  }
  if ((c.chunk & (c.chunk - 1)) != 0) {
    params.Fail("chunk", "must be a power of two (md), got " + std::to_string(c.chunk));
  }
  uint64_t smallest = UINT64_MAX;
  for (Node* m : ctx.children) {
    smallest = std::min(smallest, m->geometry().capacity);
    if (c.chunk % m->geometry().logical_block != 0) {
      params.Fail("chunk", "must be a multiple of member '" + m->name() + "''s " +
                               std::to_string(m->geometry().logical_block) + "-byte logical block");
    }
  }
  if (n > 0 && smallest < c.chunk) {
    params.Fail("chunk",
                "is larger than the smallest member (" + std::to_string(smallest) + " bytes)");
  }
  if (c.sync.speed_min_bytes_per_s > c.sync.speed_max_bytes_per_s) {
    params.Fail("speed_limit_min", "is above speed_limit_max");
  }
  RETURN_IF_ERROR(params.Finish());
  return std::unique_ptr<Node>(
      new RaidNode(ctx.engine, ctx.node_name, c, ctx.children, ctx.keeps_data()));
}

}  // namespace storlab
