// ZfsTxgSync: a ZFS pool's transaction groups (module/zfs/txg.c,
// dsl_pool.c) and the write throttle (dmu_tx.c).
//
// It owns: the open and the syncing txg (their records, their data as
// Overlays, their dirty bytes), the txg numbers (open, syncing, last
// committed), the block pointers of the committed records and of the
// syncing txg's new ones, the sync timer (zfs_txg_timeout), the writers
// waiting at zfs_dirty_data_max and the throttle's shared timeline
// (dp_last_wakeup), the dirty-bytes series and its counters.
//
// A write passes Throttle (dmu_tx_wait / dmu_tx_delay), then the pool
// prepares it (Pool::Admitted: read-modify-write, the copy) and calls Dirty
// (dbuf_dirty: every record counts whole). The open txg syncs every
// txg_timeout after the previous sync started, or at once at
// zfs_dirty_data_sync_percent or with writers waiting (txg_kick): each
// record is compressed on the host's cores and written copy-on-write
// (async-write class), then vdev_config_sync flushes, writes the uberblock,
// flushes; then the txg's data joins the pool's store, the blocks it
// replaced are freed, its records enter the ARC, and Pool::TxgCommitted
// runs. It uses the pool's store, cores, compressor, vdevs and ARC, which
// outlive it. Not thread-safe (the engine's thread only).
#ifndef STORLAB_SIM_LAYERS_ZFS_ZFS_TXG_H_
#define STORLAB_SIM_LAYERS_ZFS_ZFS_TXG_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "sim/engine.h"
#include "sim/key_map.h"
#include "sim/layers/host_cpu.h"
#include "sim/layers/zfs/zfs_arc.h"
#include "sim/layers/zfs/zfs_compress.h"
#include "sim/layers/zfs/zfs_sample.h"
#include "sim/layers/zfs/zfs_vdevs.h"
#include "sim/node_stats.h"
#include "sim/request.h"
#include "sim/store/overlay.h"
#include "sim/store/store.h"

namespace storlab {

class StateReader;
class StateWriter;
struct ZfsConfig;  // zfs.h

class ZfsTxgSync {
 public:
  // What the txgs ask of their pool.
  class Pool {
   public:
    virtual ~Pool() = default;
    // A write past the throttle: the pool prepares it, then calls Dirty.
    virtual void Admitted(Request req) = 0;
    // Txg `txg` is on stable storage (its log records are obsolete).
    virtual void TxgCommitted(uint64_t txg) = 0;
  };
  struct Counters {
    uint64_t txgs = 0;
    uint64_t records_written = 0;
    uint64_t logical_bytes = 0;   // records written by txgs, before compression
    uint64_t physical_bytes = 0;  // after compression, before mirror/raidz copies
    uint64_t compressed_records = 0;
    uint64_t hole_records = 0;  // all zeros: no block written
    uint64_t compress_cpu_ns = 0;
    uint64_t alloc_failures = 0;
    uint64_t throttled_writes = 0, throttle_ns = 0;
    uint64_t last_txg_ns = 0;  // duration of the last txg sync
  };

  // REQUIRES: config.record_size > 0; the parts outlive the txgs.
  ZfsTxgSync(Engine& engine, const ZfsConfig& config, bool keeps_data, Pool& pool, Store& store,
             HostCpu& cpu, const ZfsCompressor& compressor, ZfsVdevs& vdevs, ZfsArc& arc);
  ZfsTxgSync(const ZfsTxgSync&) = delete;
  ZfsTxgSync& operator=(const ZfsTxgSync&) = delete;

  const Counters& counters() const { return counters_; }
  uint64_t dirty_bytes() const { return open_dirty_ + syncing_dirty_; }
  uint64_t dirty_max_bytes() const { return dirty_max_; }
  uint64_t committed_txg() const { return committed_txg_; }
  uint64_t open_txg() const { return open_txg_; }
  const TimeSeries& dirty_series() const { return dirty_series_; }

  // Record `rec` is whole in the open or the syncing txg.
  bool HoldsWhole(uint64_t rec) const;
  // The block of committed record `rec`; nullptr: a hole.
  const ZfsBp* Block(uint64_t rec) const;
  // Lays the txgs' data over `buf` (committed content of [off, off + len)).
  void PatchDirty(uint64_t off, uint64_t len, uint8_t* buf) const;

