// MakePageCache: the "page_cache" node type's profile keys (its own and
// the host's, sim/profile/host.h), read into PageCacheConfig.
#include <memory>
#include <string>

#include "sim/layers/page_cache/page_cache.h"
#include "sim/profile/factories/factories.h"
#include "sim/profile/host.h"

namespace storlab {

Result<std::unique_ptr<Node>> MakePageCache(Params& params, BuildContext& ctx) {
  PageCacheConfig c;
  params.Size({"read_ahead", "read-ahead window (read_ahead_kb)"}, &c.read_ahead_bytes, 0,
              uint64_t{1} << 30);
  params.Size({"max_io", "largest writeback request (a multiple of 4KiB)"}, &c.max_io_bytes, kPage,
              uint64_t{64} << 20);
  params.Int(
      {"writeback_queue_depth", "writeback requests in flight (the block layer's nr_requests)"},
      &c.writeback_queue_depth, 1, 65536);
  RETURN_IF_ERROR(ParseHost(params, &c.host));  // also rejects unknown keys
  if (c.max_io_bytes % kPage != 0) {
    params.Fail("max_io", "must be a multiple of 4KiB");
    return params.Finish();
  }
  Node& child = *ctx.children.at(0);
  const uint32_t lb = child.geometry().logical_block;
  if (lb > kPage || kPage % lb != 0) {
    params.Fail("child", "the child's logical block (" + std::to_string(lb) +
                             ") must divide the 4096-byte page");
    return params.Finish();
  }
  c.keeps_data = ctx.keeps_data();
  return std::unique_ptr<Node>(new PageCache(ctx.engine, ctx.node_name, c, child));
}

}  // namespace storlab
