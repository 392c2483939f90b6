#include "sim/layers/vm/qcow2_map.h"

namespace storlab {
namespace {

uint64_t DivUp(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// qcow2_co_create: header, refcount table and first refcount block take
// clusters 0, 1 and 2; the L1 table follows.
constexpr uint64_t kL1Cluster = 3;

uint64_t L1Entries(uint64_t cluster_size, uint64_t virtual_size) {
  return DivUp(virtual_size, cluster_size * (cluster_size / 8));
}

}  // namespace

uint64_t Qcow2Map::FullSize(uint64_t cluster_size, uint64_t virtual_size) {
  const uint64_t l1 = L1Entries(cluster_size, virtual_size);
  const uint64_t before_refblocks =
      kL1Cluster + DivUp(l1 * 8, cluster_size) + l1 + virtual_size / cluster_size;
  // 16-bit refcounts (refcount_bits default): a block covers cluster_size/2 clusters.
  uint64_t blocks = DivUp(before_refblocks, cluster_size / 2);
  blocks = DivUp(before_refblocks + blocks, cluster_size / 2);
  return (before_refblocks + blocks - 1) * cluster_size;  // block 0 is cluster 2
}

Qcow2Map::Qcow2Map(uint64_t cluster_size, uint64_t virtual_size, bool preallocated)
    : cluster_size_(cluster_size),
      preallocated_(preallocated),
      l1_offset_(kL1Cluster * cluster_size),
      l2_offset_(L1Entries(cluster_size, virtual_size), 0) {
  next_cluster_ = kL1Cluster + DivUp(l2_offset_.size() * 8, cluster_size);
  refblock_offset_[0] = 2 * cluster_size;
  if (!preallocated_) return;
  for (uint64_t& t : l2_offset_) t = AllocateClusters(1) * cluster_size;
  const uint64_t end = FullSize(cluster_size, virtual_size) / cluster_size;
  for (uint64_t b = 1; b <= RefcountBlockOf(end - 1); ++b) {
    refblock_offset_[b] = AllocateClusters(1) * cluster_size;
  }
  data_base_ = AllocateClusters(virtual_size / cluster_size);
}

std::optional<uint64_t> Qcow2Map::Find(const std::unordered_map<uint64_t, uint64_t>& m,
                                       uint64_t g) const {
  auto it = m.find(g);
  if (it == m.end()) {
    if (preallocated_) return data_base_ + g;
    return std::nullopt;
  }
  if (it->second == 0) return std::nullopt;
  return it->second - 1;
}

std::optional<uint64_t> Qcow2Map::Lookup(uint64_t g) const { return Find(map_, g); }

void Qcow2Map::Set(const Change& c) { map_[c.guest] = c.host ? *c.host + 1 : 0; }

void Qcow2Map::MakeDurable(const Change& c) { durable_[c.guest] = c.host ? *c.host + 1 : 0; }

uint64_t Qcow2Map::AllocateClusters(uint64_t n) {
  const uint64_t first = next_cluster_;
  next_cluster_ += n;
  return first;
}

uint64_t Qcow2Map::RefcountBlockOffset(uint64_t b) const {
  auto it = refblock_offset_.find(b);
  return it == refblock_offset_.end() ? 0 : it->second;
}

}  // namespace storlab