  // dmu_tx_assign(): waits at the maximum, delays above
  // zfs_delay_min_dirty_percent, then Pool::Admitted(req).
  void Throttle(Request req);
  // dbuf_dirty(): the write's records (and data) join the open txg;
  // may start a sync. Returns the txg it joined.
  uint64_t Dirty(const Request& req);
  // A power cut: the open and syncing txgs, the waiting writers, the timer
  // are lost; the allocator is rebuilt from the committed blocks; a new
  // txg opens after the last committed one.
  void PowerCut();
  // zil_replay(): a committed log record becomes a write of the open txg.
  void Replay(uint64_t offset, uint64_t length, const uint8_t* data);
  void ArmTimer();
  void RecordDirty();  // a point of the dirty-bytes series, now
  // storlab sim --state (zfs_state.cc): the txg numbers, when the last
  // sync started, the throttle's last wakeup, every committed record's
  // block (the dataset's or zvol's block map: where, how big, compressed
  // or not), the compression sample and the last sampled outcomes.
  // REQUIRES: no txg open with records, syncing or timed; no writer waits.
  Status SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r, uint64_t max_records);

 private:
  struct TxgRecord {
    uint32_t file = 0;
    bool freed = false;  // trimmed/zeroed whole: nothing to write, the block is freed
    bool full = true;    // its whole content is known (false after a ZIL replay)
  };

  uint64_t RecordOf(uint64_t off) const { return off / record_size_; }
  uint64_t LastRecordOf(uint64_t off, uint64_t len) const { return (off + len - 1) / record_size_; }
  bool InMemory(uint64_t rec) const { return HoldsWhole(rec) || arc_.Contains(rec); }
  void Admit(Request req);
  void WakeBlocked();
  void UpdateAsyncLimit();
  void MaybeSync(bool timer);
  void StartTxg();
  // The syncing txg's records, compressed (or their sampled outcomes).
  std::vector<std::pair<uint64_t, ZfsCompressed>> CompressRecords();
  void WriteRecord(uint64_t rec, ZfsCompressed c);
  void RecordWritten();
  void CommitTxg();
  void Committed(Status st);

  Engine& engine_;
  const ZfsConfig& config_;
  const uint64_t record_size_;
  const bool keeps_data_;
  Pool& pool_;
  Store& store_;
  HostCpu& cpu_;
  const ZfsCompressor& compressor_;
  ZfsVdevs& vdevs_;
  ZfsArc& arc_;
  const uint64_t dirty_max_;
  Counters counters_;
  TimeSeries dirty_series_{"dirty_bytes"};

  uint64_t open_txg_ = 1, syncing_txg_ = 0, committed_txg_ = 0;
  std::unique_ptr<Overlay> open_, syncing_;
  // The open txg's records by number; the syncing txg's sorted by number
  // (its writes, frees and commit go in record order) and, for lookups, by
  // number (the open txg's map, handed over when the txg quiesces). Open
  // addressing (sim/key_map.h), not std::unordered_map: a 4 KiB random
  // writer dirties a record per write, and node allocations and a binary
  // search over 30,000 syncing records were a sixth of a ZFS run.
  std::unique_ptr<KeyMap<TxgRecord>> open_records_ = std::make_unique<KeyMap<TxgRecord>>();
  std::unique_ptr<KeyMap<TxgRecord>> syncing_lookup_ = std::make_unique<KeyMap<TxgRecord>>();
  std::vector<std::pair<uint64_t, TxgRecord>> syncing_records_;
  uint64_t open_dirty_ = 0, syncing_dirty_ = 0;
  bool syncing_now_ = false;
  uint64_t writes_left_ = 0;  // record writes of the syncing txg in flight
  Nanos last_sync_start_;
  bool timer_armed_ = false;
  KeyMap<ZfsBp> committed_bps_, pending_bps_;

  // Runs without data, compression on: the sampled records' bytes, and the
  // outcomes of the last txg that compressed some (zfs_sample.h).
  std::unique_ptr<ZfsSample> sample_;
  std::vector<ZfsCompressed> last_sampled_;
  // The sample's view of a record written before it: committed or not.
  std::function<bool(uint64_t)> has_block_ = [this](uint64_t rec) {
    return committed_bps_.Find(rec) != nullptr;
  };

  std::deque<Request> blocked_;  // waiting for dirty data to fall under the maximum
  Nanos last_wakeup_;            // dp_last_wakeup
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ZFS_ZFS_TXG_H_
