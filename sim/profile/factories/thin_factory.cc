// MakeThin: the "thin" node type's profile keys, read into ThinNode::Config.
#include <limits>
#include <memory>
#include <string>

#include "sim/layers/thin/thin_node.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

// Profile keys:
//   virtual_size = "1TiB"       each volume's size (required; may exceed the pool)
//   volumes = 3                 thin volumes in the pool, end to end (default 1)
//   chunk = "64KiB"             dm-thin data block: 64 KiB to 1 GiB, multiple of 64 KiB
//   pool_size = "100GiB"        the pool (default: the whole child)
//   others_used = "40GiB"       pool space held by volumes not modelled here
//   when_full = "queue"         or "error" (dm-thin error_if_no_space)
//   no_space_timeout = "60s"    how long "queue" waits ("0s": forever)
//   no_space_error = "enospc"   or "eio": the error a write gets
//   zero_new_chunks = true      zero a new chunk a write does not cover whole
//   commit_period = "1s"        periodic metadata commit ("0s": only on flush/FUA)
//   discard_passdown = true     pass discards to the data device
Result<std::unique_ptr<Node>> MakeThin(Params& params, BuildContext& ctx) {
  ThinNode::Config c;
  std::string when_full = "queue", error = "enospc";
  params.Require("virtual_size");
  params.Size("virtual_size", &c.virtual_size, 1);
  params.Int("volumes", &c.volumes, 1, 4096);
  params.Size("chunk", &c.chunk, 64 * 1024, uint64_t{1} << 30);
  params.Size("pool_size", &c.pool_size);
  params.Size("others_used", &c.others_used);
  params.Enum("when_full", &when_full, {"queue", "error"});
  params.Duration("no_space_timeout", &c.no_space_timeout);
  params.Enum("no_space_error", &error, {"enospc", "eio"});
  params.Bool("zero_new_chunks", &c.zero_new_chunks);
  params.Duration("commit_period", &c.commit_period);
  params.Bool("discard_passdown", &c.discard_passdown);
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
