// ZfsZil: a ZFS pool's intent log (module/zfs/zil.c) -- what makes sync
// writes (O_DSYNC) and fsync durable before their txg commits.
//
// It owns: the intent-log records (itxs) of the writes not yet in a
// committed txg, per file (zil_itx_assign); the commit waiters and the one
// commit in flight (zil_commit: everyone waiting shares the next commit's
// log blocks); the log blocks written for the txgs not yet committed (freed
// when their txg commits); the committed log records (durable: they survive
// a power cut and are replayed, zil_replay); its counters. A commit writes
// the waiting files' records to log blocks of up to zil_maxblocksize
// (zil_lwb_write_issue), on the SLOG if the pool has one, else allocated in
// the pool (sync-write class); without a SLOG, a write of at least
// zfs_immediate_write_sz is written in place instead (WR_INDIRECT,
// dmu_sync) and only its header is logged. Then the devices are flushed
// (zil_lwb_flush_vdevs) and the waiters complete.
//
// It asks of the pool (Pool, below) the last committed txg and the current
// content of a range (WR_NEED_COPY, when the pool keeps data); it does its
// I/O through the pool's ZfsVdevs and schedules on the engine. Not
// thread-safe (the engine's thread only).
#ifndef STORLAB_SIM_LAYERS_ZFS_ZFS_ZIL_H_
#define STORLAB_SIM_LAYERS_ZFS_ZFS_ZIL_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "sim/callback.h"
#include "sim/engine.h"
#include "sim/layers/zfs/zfs_compress.h"
#include "sim/layers/zfs/zfs_vdevs.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class ZfsZil {
 public:
  // What the log asks of its pool.
  class Pool {
   public:
    virtual ~Pool() = default;
    // The last txg on stable storage (spa_last_synced_txg): records of it
    // and older ones need no logging.
    virtual uint64_t committed_txg() const = 0;
    // The bytes [offset, offset + length) as a read would see them now.
    virtual void CopyCurrent(uint64_t offset, uint64_t length, uint8_t* out) const = 0;
  };
  struct Config {
    uint64_t record_size = 128 * 1024;
    uint64_t immediate_write_bytes = 32 * 1024;  // zfs_immediate_write_sz
    uint64_t block_bytes = 128 * 1024;           // zil_maxblocksize
    uint64_t itx_header_bytes = 192;             // sizeof (lr_write_t)
    bool keeps_data = false;                     // copy the data into the log records
  };
  struct Counters {
    uint64_t commits = 0, bytes = 0, indirect_bytes = 0;
    uint64_t alloc_failures = 0;
    uint64_t fsyncs = 0, fsync_ns_total = 0, fsync_ns_max = 0, last_fsync_ns = 0;
  };
  // A committed record: survives power cuts.
  struct LogEntry {
    uint64_t txg, offset, length;
    std::vector<uint8_t> data;  // empty unless Config::keeps_data
  };

  // REQUIRES: pool, vdevs and compressor outlive the log.
  ZfsZil(Engine& engine, const Config& config, Pool& pool, ZfsVdevs& vdevs,
         const ZfsCompressor& compressor)
      : engine_(engine), config_(config), pool_(pool), vdevs_(vdevs), compressor_(compressor) {}
  ZfsZil(const ZfsZil&) = delete;
  ZfsZil& operator=(const ZfsZil&) = delete;

  const Counters& counters() const { return counters_; }

  // zil_itx_assign(): a write of `file` went into txg `txg`.
  void Assign(uint32_t file, uint64_t txg, uint64_t offset, uint64_t length) {
    itxs_[file].push_back({txg, offset, length, false});
  }
  // zil_commit(): done(status) once every write of `file` (0: every file)
  // assigned so far is durable. `fsync` counts it as an fsync.
  void Commit(uint32_t file, bool fsync, Callback<void(Status)> done);
  // Txg `txg` committed: its log blocks are freed, its records obsolete.
  void TxgCommitted(uint64_t txg);
  // A power cut: forgets the records not logged, the waiters (never
  // answered), the commit in flight and the log blocks (the allocator is
  // rebuilt from the committed blocks); keeps the committed records.
  void PowerCut();
  // Nothing logged, waiting or in flight: what an idle pool's log holds
  // once every txg has committed (storlab sim --state saves nothing of it).
  bool empty() const {
    if (busy_ || !waiting_.empty() || !blocks_.empty() || !log_.empty()) return false;
    for (const auto& [file, list] : itxs_)
      if (!list.empty()) return false;
    return true;
  }
  // zil_replay(): each committed record, oldest first, is assigned to txg
  // `txg` (it stays in the log until that txg commits) and passed to `use`.
  template <typename F>
  void Replay(uint64_t txg, F&& use) {
    for (LogEntry& e : log_) {
      e.txg = txg;
      use(static_cast<const LogEntry&>(e));
    }
  }

 private:
  struct Itx {  // an intent-log record of one write
    uint64_t txg, offset, length;
    bool logged;
  };
  struct Waiter {
    uint32_t file;
    bool fsync;
    Nanos started;
    Callback<void(Status)> done;
  };

  void Start();
  void Done(std::vector<Waiter> batch, std::vector<LogEntry> entries, Status st);

  Engine& engine_;
  const Config config_;
  Pool& pool_;
  ZfsVdevs& vdevs_;
  const ZfsCompressor& compressor_;
  Counters counters_;

  std::map<uint32_t, std::vector<Itx>> itxs_;  // per file, in the order written
  std::vector<Waiter> waiting_;
  bool busy_ = false;                               // a commit is in flight
  std::vector<std::pair<uint64_t, ZfsBp>> blocks_;  // (txg, block): freed when it commits
  std::vector<LogEntry> log_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ZFS_ZFS_ZIL_H_
