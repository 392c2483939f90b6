// PageCache: the host's buffered-I/O cache (Linux's page cache and its
// dirty-page writeback) for virtual-time runs, as a layer over a stack.
//
// The fio interpreter puts a PageCache on top of a stack's root and submits
// every buffered request to it, with Request.file_id set to the file the
// request belongs to. It behaves like Linux's mm/filemap.c,
// mm/page-writeback.c and mm/readahead.c at 4 KiB page granularity:
//
// Writes (kWrite) are copied into page-cache pages at memory speed (the copy
// runs on one of the host's cores, all copies share the memory bandwidth:
// HostCpu), the pages are marked dirty, and the write is acknowledged. A
// write that only partly covers a page that is not cached first reads that
// page from the child (as write_begin does). Rewriting a page that is
// already dirty costs no extra writeback.
//
// Dirty limits (balance_dirty_pages): with `dirtyable` = host mem - used_mem,
//   background = dirty_background_ratio × dirtyable
//   limit      = dirty_ratio × dirtyable
//   freerun    = (background + limit) / 2
// the flusher writes back while dirty pages exceed `background`, and pages
// older than dirty_expire are written back at the next writeback_interval
// tick. Writers are not throttled while dirty + writeback <= freerun. Above
// it, the acknowledgement of every write that dirties new pages is delayed
// so that the writers together dirty pages at write_bw × pos_ratio, where
// write_bw is the child's measured writeback bandwidth and pos_ratio is the
// kernel's cubic control line (2 at freerun, 1 at the setpoint, 0 at the
// limit); at the limit writers wait until writeback brings dirty below it.
// Writeback submits kBackground writes to the child: per file, in ascending
// offset order from where the last pass stopped, contiguous dirty pages
// merged up to max_io, at most writeback_queue_depth requests in flight.
//
// Reads (kRead): pages in the cache are copied at memory speed; missing
// pages are read from the child and kept (clean) in the cache, with
// on-demand read-ahead for sequential streams (per file id, read_ahead
// bytes). The cache holds at most `dirtyable` bytes; clean pages are evicted
// least recently used first.
//
// FLUSH (kFlush) is fsync(2)/fdatasync(2) of Request.file_id: every page of
// that file dirty or under writeback when the flush arrives is written back
// (with priority over background writeback), then the child is flushed, then
// the flush completes. file_id 0 is sync(2): every file. A kFua write is a
// buffered write followed by the same sync of its own range (O_DSYNC).
// Trim and write-zeroes drop the range from the cache (waiting for writeback
// in flight there) and pass to the child.
//
// Alignment: buffered reads and writes may start and end at any byte (a
// partly covered page is read first, then written back whole); direct
// requests, trims and write-zeroes need the child's logical block.
//
// Direct I/O: the runner may send O_DIRECT requests straight to the child
// (fine when a job never mixes buffered and direct I/O on the same range),
// or here with the kDirect flag, which is coherent the way Linux is: dirty
// pages in the range are written back first, and a direct write drops the
// cached pages it overwrites.
//
// Data plane: the data of every cached page (dirty or clean) lives in an
// Overlay (nothing in timing-only runs); writeback copies it to the child.
// A power cut (host crash) loses the cache: dirty pages are gone.
//
// Writeback and syncs are a class of their own (Writeback,
// page_cache_writeback.h); the throttle too (DirtyThrottle,
// page_cache_throttle.h); the page states are in PageTable (page_table.h).
//
// Over an nfs node (the NFS client, sim/layers/nfs/nfs_client.h): a write
// whose pages are under WRITE waits for the reply; writeback follows the
// client's rules (queue, congestion, FILE_SYNC, COMMITs), and pages
// answered UNSTABLE count as writeback until their COMMIT.
//
// Stats for the explanations (counters(), also in AppendStats):
//   absorbed_bytes         bytes the application wrote into the cache
//   newly_dirtied_bytes    pages (4 KiB each) that became dirty: clean or
//                          missing pages, or pages under writeback
//   rewritten_dirty_bytes  page bytes written while already dirty: absorbed
//                          without any extra writeback
//   written_back_bytes     bytes written back to the child (completed)
//   throttled_ns           total time writers' acknowledgements were held
//                          back by balance_dirty_pages (pauses + waits at
//                          the limit), summed over writes
//   fsyncs, fsync_ns_total, fsync_ns_max, fsync_written_bytes: flushes,
//                          their summed and longest duration, and the bytes
//                          written back on their behalf
//   last_fsync_ns, last_fsync_bytes: the most recent one (end_fsync)
// and the time series "dirty_bytes" (dirty + under writeback, as the
// kernel's limits count them).
//
// Not thread-safe: belongs to the engine's thread.
#ifndef STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_CACHE_H_
#define STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_CACHE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/host_spec.h"
#include "sim/layers/host_cpu.h"
#include "sim/layers/page_cache/page_cache_throttle.h"
#include "sim/layers/page_cache/page_cache_writeback.h"
#include "sim/layers/page_cache/page_table.h"
#include "sim/node.h"
#include "sim/store/overlay.h"

