// MakeZfs: the "zfs" node type's profile keys, read into ZfsConfig, and
// the pool's members (children, regions, the slog).
#include <algorithm>
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "sim/layers/zfs/zfs.h"
#include "sim/profile/factories/factories.h"
#include "sim/quoted.h"

namespace storlab {

Result<std::unique_ptr<Node>> MakeZfs(Params& p, BuildContext& ctx) {
  ZfsConfig c;
  std::string layout = ctx.children.size() > 1 ? "mirror" : "stripe";
  p.Enum({"layout", "vdev layout of the members (default: mirror with 2+ children, else stripe)"},
         &layout, {"stripe", "mirror", "raidz1"});
  std::string slog_name;
  p.String({"slog", "name of the child used as separate intent log (ZIL) device"}, &slog_name);
  uint32_t regions = 1;
  p.Int({"member_regions", "regions each child is split into, each a pool member"}, &regions, 1,
        64);
  const bool has_record = p.Has("recordsize"), has_vol = p.Has("volblocksize");
  if (has_vol) {
    c.zvol = true;
    uint64_t volblock = 8 * 1024;  // volblocksize default (zfsprops(7), before 2.2)
    p.Size({"volblocksize", "a zvol's block size (setting it makes a zvol)"}, &volblock, 512,
           128 * 1024);
    // A zvol's records are its volblocks (recordsize as well is an error below).
    if (!has_record) c.record_size = volblock;
  }
  // A zvol reads no recordsize, so its resolved listing loads back.
  if (!has_vol || has_record || p.describing()) {
    p.Size({"recordsize", "a dataset's record size (a power of two)"}, &c.record_size, 512,
           1 << 20);
  }
  p.Size({"capacity", "the dataset or zvol size; 0: what the pool can hold"}, &c.capacity, 0);
  std::string compression = "lz4";
  p.Enum({"compression", "compression property"}, &compression, {"off", "on", "lz4", "zstd"});
  std::string sync = "standard";
  p.Enum({"sync",
          "the sync property (zfsprops(7)): standard honours fsync/FUA, always makes every "
          "write synchronous, disabled ignores both"},
         &sync, {"standard", "always", "disabled"});
  c.sync = sync == "always"     ? ZfsSync::kAlways
           : sync == "disabled" ? ZfsSync::kDisabled
                                : ZfsSync::kStandard;
  p.Double({"compress_ratio",
            "how well records compress whose bytes the pool never saw (1.0: random, as fio's)"},
           &c.compress_ratio, 1.0, 1000.0);
  p.Size({"arc_size", "ARC size; 0: zfs_arc_max default, half the RAM"}, &c.arc_bytes);
  p.Size({"dirty_data_max",
          "dirty data a pool holds (zfs_dirty_data_max); 0: 10% of RAM, at most 4 GiB"},
         &c.dirty_max_bytes);
  p.Duration({"txg_timeout", "a transaction group commits at least this often (zfs_txg_timeout)"},
             &c.txg_timeout);
  p.Size({"mem", "the host's RAM (sizes the ARC and the dirty limit)"}, &c.host.mem_bytes,
         uint64_t{64} << 20);
  p.Int({"cores", "CPU cores for copying and compression"}, &c.host.cores, 1, 1024);
  p.Rate({"copy_rate_per_core", "one core copying user data"}, &c.host.copy_bytes_per_s_per_core);
  p.Rate({"memory_bandwidth", "the whole machine's copy ceiling"}, &c.host.memory_bandwidth);
  RETURN_IF_ERROR(p.Finish());
  if (has_record && has_vol) {
    p.Fail("volblocksize", "give recordsize (a dataset) or volblocksize (a zvol), not both");
    return p.Finish();
  }
  if (!std::has_single_bit(c.record_size)) {
    p.Fail(has_vol ? "volblocksize" : "recordsize", "must be a power of two");
    return p.Finish();
  }
  if (c.txg_timeout <= Nanos(0)) {
    p.Fail("txg_timeout", "must be positive");
    return p.Finish();
  }
  c.compression = ParseZfsCompression(compression).value();
  c.seed = ctx.seed;
  c.vdevs.layout = layout == "mirror"   ? ZfsLayout::kMirror
                   : layout == "raidz1" ? ZfsLayout::kRaidz1
                                        : ZfsLayout::kStripe;
  std::vector<ZfsVdevs::MemberSpec> members;
  Node* slog = nullptr;
  for (Node* n : ctx.children) {
    if (!slog_name.empty() && n->name() == slog_name) {
      slog = n;
      continue;
    }
    const uint64_t part = n->geometry().capacity / regions / ZfsVdevs::kSector * ZfsVdevs::kSector;
    for (uint32_t i = 0; i < regions; ++i) members.push_back({n, i * part, part});
  }
  if (!slog_name.empty() && !slog) {
    p.Fail("slog", "no child is named " + Quoted(slog_name));
    return p.Finish();
  }
  if (members.empty() || (c.vdevs.layout == ZfsLayout::kMirror && members.size() < 2) ||
      (c.vdevs.layout == ZfsLayout::kRaidz1 && members.size() < 2)) {
    p.Fail("layout",
           layout + " needs " + (layout == "stripe" ? "one member" : "two members") + " or more");
    return p.Finish();
  }
  // How much the pool holds, to size (or check) the dataset.
  const uint64_t dirty_max =
      c.dirty_max_bytes ? c.dirty_max_bytes : std::min(c.host.mem_bytes / 10, uint64_t{4} << 30);
  ZfsVdevs probe(members, slog, c.vdevs);
  const uint64_t usable = probe.usable_bytes();
  if (c.capacity == 0) c.capacity = ZfsPool::DefaultCapacity(usable, dirty_max, c.record_size);
  if (c.capacity == 0 || c.capacity > usable) {
    p.Fail("capacity", "the pool holds " + std::to_string(usable) + " bytes; the " +
                           (c.zvol ? "zvol" : "dataset") + " must fit in it");
    return p.Finish();
  }
  if (c.capacity % c.record_size != 0) {
    p.Fail("capacity", "must be a multiple of the record size");
    return p.Finish();
  }
  ASSIGN_OR_RETURN(auto store, ctx.MakeStore(c.capacity));
  return std::unique_ptr<Node>(
      new ZfsPool(ctx.engine, ctx.node_name, c, members, slog, std::move(store), ctx.keeps_data()));
}

}  // namespace storlab
