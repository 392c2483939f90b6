// Writeback: the page cache's flusher and its syncs (Linux's bdi_writeback
// with fs/fs-writeback.c and the fsync side of mm/filemap.c), reduced to
// what decides timing.
//
// What it owns: the writeback requests in flight to the child, the syncs in
// progress and their waiters, the requests waiting for writeback over a
// range to end, the writeback errors kept for the next fsync, the flusher's
// queue of files (b_io) and its periodic tick, and their counters.
//
// When it writes back:
//   background  while dirty pages exceed dirty_background_ratio × dirtyable
//               (wb_over_bg_thresh), or
//   kupdate     at each writeback_interval tick (dirty_writeback_centisecs)
//               that finds a file dirty for dirty_expire (dirty_expire_centisecs);
//               it then takes only such files until none is left,
//   sync        for every sync in progress, with priority over both.
// What it picks: syncs round-robin, one run each, from where each one's
// last run ended (several fsync()ing tasks sharing the device queue);
// background files oldest dirtied first (queue_io), each for a chunk per
// turn (writeback_chunk_size), its dirty pages in ascending offset order
// from where its last pass stopped (write_cache_pages with range_cyclic),
// contiguous pages merged up to max_io; at most queue_depth requests in
// flight. A sync needs the pages dirty when it starts written back by a
// request submitted after it started, and those already under writeback to
// end; then the child is flushed (if asked) and the sync completes. A
// failed writeback leaves its pages clean and reports the error to the
// sync waiting for them and to the next fsync of the file (mapping_set_error).
//
// What it asks of the page cache, which owns them and drives the rest: the
// page table (it reads dirty runs and moves pages between dirty and
// writeback), the data overlay (read: the bytes a writeback carries), the
// throttle (it reads the limits and the bandwidth, and feeds it the
// bandwidth samples), the child node it writes to, and two hooks (below).
// Every call into it comes from the engine's thread; not thread-safe.
#ifndef STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_CACHE_WRITEBACK_H_
#define STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_CACHE_WRITEBACK_H_

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "sim/callback.h"
#include "sim/engine.h"
#include "sim/layers/nfs/nfs_client.h"
#include "sim/layers/page_cache/page_cache_throttle.h"
#include "sim/layers/page_cache/page_table.h"
#include "sim/node.h"
#include "sim/store/overlay.h"

namespace storlab {

class StateReader;
class StateWriter;

struct WritebackConfig {
  uint64_t max_io_bytes = 1024 * 1024;  // largest writeback request
  uint32_t queue_depth = 64;            // writeback requests in flight
  Nanos dirty_expire;                   // 0: every dirty file is expired
  Nanos interval;                       // the periodic tick; 0: none
  uint64_t capacity = 0;                // of the child: the last page may be short
  bool keeps_data = true;               // false: writebacks carry no data
  // The child is an NFS mount: its client's rules (nfs_client.h) decide
  // background writeback under congestion, the stability of a sync's
  // WRITEs, and the COMMITs; nullptr for a block device.
  NfsClient* nfs = nullptr;
};

struct WritebackCounters {
  uint64_t written_back_bytes = 0;  // completed without error
  uint64_t writeback_requests = 0;
  uint64_t writeback_errors = 0;
  uint64_t fsyncs = 0;  // FLUSH requests (syncs with `fsync` set) completed
  uint64_t fsync_ns_total = 0;
  uint64_t fsync_ns_max = 0;
  uint64_t fsync_written_bytes = 0;  // written back for any sync
  uint64_t last_fsync_ns = 0;
  uint64_t last_fsync_bytes = 0;
  uint64_t nfs_commits = 0;          // COMMITs sent (background and fsync)
  uint64_t nfs_congested_skips = 0;  // background passes stopped by congestion
};

class Writeback {
 public:
  // What it tells the page cache. Both run on the engine's thread, inside
  // a writeback's completion, and may call back into this class.
  struct Hooks {
    // [offset, offset+length) reached the child (for the trace).
    Callback<void(uint64_t offset, uint64_t length)> destaged;
    // A writeback ended and its pages left the writeback state: the dirty
    // level dropped (writers blocked at the limit may go on). Runs before
    // the waiters and the syncs it ends are woken.
    Callback<void()> cleaned;
  };

  // REQUIRES: max_io_bytes is a multiple of the page; the references
  // outlive this object.
  Writeback(Engine& engine, const WritebackConfig& config, PageTable& pages, const Overlay& data,
            DirtyThrottle& throttle, Node& child, Hooks hooks);
  Writeback(const Writeback&) = delete;
  Writeback& operator=(const Writeback&) = delete;

  // The dirty level changed: arms the periodic tick while pages are dirty
  // or under writeback, and issues writeback over the background threshold.
  void OnDirtyChange();
  // Issues writeback (syncs first, then background) while fewer than
  // queue_depth requests are in flight and there is something to write.
  void Pump();

