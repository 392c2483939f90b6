// Qcow2Node: the "qcow2" node type (issue 16 §1): a qcow2 image between a
// VM's virtual disk (a vm node) and the image's home (the host file: its
// child, usually a page_cache over the host's disk). Modelled from qemu's
// block/qcow2*.c (qemu 8/9):
//
// - Guest offsets map to host clusters through the L2 tables (Qcow2Map). A
//   cluster is allocated on its first write, at the end of the image file
//   (qcow2_alloc_host_offset -> handle_alloc -> alloc_clusters_noref), so a
//   guest's random first writes become sequential host writes and later
//   reads of them random ones.
// - A partial first write copies the untouched rest of the cluster (with no
//   backing file: zeros) in the same host write as the guest's data
//   (perform_cow with merge_cow in qcow2.c: one pwritev of head + data +
//   tail), then updates the refcount block and the L2 entry in their caches
//   (qcow2_alloc_cluster_link_l2; the L2 cache depends on the refcount cache,
//   qcow2_cache_set_dependency, and after a COW on a flush of the file,
//   qcow2_cache_depends_on_flush). NOT modelled: handle_alloc_space's
//   write-zeroes of the cluster when the file supports BDRV_REQ_NO_FALLBACK,
//   backing files, compressed clusters, subclusters (extended_l2).
// - The L2 cache (Qcow2L2Cache): a miss reads the slice from the image
//   before the data I/O; a dirty victim is written back first
//   (qcow2_cache_entry_flush, with its dependency). A write under an L2
//   table that does not exist yet allocates it: l2_allocate flushes the
//   refcount cache and the L2 cache, writes the new table and the L1 entry,
//   each followed by a flush of the file.
// - A guest flush writes the dirty caches back (qcow2_write_caches: the L2
//   cache first, which writes the refcount blocks and flushes the file
//   first; lazy_refcounts drops that dependency, qcow2_need_accurate_refcounts)
//   and then flushes the file (bdrv_co_flush of bs->file). cache=writethrough
//   and directsync (the vm node flushes after each write) pay that for every
//   write, as qemu's writethrough qcow2 does.
// - Discard (qcow2_co_pdiscard -> qcow2_cluster_discard): whole clusters
//   only (the block layer aligns discards to the cluster, pdiscard_alignment),
//   L2 entries cleared, the host range passed on (pass-discard-request
//   follows discard=unmap) if the file takes trims.
// - Metadata I/O carries kDirect when the guest requests do (the vm node's
//   cache.direct: the image is opened O_DIRECT, file-posix raw_parse_flags).
//   The flag of the latest guest request is used for flush-time writeback.
//
// Durability: an L2 change counts as durable once its L2 write completed
// and a flush of the file issued after that completed; a power cut keeps
// only those mappings (data written to a cluster whose mapping is lost is
// leaked, as `qemu-img check` would report; the guest reads zeros there).
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_VM_QCOW2_NODE_H_
#define STORLAB_SIM_LAYERS_VM_QCOW2_NODE_H_

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/layers/vm/qcow2_l2_cache.h"
#include "sim/layers/vm/qcow2_map.h"
#include "sim/node.h"

namespace storlab {

class Qcow2Node : public NodeWrapper {
 public:
  enum class Preallocation { kOff, kMetadata, kFalloc, kFull };
  struct Config {
    uint64_t cluster_size = 65536;  // qemu-img create default (DEFAULT_CLUSTER_SIZE, qcow2.h)
    uint64_t virtual_size = 0;      // the guest's disk; REQUIRES a multiple of cluster_size
    uint64_t l2_cache_bytes = 0;    // read_cache_sizes: MIN(the whole image's L2, 32 MiB)
    uint64_t l2_cache_entry_size = 65536;  // l2-cache-entry-size; default the cluster size
    Preallocation preallocation = Preallocation::kOff;
    bool lazy_refcounts = false;  // qemu-img create -o lazy_refcounts (off by default)
    bool keeps_data = true;
  };
  // What the image did, for the stat table and tests.
  struct Counters {
    uint64_t allocated_clusters = 0;
    uint64_t cow_bytes = 0;
    uint64_t l2_hits = 0;
    uint64_t l2_misses = 0;
    uint64_t l2_evictions = 0;
    uint64_t l2_tables_allocated = 0;
    uint64_t refcount_blocks_allocated = 0;
    uint64_t metadata_reads = 0;
    uint64_t metadata_writes = 0;
    uint64_t metadata_write_bytes = 0;
    uint64_t file_flushes = 0;
    uint64_t discarded_clusters = 0;
  };

