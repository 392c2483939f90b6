// MakeQcow2: the "qcow2" node type's profile keys, read into Qcow2Node::Config.
#include <algorithm>
#include <memory>
#include <string>

#include "sim/layers/vm/qcow2_map.h"
#include "sim/layers/vm/qcow2_node.h"
#include "sim/profile/factories/factories.h"

namespace storlab {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
// block/qcow2.h: DEFAULT_L2_CACHE_MAX_SIZE (Linux) and MIN_L2_CACHE_SIZE.
constexpr uint64_t kL2CacheMax = 32 * kMiB;
constexpr uint64_t kMinL2CacheEntries = 2;

bool PowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The largest virtual size, in whole clusters, whose fully allocated image
// fits in `capacity` bytes of file.
uint64_t LargestFitting(uint64_t cluster, uint64_t capacity) {
  uint64_t lo = 0, hi = capacity / cluster;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if (Qcow2Map::FullSize(cluster, mid * cluster) <= capacity) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo * cluster;
}

}  // namespace

// Each key's meaning is beside its getter (`storlab stacks types qcow2`).
Result<std::unique_ptr<Node>> MakeQcow2(Params& params, BuildContext& ctx) {
  Qcow2Node::Config c;
  const Node& child = *ctx.children[0];
  params.Size({"cluster_size",
               "qcow2 cluster size, a power of two (qemu-img create -o cluster_size; "
               "DEFAULT_CLUSTER_SIZE 64 KiB, MIN/MAX_CLUSTER_BITS 9..21)"},
              &c.cluster_size, 512, uint64_t{2} << 20);
  const bool cluster_ok = PowerOfTwo(c.cluster_size);
  if (!cluster_ok) params.Fail("cluster_size", "must be a power of two (512B .. 2MiB)");
  const uint64_t cs = cluster_ok ? c.cluster_size : 65536;
  c.l2_cache_entry_size = cs;
  params.Size({"l2_cache_entry_size",
               "bytes of an L2 table read and written at once (qemu l2-cache-entry-size; default "
               "the cluster size, docs/qcow2-cache.txt)"},
              &c.l2_cache_entry_size, 512, uint64_t{2} << 20);
  std::string prealloc = "off";  // qemu-img create default
  params.Enum({"preallocation",
               "qemu-img create -o preallocation: off allocates on first write; metadata, falloc "
               "and full create every L2 entry (falloc/full also the file's space)"},
              &prealloc, {"off", "metadata", "falloc", "full"});
  params.Bool({"lazy_refcounts",
               "qemu-img create -o lazy_refcounts (off by default): no refcount flush before "
               "L2 writes"},
              &c.lazy_refcounts);
  // The two left depend on the child's capacity: the table says so.
  params.DefaultsFrom("the child's capacity");
  // Default: the largest image that fits in the file's home fully allocated.
  c.virtual_size = LargestFitting(cs, child.geometry().capacity);
  params.Size({"size",
               "the guest disk's virtual size, a multiple of cluster_size (default: the largest "
               "that fits in the child fully allocated)"},
              &c.virtual_size, 1);
  // block/qcow2.c read_cache_sizes: MIN(what the whole image needs, 32 MiB).
  const uint64_t l2_bytes = (c.virtual_size / cs) * 8;
  c.l2_cache_bytes = std::min((l2_bytes + cs - 1) / cs * cs, kL2CacheMax);
  params.Size({"l2_cache_size",
               "L2 table cache (qemu -drive l2-cache-size; default MIN(the whole image's L2 "
               "tables, 32 MiB), block/qcow2.c read_cache_sizes)"},
              &c.l2_cache_bytes, 1);
  RETURN_IF_ERROR(params.Finish());
  if (c.virtual_size % cs != 0) {
    params.Fail("size", "must be a multiple of cluster_size (" + std::to_string(cs) + " bytes)");
  }
  if (c.virtual_size < cs) params.Fail("size", "the child cannot hold even one cluster");
  // block/qcow2.h QCOW_MAX_L1_SIZE (32 MiB of 8-byte entries): qemu refuses larger images.
  if (c.virtual_size / cs / (cs / 8) > (32 * kMiB) / 8) {
    params.Fail("size", "needs an L1 table over qemu's QCOW_MAX_L1_SIZE (32 MiB) with " +
                            std::to_string(cs) +
                            "-byte clusters: set a smaller size or larger "
                            "cluster_size");
  }
  if (!PowerOfTwo(c.l2_cache_entry_size) || c.l2_cache_entry_size > cs) {
    params.Fail("l2_cache_entry_size", "must be a power of two no larger than cluster_size");
  }
  if (cs < child.geometry().logical_block) {
    params.Fail("cluster_size", "is smaller than the child's " +
                                    std::to_string(child.geometry().logical_block) +
                                    "-byte logical block");
  }
  if (prealloc != "off" && Qcow2Map::FullSize(cs, c.virtual_size) > child.geometry().capacity) {
    params.Fail("preallocation", "\"" + prealloc + "\" needs " +
                                     std::to_string(Qcow2Map::FullSize(cs, c.virtual_size)) +
                                     " bytes of file; the child has " +
                                     std::to_string(child.geometry().capacity));
  }
  RETURN_IF_ERROR(params.Finish());
  // qcow2_update_options_prepare: at least MIN_L2_CACHE_SIZE entries.
  c.l2_cache_bytes = std::max(c.l2_cache_bytes, kMinL2CacheEntries * c.l2_cache_entry_size);
  c.preallocation = prealloc == "metadata" ? Qcow2Node::Preallocation::kMetadata
                    : prealloc == "falloc" ? Qcow2Node::Preallocation::kFalloc
                    : prealloc == "full"   ? Qcow2Node::Preallocation::kFull
                                           : Qcow2Node::Preallocation::kOff;
  c.keeps_data = ctx.keeps_data();
  return std::unique_ptr<Node>(new Qcow2Node(ctx.engine, ctx.node_name, *ctx.children[0], c));
}

}  // namespace storlab