namespace storlab {

struct PageCacheConfig {
  HostSpec host;
  // Linux's default read_ahead_kb (mm/readahead.c, VM_READAHEAD_PAGES).
  uint64_t read_ahead_bytes = 128 * 1024;
  // Largest writeback request: NFS wsize 1 MiB (nfs(5)); SATA/SCSI disks
  // take up to max_sectors_kb = 1280 KiB (BLK_DEF_MAX_SECTORS).
  uint64_t max_io_bytes = 1024 * 1024;
  // Writeback requests in flight: the block layer's nr_requests, 2 × the
  // queue depth (32 for SATA NCQ) under mq-deadline (block/blk-mq-sched.c).
  uint32_t writeback_queue_depth = 64;
  // False in timing-only runs: the cache then holds no data.
  bool keeps_data = true;
};

class PageCache : public Node {
 public:
  // Every counter of the cache and of its writeback (writeback().counters()),
  // in one flat view for the explanations and the stats.
  struct Counters {
    uint64_t absorbed_bytes = 0;
    uint64_t newly_dirtied_bytes = 0;
    uint64_t rewritten_dirty_bytes = 0;
    uint64_t written_back_bytes = 0;
    uint64_t writeback_requests = 0;
    uint64_t writeback_errors = 0;
    uint64_t throttled_writes = 0;
    uint64_t throttled_ns = 0;
    uint64_t read_hit_bytes = 0;
    uint64_t read_miss_bytes = 0;   // bytes of reads that waited for the child
    uint64_t child_read_bytes = 0;  // including read-ahead and partial-page reads
    uint64_t readahead_bytes = 0;
    uint64_t evicted_bytes = 0;
    uint64_t fsyncs = 0;
    uint64_t fsync_ns_total = 0;
    uint64_t fsync_ns_max = 0;
    uint64_t fsync_written_bytes = 0;
    uint64_t last_fsync_ns = 0;
    uint64_t last_fsync_bytes = 0;
    // NFS child only (nfs_client.h): writes that waited for a WRITE in
    // flight over their pages and how long in all, COMMITs sent,
    // background passes stopped by congestion.
    uint64_t nfs_rewrite_waits = 0;
    uint64_t nfs_rewrite_wait_ns = 0;
    uint64_t nfs_commits = 0;
    uint64_t nfs_congested_skips = 0;
  };

  // REQUIRES: child.geometry().logical_block divides 4096.
  PageCache(Engine& engine, std::string name, const PageCacheConfig& config, Node& child);
  ~PageCache() override;

  static constexpr NodeKind kKind = NodeKind::kPageCache;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "page_cache"; }
  std::vector<Node*> children() const override { return {&child_}; }

