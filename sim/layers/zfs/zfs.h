// ZfsPool: a ZFS-like pool serving one dataset or zvol as a block device --
// enough of ZFS to reproduce what benchmarks see, not a file system.
//
// Data is kept in records of `recordsize` (a dataset, 128 KiB) or
// `volblocksize` (a zvol, 8 KiB). Writes land in the open transaction
// group (txg) in memory (ZfsTxgSync, zfs_txg.h): a write that covers only part of a record that is
// neither dirty nor in the ARC first reads the record (dbuf_read, a
// read-modify-write); every record dirtied counts whole against
// zfs_dirty_data_max (10 % of RAM, at most 4 GiB). The write throttle
// (dmu_tx_delay) delays each transaction once dirty data passes
// zfs_delay_min_dirty_percent (60 %):
//   delay = zfs_delay_scale × (dirty - min) / (max - dirty), at most 100 ms,
// on one shared timeline; at the maximum, writers wait. The open txg is
// synced every zfs_txg_timeout (5 s) after the previous sync started, or at
// once when it holds zfs_dirty_data_sync_percent (20 %) of the maximum:
// each record is compressed (ZfsCompressor, on the host's cores), written
// copy-on-write to newly allocated space (ZfsVdevs; async-write class),
// and when all are written the members are flushed, the uberblock written
// to the labels and the members flushed again: only then is the txg
// committed (durable). Dirty space is released as each record's write
// completes. The ARC (zfs_arc.h) caches records (`arc_size`, half the RAM); reads of a
// record not in memory read it whole from the members.
//
// Sync writes (FLUSH = fsync of Request.file_id, 0 = every file; FUA =
// O_DSYNC) commit the ZIL (ZfsZil, zfs_zil.h): the intent-log records of
// that file's writes not yet in a committed txg are written to log blocks
// (on the members, or on the SLOG child if configured), records of large
// writes (>= 32 KiB, zfs_immediate_write_sz, without a SLOG) written in
// place instead (WR_INDIRECT), then the devices are flushed.
//
// Data plane: the pool's committed content lives in the node's own Store
// (the vdev I/O carries the timing: data on disk is compressed and
// copy-on-write, which the model does not lay out byte for byte); the open
// and syncing txgs' data are Overlays; committed ZIL records are durable
// log entries. A power cut loses the open and syncing txgs and replays the
// ZIL into the next txg: async writes not yet committed are lost, sync
// writes survive.
//
// The parts own their state: ZfsArc (zfs_arc.h), ZfsTxgSync (zfs_txg.h:
// the txgs and the write throttle), ZfsZil (zfs_zil.h), ZfsVdevs
// (zfs_vdevs.h: allocation and the vdev queues), ZfsCompressor. ZfsPool
// keeps the Node interface, the read path, the write path between the
// throttle and the open txg (read-modify-write, the copy), the store, and
// wires the parts: each asks the pool through its small Pool interface.
//
// Stats (counters(), AppendStats): absorbed_bytes, dirty_bytes, txgs,
// txg_physical_bytes, rmw_reads, arc_hits/arc_misses, dbuf_decompressions,
// decompress_cpu_ns, dbuf_cache_bytes, compress_cpu_ns,
// compressed/logical bytes, throttle_ns, zil_commits, zil_bytes, fsyncs and
// their durations. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_ZFS_ZFS_H_
#define STORLAB_SIM_LAYERS_ZFS_ZFS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/host_spec.h"
#include "sim/layers/host_cpu.h"
#include "sim/layers/zfs/zfs_arc.h"
#include "sim/layers/zfs/zfs_compress.h"
#include "sim/layers/zfs/zfs_txg.h"
#include "sim/layers/zfs/zfs_vdevs.h"
#include "sim/layers/zfs/zfs_zil.h"
#include "sim/node.h"
#include "sim/store/store.h"

