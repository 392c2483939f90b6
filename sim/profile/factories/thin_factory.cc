// MakeThin: the "thin" node type's profile keys, read into ThinNode::Config.
#include <limits>
#include <memory>
#include <string>

#include "sim/layers/thin/thin_node.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

// Each key's meaning is beside its getter (`storlab stacks types thin`).
Result<std::unique_ptr<Node>> MakeThin(Params& params, BuildContext& ctx) {
  ThinNode::Config c;
  std::string when_full = "queue", error = "enospc";
  params.Require("virtual_size");
  params.Size({"virtual_size", "each thin volume's size (may exceed the pool)"}, &c.virtual_size,
              1);
  params.Int({"volumes", "thin volumes in the pool, end to end"}, &c.volumes, 1, 4096);
  params.Size({"chunk", "dm-thin data block: 64 KiB to 1 GiB, a multiple of 64 KiB"}, &c.chunk,
              64 * 1024, uint64_t{1} << 30);
  params.Size({"pool_size", "the pool's data size; 0: the whole child"}, &c.pool_size);
  params.Size({"others_used", "pool space held by volumes not modelled here"}, &c.others_used);
  params.Enum({"when_full", "a write to a full pool: queue (error_if_no_space off) or error"},
              &when_full, {"queue", "error"});
  params.Duration({"no_space_timeout", "how long a queued write waits for space (0: forever)"},
                  &c.no_space_timeout);
  params.Enum({"no_space_error", "the error a write to a full pool gets"}, &error,
              {"enospc", "eio"});
  params.Bool({"zero_new_chunks", "zero the rest of a new chunk a write does not cover whole"},
              &c.zero_new_chunks);
  params.Duration({"commit_period", "periodic metadata commit (0: only on FLUSH/FUA)"},
                  &c.commit_period);
  params.Bool({"discard_passdown", "pass discards to the data device"}, &c.discard_passdown);
  RETURN_IF_ERROR(params.Finish());
  c.queue_if_no_space = when_full == "queue";
  c.enospc = error == "enospc";
  c.keeps_data = ctx.keeps_data();
  const Node& child = *ctx.children[0];
  const uint64_t lb = child.geometry().logical_block;
  if (c.chunk % (64 * 1024) != 0) params.Fail("chunk", "must be a multiple of 64KiB (dm-thin)");
  if (c.virtual_size % lb != 0) {
    params.Fail("virtual_size",
                "must be a multiple of the pool's " + std::to_string(lb) + "-byte logical block");
  }
  if (c.volumes > 1 && c.virtual_size % c.chunk != 0) {
    params.Fail("virtual_size", "must be a multiple of the chunk (" + std::to_string(c.chunk) +
                                    " bytes) when the pool holds several volumes");
  }
  if (c.virtual_size > std::numeric_limits<uint64_t>::max() / c.volumes) {
    params.Fail("volumes", "the volumes' total size overflows");
  }
  if (c.pool_size == 0) c.pool_size = child.geometry().capacity;
  if (c.pool_size > child.geometry().capacity) {
    params.Fail("pool_size", "is larger than the data device (" +
                                 std::to_string(child.geometry().capacity) + " bytes)");
  }
  if (c.pool_size < c.chunk) params.Fail("pool_size", "holds less than one chunk");
  if (c.others_used > c.pool_size) params.Fail("others_used", "is larger than the pool");
  RETURN_IF_ERROR(params.Finish());
  return std::unique_ptr<Node>(new ThinNode(ctx.engine, ctx.node_name, *ctx.children[0], c));
}

}  // namespace storlab