  Qcow2Node(Engine& engine, std::string name, Node& child, const Config& config);
  static constexpr NodeKind kKind = NodeKind::kQcow2;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "qcow2"; }
  void AppendStats(StatList& out) const override;
  // --state (qcow2_state.cc): the image's metadata — the L1 table, the
  // refcount blocks' places, the file's end, the mapping in memory and the
  // durable one — and qemu's L2 cache: its slices in LRU order, the dirty
  // ones, the L2 changes not written back or not yet flushed, the dirty
  // refcount blocks, the flush dependency and the lazy-refcounts dirty bit.
  // A guest that did not flush leaves dirty metadata in qemu's memory: the
  // run ends without dropping it (a VM left running); --reboot loses it,
  // as a host crash would.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;
  const Counters& counters() const { return counters_; }
  // The image file's length now.
  uint64_t file_bytes() const { return map_.file_end(); }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  // One metadata I/O of a sequence (qcow2_co_* under s->lock).
  struct MetaStep {
    Op op = Op::kWrite;
    uint64_t offset = 0;
    uint64_t length = 0;
    bool commits = false;  // the L2 writes of this run are done after this step
  };
  // A sequence of metadata I/O run one after the other.
  struct MetaRun {
    std::vector<MetaStep> steps;
    size_t next = 0;
    std::vector<Qcow2Map::Change> batch;  // the L2 changes its writes carry
    Completion done;
  };
  using MetaOp = Callback<void(Completion)>;

  // qcow2_node.cc: the guest's requests.
  void Start(Request req);  // loads the L2 slices `req` needs, then Proceed
  void Proceed(Request req);
  void Read(Request req);
  void Write(Request req);
  void Discard(Request req);
  void Allocated(const std::vector<Qcow2Map::Change>& fresh, uint64_t cow_bytes);
  void WakeWaiters(const std::vector<Qcow2Map::Change>& fresh);
  uint64_t SliceOf(uint64_t guest_cluster) const { return guest_cluster / slice_entries_; }
  uint64_t TableOf(uint64_t slice) const { return slice / slices_per_table_; }
  uint64_t AllocateHost(uint64_t n);  // data clusters (counted)

  // qcow2_meta.cc: metadata, one operation at a time (s->lock).
  void EnqueueMeta(MetaOp op, Completion then);
  void RunMeta();
  void RunSteps(const std::shared_ptr<MetaRun>& run);
  // Steps that write back the dirty L2 slices (refcounts first, unless lazy).
  void AppendL2Writeback(MetaRun& run);
  void AppendRefcountWriteback(MetaRun& run);
  void LoadSlice(uint64_t slice, bool for_write, Completion done);
  void Flush(Request req);
  MetaOp FlushOp();  // qcow2_write_caches, then a flush of the file
  MetaStep Io(Op op, uint64_t offset, uint64_t length) const;

  Config config_;
  uint64_t slice_entries_;     // L2 entries per cache entry
  uint64_t slices_per_table_;  // cache entries per L2 table
  Qcow2Map map_;
  Qcow2L2Cache l2_;
  Counters counters_;
  uint32_t direct_ = 0;  // kDirect when the guest's requests carry it
  uint64_t epoch_ = 0;
  // Guest clusters whose allocating write is in flight, and the requests
  // waiting for it (handle_dependencies in qcow2-cluster.c).
  std::unordered_map<uint64_t, std::vector<Request>> allocating_;
  // L2 changes in the cache not yet written back, by slice; and those
  // written, waiting for a flush of the file to be durable.
  std::map<uint64_t, std::vector<Qcow2Map::Change>> pending_;
  std::vector<Qcow2Map::Change> written_;
  std::set<uint64_t> dirty_refblocks_;
  bool depends_on_flush_ = false;             // a COW happened since the last flush of the file
  bool marked_dirty_ = false;                 // lazy_refcounts: the header's dirty bit is set
  std::vector<uint64_t> tables_in_progress_;  // L2 tables whose l2_allocate has not finished
  std::deque<std::pair<MetaOp, Completion>> meta_queue_;
  bool meta_busy_ = false;
  std::vector<uint8_t> zeros_;    // a cluster of zeros, the source of metadata writes
  std::vector<uint8_t> scratch_;  // where metadata reads land (one at a time)
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_VM_QCOW2_NODE_H_
