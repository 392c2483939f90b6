// NfsClient: the Linux NFS client's write-back rules (fs/nfs/write.c,
// fs/nfs/pagelist.c), per kernel line, for the host page cache whose child
// is an nfs node. The page cache keeps the pages and schedules writeback
// (page_cache_writeback.h); it asks this class what the NFS client does
// differently from a block device:
//
// - Coalescing (nfs_coalesce_size / nfs_generic_pg_test): only
//   byte-contiguous pages merge into one WRITE, up to wsize, and the pending
//   RPC goes out as soon as the next page is not adjacent
//   (nfs_pageio_cond_complete) — the page cache's contiguous dirty runs,
//   capped at wsize: a file dirtied by random 4 KiB writes goes out as one
//   4 KiB WRITE per page.
// - No request queue: WRITEs are async RPC tasks; what bounds them is the
//   RPC slot table (TCP: it grows from 2 to tcp_max_slot_table_entries,
//   xprt_dynamic_alloc_slot), so background writeback queues as much as it
//   finds dirty, not a block queue's nr_requests.
// - Congestion (nfs_congestion_kb, nfs_init_writepagecache): 16 × √(RAM
//   pages) pages, at most 256 MiB; congested above it, not below ¾ of it
//   (NFS_CONGESTION_ON/OFF_THRESH), counting pages under WRITE
//   (nfs_set_page_writeback ... nfs_end_page_writeback). What it does to
//   the flusher by kernel line:
//     < 5.18   set_bdi_congested(BLK_RW_ASYNC): read only by reclaim
//              (may_write_to_inode), not by the flusher: no effect here;
//     5.18+    6df25e58532b "nfs: remove reliance on bdi congestion":
//              nfs_writepages() returns at once for WB_SYNC_NONE while
//              write_congested: background writeback stops and is retried
//              at the next dirtying or flusher tick;
//     6.11+    Jan Kara's "nfs: Block on write congestion" (2024; version
//              to verify): the flusher waits for congestion to clear.
// - Stability of a sync writeback's WRITEs (nfs_pgio_rpcsetup with
//   FLUSH_COND_STABLE): an RPC sent without pg_moreio while nothing awaits
//   COMMIT goes FILE_SYNC. Before a527c3ba (6.10, "nfs: Avoid flushing many
//   pages with NFS_FILE_SYNC"), nfs_pageio_cond_complete() sent every run
//   that ended at a non-adjacent page without pg_moreio: each scattered page
//   of an fsync went FILE_SYNC (the commit: 70 → 250 MB/s on an SSD). Since
//   then only the last RPC of the pass may.
// - Unstable pages: a WRITE answered UNSTABLE leaves its pages clean but
//   awaiting COMMIT, counted as writeback by the dirty limits (since 5.8,
//   8d92890bd6b8; NR_UNSTABLE_NFS before, counted the same way); the
//   COMMIT follows when a background pass's WRITEs have all been answered
//   (nfs_io_completion_commit) and at fsync (nfs_file_fsync).
// - A rewrite of a page whose WRITE is in flight waits for the reply
//   (nfs_updatepage → nfs_lock_and_join_requests → nfs_page_group_lock_head
//   → nfs_wait_on_request); the page cache does that wait.
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_NFS_NFS_CLIENT_H_
#define STORLAB_SIM_LAYERS_NFS_NFS_CLIENT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/status.h"

namespace storlab {

struct NfsClientConfig {
  // The client's kernel, major × 100 + minor. Default 6.2: Proxmox VE 8.0's
  // (June 2023); PVE 7 ran 5.15, whose flusher ignores the congestion limit
  // (docs/sim.md, "The NFS client").
  uint32_t kernel = 602;
  // nfs_congestion_kb in bytes; 0: the kernel's default from the host's RAM.
  uint64_t congestion_bytes = 0;
};

class NfsClient {
 public:
  enum class Congestion {
    kReclaimOnly,  // < 5.18: the flag steers reclaim only
    kSkip,         // 5.18 - 6.10: nfs_writepages() skips background writeback
    kWait,         // 6.11+: the flusher waits for congestion to clear
  };

  NfsClient(const NfsClientConfig& config, uint64_t host_mem_bytes, uint64_t wsize);
  NfsClient(const NfsClient&) = delete;
  NfsClient& operator=(const NfsClient&) = delete;

  // "5.15" → 515; an error names what was expected.
  static Result<uint32_t> ParseKernel(const std::string& text);
  // nfs_init_writepagecache(): 16 × int_sqrt(totalram pages) pages, capped
  // at 256 MiB (4 KiB pages).
  static uint64_t DefaultCongestionBytes(uint64_t host_mem_bytes);

  uint32_t kernel() const { return config_.kernel; }
  uint64_t wsize() const { return wsize_; }
  Congestion congestion_mode() const;
  uint64_t congestion_on_bytes() const { return on_bytes_; }
  uint64_t congestion_off_bytes() const { return on_bytes_ - on_bytes_ / 4; }
  bool congested() const { return congested_; }
  // May background (WB_SYNC_NONE) writeback send WRITEs now?
  bool BackgroundMayWrite() const {
    return congestion_mode() == Congestion::kReclaimOnly || !congested_;
  }

  // A WRITE of `bytes` is sent / answered (UNSTABLE unless `stable`).
  // OnWriteDone returns true when it clears the congestion.
  void OnWriteSent(uint64_t bytes);
  bool OnWriteDone(uint32_t file, uint64_t bytes, bool stable);
  // A COMMIT of `file` is sent: what it covers stops being unstable when it
  // is answered (OnCommitDone with the value returned).
  uint64_t OnCommitSent(uint32_t file);
  void OnCommitDone(uint64_t bytes);

  // Does a sync writeback's WRITE of `run_bytes` go FILE_SYNC? `last`: it is
  // the last RPC the sync pass has to send.
  bool FileSync(uint32_t file, uint64_t run_bytes, bool last) const;

  // A background pass (one nfs_writepages() call: a file's chunk) sent a
  // WRITE / had one answered. PassDone is true when the pass's last WRITE
  // was answered: nfs_io_completion_commit() then COMMITs the file.
  void PassSent(uint64_t pass) { ++passes_[pass]; }
  bool PassDone(uint64_t pass);

  uint64_t in_flight_bytes() const { return in_flight_; }
  // Answered UNSTABLE and not yet committed (counted as writeback).
  uint64_t unstable_bytes() const { return unstable_ + committing_; }
  uint64_t unstable_bytes(uint32_t file) const;
  std::vector<uint32_t> unstable_files() const;
  uint64_t congestion_events() const { return congestion_events_; }
  void Reset();  // a power cut

 private:
  NfsClientConfig config_;
  uint64_t wsize_;
  uint64_t on_bytes_;
  uint64_t in_flight_ = 0;
  bool congested_ = false;
  uint64_t congestion_events_ = 0;
  std::map<uint32_t, uint64_t> unstable_by_file_;
  uint64_t unstable_ = 0;                // sum of unstable_by_file_
  uint64_t committing_ = 0;              // in COMMITs not yet answered
  std::map<uint64_t, uint32_t> passes_;  // WRITEs in flight per background pass
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_NFS_NFS_CLIENT_H_
