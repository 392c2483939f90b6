// Qcow2Map: where a qcow2 image keeps what (the qcow2 spec,
// docs/interop/qcow2.txt, and qemu's block/qcow2*.c): the guest-cluster ->
// host-cluster mapping as the L2 tables hold it, in two versions, the one
// in memory (qemu's L2 cache and what it would write back) and the one a
// power cut leaves on the image's durable storage; the L1 table's entries
// (which L2 tables exist and where); and the end of the image file, where
// every new cluster is allocated.
//
// The image file's layout at creation follows qcow2_co_create (block/
// qcow2.c): cluster 0 the header, 1 the refcount table, 2 the first
// refcount block, then the L1 table. New clusters are appended at the end
// of the file in the order they are allocated (alloc_clusters_noref in
// block/qcow2-refcount.c takes the first free cluster, and a fresh image
// has none before its end). Simplification: clusters freed by a discard or
// orphaned by a power cut are never reused (qemu's free_cluster_index would
// find their refcount 0 and reuse them); only the file's length differs.
//
// With preallocation (metadata, falloc, full: preallocate_co in qcow2.c)
// every L2 table and every data cluster exists from the start. The model
// places all the L2 tables ahead of the data, so guest cluster g lives at
// host cluster data_base + g (qemu interleaves one L2 table every
// cluster_size/8 clusters; the seek that costs every 512 MiB is not
// modelled). Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_VM_QCOW2_MAP_H_
#define STORLAB_SIM_LAYERS_VM_QCOW2_MAP_H_

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class Qcow2Map {
 public:
  // An L2 entry's new value: guest cluster -> host cluster, or unmapped.
  struct Change {
    uint64_t guest = 0;
    std::optional<uint64_t> host;
  };

  // REQUIRES: cluster_size a power of two >= 512; virtual_size a multiple of it.
  Qcow2Map(uint64_t cluster_size, uint64_t virtual_size, bool preallocated);
  Qcow2Map(const Qcow2Map&) = delete;
  Qcow2Map& operator=(const Qcow2Map&) = delete;

  uint64_t cluster_size() const { return cluster_size_; }
  // L2 entries per table (an L2 table is one cluster of 8-byte entries).
  uint64_t l2_entries() const { return cluster_size_ / 8; }
  uint64_t l2_tables() const { return l2_offset_.size(); }
  // Bytes of image file a fully allocated image of `virtual_size` needs
  // (header, refcount table, L1, every L2 table, refcount blocks, data).
  static uint64_t FullSize(uint64_t cluster_size, uint64_t virtual_size);

  // The host cluster holding guest cluster `g` now; nullopt: unallocated.
  std::optional<uint64_t> Lookup(uint64_t g) const;
  // Sets the in-memory mapping (an allocation, or a discard with nullopt).
  void Set(const Change& c);
  // The mapping `c` has reached durable storage (its L2 write was flushed).
  void MakeDurable(const Change& c);
  // A power cut: the in-memory mapping is forgotten, the durable one stays.
  void RevertToDurable() { map_ = durable_; }

  // L2 tables: whether table `t` exists (its L1 entry is set), and where.
  bool HasTable(uint64_t t) const { return l2_offset_[t] != 0; }
  uint64_t TableOffset(uint64_t t) const { return l2_offset_[t]; }
  // The L1 entry's byte offset in the image (for its write).
  uint64_t L1EntryOffset(uint64_t t) const { return l1_offset_ + 8 * t; }
  void SetTable(uint64_t t, uint64_t host_offset) { l2_offset_[t] = host_offset; }

  // Appends `n` clusters at the end of the image file; returns the first.
  uint64_t AllocateClusters(uint64_t n);
  // Bytes the image file spans now (its length).
  uint64_t file_end() const { return next_cluster_ * cluster_size_; }
  // Refcount block covering host cluster `c`, and its offset once allocated.
  uint64_t RefcountBlockOf(uint64_t c) const { return c / (cluster_size_ / 2); }
  uint64_t RefcountBlockOffset(uint64_t b) const;
  bool HasRefcountBlock(uint64_t b) const { return refblock_offset_.count(b) != 0; }
  void SetRefcountBlock(uint64_t b, uint64_t host_offset) { refblock_offset_[b] = host_offset; }
  // The refcount table's entry for block `b` (one 8-byte entry a block).
  uint64_t RefcountTableEntryOffset(uint64_t b) const { return cluster_size_ + 8 * b; }

  // storlab sim --state (qcow2_state.cc): the file's end, the L1 table,
  // the refcount blocks, both mappings (sorted). Restores into a map just
  // made from the same configuration.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  // Stored: host cluster + 1, 0 = unmapped; a missing key means "as created".
  std::optional<uint64_t> Find(const std::unordered_map<uint64_t, uint64_t>& m, uint64_t g) const;

  uint64_t cluster_size_;
  bool preallocated_;
  uint64_t l1_offset_;
  uint64_t data_base_ = 0;           // preallocated: host cluster of guest cluster 0
  uint64_t next_cluster_;            // the end of the image file, in clusters
  std::vector<uint64_t> l2_offset_;  // the L1 table: each L2 table's host offset, 0: none
  std::unordered_map<uint64_t, uint64_t> refblock_offset_;
  std::unordered_map<uint64_t, uint64_t> map_;
  std::unordered_map<uint64_t, uint64_t> durable_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_VM_QCOW2_MAP_H_