  // storlab sim --state (docs/state.md): the cached pages (clean: the run ends idle, with
  // everything written back) in LRU order and their data, read-ahead streams, writeback cursors,
  // the throttle's bandwidth estimate, the CPU timeline.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;
  const PageCacheConfig& config() const { return config_; }
  // A read of a file's hole (no device I/O), starting now; returns when the
  // CPU is done. Buffered: each page is allocated and zeroed, then copied to
  // the user (mm/filemap.c filemap_read; ext4_mpage_readpages zeroes a hole's
  // folio with folio_zero_segment). Direct: the user's buffer is zeroed
  // (fs/iomap/direct-io.c iomap_dio_hole_iter → iov_iter_zero). The zeroed
  // pages are not kept: a second buffered read of the hole costs the same.
  Nanos HoleRead(uint64_t offset, uint64_t length, bool direct);
  // posix_fadvise(2) on file `file` (mm/fadvise.c generic_fadvise()):
  // kRandom sets FMODE_RANDOM, so reads read what they ask and no more
  // (page_cache_sync_ra(): force_page_cache_ra()); kSequential doubles the
  // file's read-ahead window (f_ra.ra_pages = 2 × the bdi's); kNormal undoes
  // both. The open file's, so not part of a saved state.
  enum class Advice : uint8_t { kNormal, kRandom, kSequential };
  void Advise(uint32_t file, Advice advice) { advice_[file] = advice; }
  // A read of [offset, offset+length) on the device by `file` with
  // RWF_NOWAIT, which also sets IOCB_NOIO (fs/read_write.c
  // kiocb_set_rw_flags()): filemap_get_pages() gives -EAGAIN rather than
  // read a page that is not cached and up to date, and rather than start
  // the asynchronous read-ahead a page carrying PG_readahead asks for
  // (filemap_readahead()). True when the read would complete without I/O.
  bool ReadsWithoutIo(uint32_t file, uint64_t offset, uint64_t length) const;
  // mlock(2)ed memory comes and goes (fio's lockmem): the cache may hold
  // less, clean pages beyond it are evicted, the dirty limits shrink.
  void LockMemory(uint64_t bytes);
  void UnlockMemory(uint64_t bytes);
  // sync_file_range(2) of [offset, offset+length) on the device, pages of
  // `file` (page_cache_calls.cc); `flags` as Linux's SYNC_FILE_RANGE_*.
  static constexpr uint32_t kSyncRangeWaitBefore = 1, kSyncRangeWrite = 2, kSyncRangeWaitAfter = 4;
  void SyncFileRange(uint32_t file, uint64_t offset, uint64_t length, uint32_t flags,
                     Completion done);
  Counters counters() const;
  // Dirty pages plus pages under writeback, in bytes (what the limits count).
  uint64_t dirty_bytes() const;
  uint64_t writeback_bytes() const;
  uint64_t cached_bytes() const;
  const DirtyLimits& limits() const { return throttle_.limits(); }
  const DirtyThrottle& throttle() const { return throttle_; }
  // The writeback bandwidth the throttle currently assumes (bytes/s).
  double write_bandwidth() const { return throttle_.write_bandwidth(); }
  const Writeback& writeback() const { return writeback_; }
  // The NFS client's state when the child is an nfs node, else nullptr.
  const NfsClient* nfs_client() const { return nfs_client_.get(); }

  void AppendStats(StatList& out) const override;
  uint64_t volatile_bytes() const override { return dirty_bytes() + writeback_bytes(); }
  std::vector<const TimeSeries*> Series() const override { return {&dirty_series_}; }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;
  // Buffered reads and writes at any byte: partial pages are read from the
  // child first (write_begin) and written back whole.
  uint64_t Alignment(const Request& req) const override;

 private:
  // The cache's own counters (the writeback keeps its own).
  struct CacheCounters {
    uint64_t absorbed_bytes = 0;
    uint64_t newly_dirtied_bytes = 0;
    uint64_t rewritten_dirty_bytes = 0;
    uint64_t throttled_writes = 0;
    uint64_t throttled_ns = 0;
    uint64_t read_hit_bytes = 0;
    uint64_t read_miss_bytes = 0;
    uint64_t child_read_bytes = 0;
    uint64_t readahead_bytes = 0;
    uint64_t evicted_bytes = 0;
    uint64_t nfs_rewrite_waits = 0;
    uint64_t nfs_rewrite_wait_ns = 0;
  };
  struct ReadOp {
    uint64_t first, count;   // pages
    uint64_t invalidations;  // invalidations_ when issued: a later drop skips the fill
    std::unique_ptr<uint8_t[]> data;
  };
  struct Waiter {  // a request waiting for reads over [first, last]
    uint64_t first, last;
    Callback<void(Status)> fn;
  };

