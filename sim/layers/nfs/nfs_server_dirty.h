// NfsServerDirty: the NFS server's own dirty-page throttle — what Linux's
// balance_dirty_pages() does to the nfsd threads that write the clients'
// WRITEs into the server's page cache.
//
// knfsd writes an UNSTABLE WRITE (and, on an `async` export, every WRITE:
// fs/nfsd/vfs.c nfsd_vfs_write() sets stable = NFS_UNSTABLE when
// !EX_ISSYNC) through vfs_iter_write() into the page cache, so the nfsd
// thread passes generic_perform_write() → balance_dirty_pages_ratelimited()
// (mm/page-writeback.c) like any writer: no pause while the server's dirty
// pages stay under freerun = (background + limit) / 2; above it the thread
// sleeps so that all writers together dirty new pages at the server's
// measured writeback bandwidth × pos_ratio (DirtyThrottle,
// sim/layers/page_cache/page_cache_throttle.h, the same control line the
// client's page cache uses); at the limit they wait for writeback. The
// thread replies only after its pause, so once the server is over freerun
// WRITE replies come back at the rate its disks drain the cache.
//
// The limits are fractions of the server cache's size (its dirtyable
// memory: server_cache_size, server_cache_dirty_background,
// server_cache_dirty_limit). The bandwidth is sampled from the cache's
// destaging, which runs while dirty data exceeds the background threshold
// (wb_bandwidth_estimate_start / wb_update_write_bandwidth): a sample
// starts when a write finds the cache over it, and the estimate goes idle
// when a destage leaves the cache at or under it.
//
// Not thread-safe: the engine's thread runs everything.
#ifndef STORLAB_SIM_LAYERS_NFS_NFS_SERVER_DIRTY_H_
#define STORLAB_SIM_LAYERS_NFS_NFS_SERVER_DIRTY_H_

#include <cstdint>

#include "sim/layers/page_cache/page_cache_throttle.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

class NfsServerDirty {
 public:
  // `cache_bytes`: the server cache's size; the two ratios are its
  // dirty_background and dirty_limit.
  NfsServerDirty(uint64_t cache_bytes, double background_ratio, double limit_ratio);

  const DirtyLimits& limits() const { return throttle_.limits(); }
  // A WRITE reaches the page cache with the cache holding `dirty` bytes.
  void OnWrite(Nanos now, uint64_t dirty);
  // The WRITE has dirtied `new_bytes` (pages that were clean), leaving
  // `dirty` bytes dirty: when the nfsd thread may reply (now if no pause).
  Nanos ReplyAt(Nanos now, uint64_t dirty, uint64_t new_bytes);
  // A destage wrote `bytes` to the disks, leaving `dirty` bytes dirty.
  void OnDestaged(Nanos now, uint64_t bytes, uint64_t dirty);
  void Reset();  // a power cut

  // The throttle's bandwidth estimate and timeline, and whether a
  // writeback sample runs (storlab sim --state, nfs_state.cc).
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

  double write_bandwidth() const { return throttle_.write_bandwidth(); }
  uint64_t paused_writes() const { return paused_writes_; }
  Nanos paused_time() const { return paused_time_; }

 private:
  DirtyThrottle throttle_;
  bool writing_back_ = false;
  uint64_t paused_writes_ = 0;
  Nanos paused_time_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_NFS_NFS_SERVER_DIRTY_H_