  // Starts a sync of the pages of `file` (any file if `all_files`) within
  // [first, last] (0, UINT64_MAX: the whole file); runs `then` once they
  // are written back (and the child flushed if `flush_child`), never before
  // it returns. `fsync`: a FLUSH request, counted in the fsync counters and
  // given the file's pending writeback error.
  void StartSync(uint32_t file, bool all_files, uint64_t first, uint64_t last, bool flush_child,
                 bool fsync, Callback<void(Status)> then);
  // Pages [first, last] were dropped from the cache: no sync waits for them.
  void ForgetPages(uint64_t first, uint64_t last);
  // Runs fn(OK) once no writeback is in flight over pages [first, last]
  // (at once if none is).
  void WaitForWriteback(uint64_t first, uint64_t last, Callback<void(Status)> fn);

  // Forgets everything in flight or waiting (a power cut): completions of
  // requests issued before are ignored, waiters never run.
  void Reset();

  // storlab sim --state: the background queue and cursors (REQUIRES: nothing in flight, no sync, no
  // tick armed); read back into a fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  const WritebackCounters& counters() const { return counters_; }
  size_t in_flight() const { return writebacks_.size(); }
  size_t syncs() const { return syncs_.size(); }

 private:
  struct WritebackOp {
    uint64_t first, count;  // pages
    uint32_t file;
    Nanos submitted;
    uint64_t sync_id;  // the sync it was issued for, 0: background
    uint64_t pass;     // background: the pass (a file's chunk) it belongs to
    bool stable;       // sent FILE_SYNC (NFS)
    // Ids come from one counter: a writeback with a larger id than a sync
    // was submitted after the sync started.
    std::unique_ptr<uint8_t[]> data;
  };
  // A sync (fsync, sync, O_DSYNC write, direct I/O's flush of its range):
  // the pages it must see written back, per group: `fresh` were dirty when
  // it started and need a writeback submitted after that; `inflight` were
  // already under writeback and only need it to end.
  struct SyncWaiter {
    uint64_t id;
    uint32_t file;  // for the child flush and error reporting
    Nanos started;
    std::map<uint64_t, std::pair<PageTable::Mask, PageTable::Mask>> need;  // fresh, inflight
    uint64_t pages_left = 0;
    uint64_t to_issue = 0;  // `fresh` pages it has not sent yet
    uint64_t cursor = 0;    // group where its next run is searched
    uint64_t written_bytes = 0;
    bool flush_child;
    bool fsync;  // a FLUSH request: counted in the fsync stats
    bool flushing = false;
    Status error;
    Callback<void(Status)> then;
  };
  struct Waiter {  // a request waiting for writebacks over [first, last]
    uint64_t first, last;
    Callback<void(Status)> fn;
  };

  bool IssueSyncWriteback();
  // The next run of `w`'s pages that can be written back now.
  std::pair<uint64_t, uint64_t> NextSyncRun(SyncWaiter& w);
  bool IssueBackgroundWriteback();
  void IssueRun(uint32_t file, uint64_t first, uint64_t count, uint64_t sync_id,
                bool stable = false);
  // NFS (page_cache_writeback_nfs.cc): may background writeback go on; a
  // WRITE answered; a sync's COMMITs (of `file`, 0: every file with
  // unstable pages; none if nothing awaits one), then `then`.
  bool NfsBackgroundMayWrite();
  void NfsWriteDone(const WritebackOp& op, uint64_t bytes, bool ok);
  void NfsCommit(uint32_t file, Callback<void(Status)> then);
  void OnWritebackDone(uint64_t id, Status st);
  void AddNeed(SyncWaiter& w, uint64_t g, PageTable::Mask m);
  void CheckSync(uint64_t id);
  void ArmTick();
  void OnTick();
  uint64_t ChunkPages() const;
  // Wakes, in the order they came, the waiters whose pages are no longer
  // under writeback, after pages [first, last] left it.
  void WakeWritebackWaiters(uint64_t first, uint64_t last);
  // Bytes of pages [first, first+count) that lie inside the child.
  uint64_t RunBytes(uint64_t first, uint64_t count) const;

  Engine& engine_;
  const WritebackConfig config_;
  PageTable& pages_;
  const Overlay& data_;
  DirtyThrottle& throttle_;
  Node& child_;
  Hooks hooks_;
  WritebackCounters counters_;

  uint64_t next_id_ = 1;  // of writebacks and syncs
  std::map<uint64_t, WritebackOp> writebacks_;
  std::vector<Waiter> writeback_waiters_;
  std::map<uint64_t, std::unique_ptr<SyncWaiter>> syncs_;
  uint64_t sync_rotor_ = 0;                 // the sync whose run goes next
  std::map<uint32_t, Status> file_errors_;  // writeback errors, for the next fsync
  std::deque<uint32_t> bg_queue_;           // files in background writeback order (b_io)
  uint64_t bg_chunk_left_ = 0;              // pages the front file may still write this turn
  bool tick_armed_ = false;
  bool kupdate_ = false;  // the last tick found expired files
  uint64_t bg_pass_ = 0;  // counts background passes (NFS COMMITs follow each)
  bool congestion_noted_ = false;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_CACHE_WRITEBACK_H_