  // Writes, discards, direct I/O, stats (page_cache.cc).
  void StartWrite(Request req);
  void CopyIn(Request req);
  // NFS: a write over pages whose WRITE is in flight waits for the reply
  // (nfs_lock_and_join_requests); true if `req` was parked for that.
  bool WaitForNfsWrite(Request& req, uint64_t first, uint64_t last);
  void FinishWrite(Request req);
  void WakeBlockedWriters();
  void StartDiscard(Request req);
  void StartDirect(Request req);
  // Forgets the cached pages of [off, off+len): whole pages are dropped,
  // partly covered ones get zeros over the covered part.
  void DropRange(uint64_t off, uint64_t len);
  void EvictOverflow();
  void SetLocked(uint64_t bytes);  // lockmem's total: the limits and the capacity follow
  void NoteDirtyChange();
  // data_.Put / Patch for byte ranges (the overlay works in sectors).
  void PutBytes(uint64_t off, uint64_t len, const uint8_t* data);
  void PatchBytes(uint64_t off, uint64_t len, uint8_t* buf) const;
  uint64_t dirty_total_bytes() const;

  // Reads and read-ahead (page_cache_read.cc).
  void StartRead(Request req);
  void ServeRead(Request req, bool first_try);
  void Readahead(uint32_t file, uint64_t first, uint64_t last);
  // Reads the pages of [first, last] that are neither cached nor being
  // read, in runs of at most max_io; pages outside [req_first, req_last]
  // count as read-ahead.
  void ReadPages(uint64_t first, uint64_t last, uint64_t req_first, uint64_t req_last);
  void OnReadDone(uint64_t id, Status st);
  // Runs fn(OK) once no child read covers a page of [first, last], or
  // fn(error) if one of them fails.
  void WaitForReads(uint64_t first, uint64_t last, Callback<void(Status)> fn);

  uint64_t PageOf(uint64_t off) const { return off / PageTable::kPageSize; }
  uint64_t LastPageOf(uint64_t off, uint64_t len) const {
    return (off + len - 1) / PageTable::kPageSize;
  }
  // Bytes of pages [first, first+count) that lie inside the device.
  uint64_t RunBytes(uint64_t first, uint64_t count) const;

  PageCacheConfig config_;
  Node& child_;
  HostCpu cpu_;
  DirtyThrottle throttle_;
  PageTable pages_;
  Overlay data_;
  CacheCounters counters_;
  TimeSeries dirty_series_{"dirty_bytes"};
  uint64_t capacity_pages_;  // what the cache may hold

  // The NFS client's rules when the child is an nfs node (nullptr: a block
  // device): its writeback, and rewrites waiting for WRITEs in flight.
  std::unique_ptr<NfsClient> nfs_client_;
  Writeback writeback_;  // after pages_, data_, throttle_ and nfs_client_, which it uses

  uint64_t next_id_ = 1;                                   // of child reads
  std::deque<std::pair<Request, Nanos>> blocked_writers_;  // waiting at the limit
  std::map<uint64_t, ReadOp> reads_;
  std::vector<Waiter> read_waiters_;
  struct Stream {                     // read-ahead state of one file (struct file_ra_state)
    uint64_t prev_page = UINT64_MAX;  // last page of the previous read
    uint64_t start = 0, size = 0, async = 0;
    bool marker = false;  // start + size - async carries PG_readahead
  };
  std::map<uint32_t, Stream> streams_;
  std::map<uint32_t, Advice> advice_;
  uint64_t locked_bytes_ = 0;
  uint64_t invalidations_ = 0;
};

// `type = "page_cache"`, one child. Keys: every [host] key (mem, used_mem,
// cores, copy_rate_per_core, memory_bandwidth, dirty_background_ratio,
// dirty_ratio, dirty_expire, writeback_interval), read_ahead, max_io,
// writeback_queue_depth.

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_CACHE_H_
