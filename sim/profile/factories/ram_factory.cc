// MakeRamDisk: the "ram" node type's profile keys, read into RamDisk::Config.
#include <memory>

#include "sim/devices/ram_disk.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

Result<std::unique_ptr<Node>> MakeRamDisk(Params& params, BuildContext& ctx) {
  RamDisk::Config p;
  params.Size({"capacity", "the disk's size"}, &p.capacity, 4096);
  params.Int({"logical_block", "block size clients see, bytes (a power of two)"}, &p.logical_block,
             512, 65536);
  params.Duration({"latency", "fixed time added to every request"}, &p.latency);
  params.Rate({"bandwidth", "data rate shared by all requests"}, &p.bytes_per_s,
              Params::Zero::kNoLimit);
  params.Int({"queue_depth", "requests served at once; the rest wait"}, &p.queue_depth, 1, 65536);
  RETURN_IF_ERROR(params.Finish());
  if ((p.logical_block & (p.logical_block - 1)) != 0) {
    // Block devices (Linux, NBD) take only powers of two.
    params.Fail("logical_block", "must be a power of two");
    return params.Finish();
  }
  if (p.capacity % p.logical_block != 0) {
    params.Fail("capacity", "must be a multiple of logical_block");
    return params.Finish();
  }
  ASSIGN_OR_RETURN(auto store, ctx.MakeStore(p.capacity));
  return std::unique_ptr<Node>(new RamDisk(ctx.engine, ctx.node_name, p, std::move(store)));
}

}  // namespace storlab
