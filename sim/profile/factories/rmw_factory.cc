// MakeRmw: the "rmw" node type's profile keys, read into RmwNode::Config.
#include <memory>
#include <string>

#include "sim/layers/rmw/rmw_node.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

// Each key's meaning is beside its getter (`storlab stacks types rmw`).
Result<std::unique_ptr<Node>> MakeRmw(Params& params, BuildContext& ctx) {
  RmwNode::Config c;
  params.Size(
      {"unit", "the child's internal unit (512e physical sector, volblocksize): a power of two"},
      &c.unit, 512, uint64_t{1} << 30);
  params.Int({"logical_block", "block size clients see, bytes (a power of two)"}, &c.logical_block,
             512, 65536);
  RETURN_IF_ERROR(params.Finish());
  const Node& child = *ctx.children[0];
  if (c.unit % c.logical_block != 0) {
    params.Fail("unit",
                "must be a multiple of logical_block (" + std::to_string(c.logical_block) + ")");
  }
  if (c.unit % child.geometry().logical_block != 0) {
    params.Fail("unit", "must be a multiple of the child's " +
                            std::to_string(child.geometry().logical_block) + "-byte logical block");
  }
  if ((c.logical_block & (c.logical_block - 1)) != 0) {
    params.Fail("logical_block", "must be a power of two");
  }
  // The unit is the physical block the layer reports (a zvol's volblocksize,
  // a 512e drive's 4 KiB sector): both are powers of two, as the block layer
  // requires of a physical block size (found by fuzzing: unit = "28KiB").
  if ((c.unit & (c.unit - 1)) != 0) params.Fail("unit", "must be a power of two");
  if (child.geometry().capacity < c.unit) params.Fail("unit", "is larger than the child");
  RETURN_IF_ERROR(params.Finish());
  c.keeps_data = ctx.keeps_data();
  return std::unique_ptr<Node>(new RmwNode(ctx.engine, ctx.node_name, *ctx.children[0], c));
}

}  // namespace storlab
