// PageCache: what a process asks of the cache beside its reads and writes
// (page_cache.h): mlock()ed memory it may not use (fio's lockmem) and
// sync_file_range(2) over a file's range.
#include <algorithm>

#include "sim/layers/page_cache/page_cache.h"

namespace storlab {

void PageCache::LockMemory(uint64_t bytes) {
  SetLocked(locked_bytes_ + bytes);
  EvictOverflow();
  NoteDirtyChange();  // the flusher sees the lower background limit
}

void PageCache::UnlockMemory(uint64_t bytes) {
  SetLocked(locked_bytes_ - std::min(bytes, locked_bytes_));
  WakeBlockedWriters();
}

void PageCache::SetLocked(uint64_t bytes) {
  locked_bytes_ = bytes;
  throttle_.SetLocked(bytes);
  capacity_pages_ = std::max<uint64_t>(throttle_.limits().dirtyable / kPage, 1);
}

// fs/sync.c sync_file_range(): WAIT_BEFORE waits for the writeback in
// flight over the range (file_fdatawait_range()), WRITE starts writeback of
// its dirty pages without waiting for it (__filemap_fdatawrite_range(),
// WB_SYNC_NONE), WAIT_AFTER then waits for all of it. No flag flushes the
// device's cache: the data is not durable when it returns.
void PageCache::SyncFileRange(uint32_t file, uint64_t offset, uint64_t length, uint32_t flags,
                              Completion done) {
  // Completions come from an engine event (WaitForWriteback may call back
  // at once). A power cut forgets the waiters as it forgets an fsync's
  // (Writeback::Reset()); SimHost's workloads cut in a forked copy
  // (workloads/power_cuts.h), which runs no job after the cut.
  auto finish = [this, done = std::move(done)](Status st) mutable {
    engine_.At(engine_.now(),
               [done = std::move(done), st = std::move(st)]() mutable { done(std::move(st)); });
  };
  if (length == 0) return finish(Status());
  const uint64_t first = PageOf(offset), last = LastPageOf(offset, length);
  const bool write = (flags & kSyncRangeWrite) != 0,
             wait_after = (flags & kSyncRangeWaitAfter) != 0;
  auto rest = [this, file, first, last, write, wait_after,
               finish = std::move(finish)](Status st) mutable {
    if (!st.ok()) return finish(std::move(st));
    if (write && wait_after) {
      return writeback_.StartSync(file, false, first, last, false, false, std::move(finish));
    }
    if (write) writeback_.StartSync(file, false, first, last, false, false, [](Status) {});
    if (wait_after && !write) return writeback_.WaitForWriteback(first, last, std::move(finish));
    finish(Status());
  };
  if (flags & kSyncRangeWaitBefore) {
    return writeback_.WaitForWriteback(first, last, std::move(rest));
  }
  rest(Status());
}

}  // namespace storlab