namespace storlab {

// The dataset's or zvol's `sync` property (zfsprops(7)): standard honours
// O_DSYNC/FUA and fsync/flush with a ZIL commit; always commits the ZIL
// after every write (zfs_write and zvol_write: os_sync == ZFS_SYNC_ALWAYS);
// disabled returns from zil_commit() at once (zil.c: zl_sync ==
// ZFS_SYNC_DISABLED), so nothing is made stable before its txg commits.
enum class ZfsSync { kStandard, kAlways, kDisabled };

struct ZfsConfig {
  HostSpec host;                      // mem, cores, copy rates
  uint64_t capacity = 0;              // the dataset/zvol size; 0: what the pool can hold
  uint64_t record_size = 128 * 1024;  // recordsize (or volblocksize for a zvol)
  bool zvol = false;
  ZfsSync sync = ZfsSync::kStandard;
  ZfsCompression compression = ZfsCompression::kLz4;
  // Records whose bytes the pool does not know (writes that carried none,
  // in a run that keeps no data; zfs_sample.h) compress by this: 1.0 =
  // random, as fio's buffers are.
  double compress_ratio = 1.0;
  uint64_t seed = 1;  // the run's seed: which records the sample keeps (zfs_sample.h)
  ZfsCompressRates rates;
  uint64_t arc_bytes = 0;                // 0: zfs_arc_max default, half the RAM
  uint64_t dirty_max_bytes = 0;          // 0: 10 % of RAM, at most 4 GiB
  double dirty_sync_fraction = 0.20;     // zfs_dirty_data_sync_percent
  double delay_min_fraction = 0.60;      // zfs_delay_min_dirty_percent
  Nanos delay_scale = Nanos(500'000);    // zfs_delay_scale (ns)
  Nanos delay_max = Nanos(100'000'000);  // zfs_delay_max_ns
  Nanos txg_timeout = Nanos(5'000'000'000);
  uint64_t immediate_write_bytes = 32 * 1024;  // zfs_immediate_write_sz
  uint64_t zil_block_bytes = 128 * 1024;       // zil_maxblocksize
  uint64_t itx_header_bytes = 192;             // sizeof (lr_write_t)
  double async_write_min_dirty = 0.30;         // zfs_vdev_async_write_active_min_dirty_percent
  double async_write_max_dirty = 0.60;         // ..._max_dirty_percent
  ZfsVdevs::Config vdevs;
};

class ZfsPool : public Node, private ZfsZil::Pool, private ZfsTxgSync::Pool {
 public:
  struct Counters {
    uint64_t absorbed_bytes = 0;            // bytes the application wrote
    uint64_t sync_write_bytes = 0;          // of them, FUA (O_DSYNC) writes
    uint64_t rmw_reads = 0;                 // record reads a partial write waited for
    uint64_t dbuf_decompressions = 0;       // records decompressed from the ARC into a dbuf
    uint64_t decompress_cpu_ns = 0;         // their CPU time, and that of records read from disk
    uint64_t arc_hits = 0, arc_misses = 0;  // records a read found / had to read
    uint64_t txgs = 0;
    uint64_t records_written = 0;
    uint64_t logical_bytes = 0;   // records written by txgs, before compression
    uint64_t physical_bytes = 0;  // after compression, before mirror/raidz copies
    uint64_t compressed_records = 0;
    uint64_t hole_records = 0;  // all-zero records: holes, nothing written
    uint64_t compress_cpu_ns = 0;
    uint64_t alloc_failures = 0;
    uint64_t throttled_writes = 0, throttle_ns = 0;
    uint64_t zil_commits = 0, zil_bytes = 0, zil_indirect_bytes = 0;
    uint64_t fsyncs = 0, fsync_ns_total = 0, fsync_ns_max = 0, last_fsync_ns = 0;
    uint64_t last_txg_ns = 0;  // duration of the last txg sync
  };

  // REQUIRES: members non-empty; config.record_size a power of two that
  // divides config.capacity.
  ZfsPool(Engine& engine, std::string name, const ZfsConfig& config,
          const std::vector<ZfsVdevs::MemberSpec>& members, Node* slog,
          std::unique_ptr<Store> store, bool keeps_data);
  ~ZfsPool() override;

  static constexpr NodeKind kKind = NodeKind::kZfs;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "zfs"; }
  std::vector<Node*> children() const override;

  const ZfsConfig& config() const { return config_; }
  // The pool's counters with its txgs' and its ZIL's.
  Counters counters() const;
  uint64_t dirty_bytes() const { return txg_.dirty_bytes(); }
  uint64_t dirty_max_bytes() const { return txg_.dirty_max_bytes(); }
  uint64_t committed_txg() const override { return txg_.committed_txg(); }
  uint64_t arc_used_bytes() const { return arc_.used_bytes(); }
  bool InArc(uint64_t record) const { return arc_.Contains(record); }
  const ZfsVdevs& vdevs() const { return vdevs_; }

  void AppendStats(StatList& out) const override;
  // --state (zfs_state.cc): the pool's committed content (the store), the
  // block map and space maps, the txg numbers, the ARC's records in LRU
  // order, the host CPU's timeline and the compression sample. Saved once
  // idle, so every txg has committed: no dirty data, an empty ZIL. The ARC
  // is RAM, kept as the page cache is (the run ends without dropping it);
  // --reboot empties it.
  bool CanSaveState() const override { return true; }
  const Store* durable_store() const override { return store_.get(); }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;
  // The open and syncing txgs' data (a sync write's ZIL record is durable).
  uint64_t volatile_bytes() const override { return dirty_bytes(); }
  std::vector<const TimeSeries*> Series() const override { return {&txg_.dirty_series()}; }

  // The dataset size a pool of `usable` bytes offers by default: room for
  // a whole txg of rewrites (copy-on-write) and the 1/32 slop ZFS keeps.
  static uint64_t DefaultCapacity(uint64_t usable, uint64_t dirty_max, uint64_t record);

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  uint64_t RecordOf(uint64_t off) const { return off / config_.record_size; }
  uint64_t LastRecordOf(uint64_t off, uint64_t len) const {
    return (off + len - 1) / config_.record_size;
  }
  // Whether `req` covers only part of record `rec`.
  bool Partial(const Request& req, uint64_t rec) const {
    const uint64_t rs = config_.record_size;
    return req.offset > rec * rs || req.offset + req.length < (rec + 1) * rs;
  }
  bool InMemory(uint64_t rec) const;

  // Writes, trims (zfs_write.cc): past the throttle (ZfsTxgSync::Pool),
  // read-modify-write, then into the open txg.
  void Admitted(Request req) override { Prepare(std::move(req)); }
  void Prepare(Request req);
  void Apply(Request req);

  // Reads and the ARC (zfs_read.cc).
  void StartRead(Request req);
  // Decompresses the records of `req` the ARC holds only compressed, then
  // serves it.
  void DecompressAndServe(Request req);
  void ServeRead(Request req);
  // Reads record `rec` from the members into the ARC; done(status) after.
  void ReadRecord(uint64_t rec, Callback<void(Status)> done);
  // Reads `recs`, then runs then(req) (or fails req with the first error).
  void ReadRecords(const std::vector<uint64_t>& recs, Request req, Callback<void(Request)> then);
  // The CPU time to decompress record `rec` if the ARC holds it only
  // compressed (0 otherwise); it is in the dbuf cache after.
  Nanos Decompress(uint64_t rec);

  // A txg committed (ZfsTxgSync::Pool): its log records are obsolete.
  void TxgCommitted(uint64_t txg) override { zil_.TxgCommitted(txg); }
  // The ZIL's view of the data (ZfsZil::Pool): committed, syncing, open.
  void CopyCurrent(uint64_t offset, uint64_t length, uint8_t* out) const override;

  ZfsConfig config_;
  HostCpu cpu_;
  ZfsCompressor compressor_;
  ZfsVdevs vdevs_;
  std::vector<Node*> members_;
  Node* slog_;
  std::unique_ptr<Store> store_;
  Counters counters_;  // the pool's own: absorbed, sync writes, rmw reads, ARC

  ZfsArc arc_;
  std::map<uint64_t, std::vector<Callback<void(Status)>>> record_reads_;

  ZfsTxgSync txg_;
  ZfsZil zil_;
};

// `type = "zfs"`: children are the vdev members (and the SLOG, named by
// `slog`); `member_regions = N` splits each child into N equal members
// (partitions; the drives of a multi-bay enclosure behind one link, joined
// by a `concat`). Keys: layout (stripe, mirror, raidz1), recordsize or
// volblocksize, capacity, compression (off, lz4, zstd), compress_ratio,
// arc_size, dirty_data_max, txg_timeout, and the host's mem, cores,
// copy_rate_per_core, memory_bandwidth.

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ZFS_ZFS_H_
