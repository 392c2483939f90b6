// JobRunner's engine-specific paths (job_runner.h, engines.h): posixaio's
// helper thread per file descriptor (and io_uring's io-wq chain per
// inode), what the mmap engine's page faults cost and its msync after each
// write with direct=1 (engines/mmap.c), and splice's rounds through the
// pipe (engines/splice.c).
#include <algorithm>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// The fd's helper thread takes the next queued request at `t` (no earlier
// than it arrived) and makes its system call.
void JobRunner::StartWorker(FileState& f, Nanos t) {
  IoUnit* u = f.queue[f.q_head];
  f.q_head = (f.q_head + 1) % f.queue.size();
  --f.q_size;
  f.worker_busy = true;
  Nanos syscall = eng_.per_fd_worker ? psync_.submit : Nanos(0);
  u->arrival = Max(t, u->arrival) + syscall;
  if (eng_.per_fd_worker) sys_ns_ += psync_.submit + psync_.complete;
  Engine& engine = host_.engine();
  if (u->arrival == engine.now()) {
    SubmitNow(u);
  } else {
    engine.At(u->arrival, [u] { u->job->SubmitNow(u); });
  }
}

// The CPU an I/O's call costs beyond the engine's fixed submit cost.
Nanos JobRunner::CallCost(const IoUnit& u) {
  if (u.dir != kRead && u.dir != kWrite) return Nanos(0);
  if (eng_.mapped) return MmapFaults(u);
  if (eng_.chunk_read > Nanos(0)) {
    // engines/splice.c fio_splice_read() / fio_splice_write(): one round
    // of calls per 64 KiB; psync's submit and complete cover the first
    // round's, each further round costs them again.
    const auto rounds = static_cast<int64_t>((u.length + kSpliceChunk - 1) / kSpliceChunk);
    const Nanos round = u.dir == kRead ? eng_.chunk_read : eng_.chunk_write;
    return round * rounds + (eng_.submit + eng_.complete) * (rounds - 1);
  }
  return Nanos(0);
}

// engines/mmap.c maps the whole file (fio_mmapio_prep_full(), MAP_SHARED)
// when it first reaches it; the memcpy of fio_mmapio_queue() faults on
// each window (reads: filemap_map_pages() maps the 64 KiB around the
// fault) or page (writes: do_shared_fault(), page_mkwrite) not mapped yet.
// After msync(MS_SYNC) (direct=1) the page is clean and write-protected
// again, so each such write faults.
Nanos JobRunner::MmapFaults(const IoUnit& u) {
  FileState& f = files_[u.file];
  if (f.map_read.empty()) {
    f.map_read.assign((f.size + kFaultAroundBytes - 1) / kFaultAroundBytes + 1, false);
    f.map_write.assign((f.size + kMmapPage - 1) / kMmapPage + 1, false);
  }
  if (u.length == 0) return Nanos(0);
  const bool read = u.dir == kRead;
  const uint64_t unit = read ? kFaultAroundBytes : kMmapPage;
  std::vector<bool>& map = read ? f.map_read : f.map_write;
  const uint64_t first = u.offset / unit;
  const uint64_t last = std::min<uint64_t>((u.offset + u.length - 1) / unit, map.size() - 1);
  int64_t faults = 0;
  for (uint64_t i = first; i <= last; ++i) {
    if (map[i]) continue;
    ++faults;
    if (read || !spec_.msync_writes || spec_.mmap_private) map[i] = true;
  }
  return (read ? eng_.fault_read : eng_.fault_write) * faults;
}

// A new pass opens the files again (backend.c: close_files() after each
// loop): fio maps them afresh, so their pages fault again. time_based
// wraps without closing them.
void JobRunner::Unmap() {
  if (!eng_.mapped || spec_.opts.time_based) return;
  for (FileState& f : files_) {
    f.map_read.clear();
    f.map_write.clear();
    f.map_private.clear();
  }
}

// thp= (engines/mmap.c fio_mmap_get_shared()): a MAP_PRIVATE mapping. A
// store to a page not copied yet faults it in from the file through the
// page cache and copies it (mm/memory.c do_cow_fault(), wp_page_copy());
// later stores and loads of the copy touch no file. The copies go with the
// mapping (a new pass maps the file again: Unmap()). msync() on a private
// mapping syncs nothing (mm/msync.c: only VM_SHARED), so no MsyncAfter().
void JobRunner::SubmitPrivate(IoUnit* u, Completion done) {
  FileState& f = files_[u->file];
  if (f.map_private.empty()) f.map_private.assign((f.size + kMmapPage - 1) / kMmapPage + 1, false);
  const uint64_t first = u->offset / kMmapPage;
  const uint64_t last =
      std::min<uint64_t>((u->offset + u->length - 1) / kMmapPage, f.map_private.size() - 1);
  bool copied = true;
  for (uint64_t i = first; i <= last; ++i) {
    copied = copied && f.map_private[i];
    if (u->dir == kWrite) f.map_private[i] = true;
  }
  if (copied || u->length == 0) {
    host_.engine().At(host_.engine().now(), [done = std::move(done)]() mutable { done(Status()); });
    return;
  }
  // The faults read whole pages of the file (a store's too).
  const uint64_t off = u->dir == kWrite ? first * kMmapPage : u->offset;
  const uint64_t end =
      u->dir == kWrite ? std::min(f.size, (last + 1) * kMmapPage) : u->offset + u->length;
  host_.FileIo(f.id, Op::kRead, off, end - off, /*direct=*/false, std::move(done));
}

// fio_mmapio_queue() with direct=1: "not really direct, but should drop
// the pages from the cache": msync(MS_SYNC) of the I/O's range writes it
// back and waits (the file's only dirty pages: every write is synced
// so); the posix_madvise(POSIX_MADV_DONTNEED) after it is a no-op in
// glibc on Linux, so the pages stay cached. A read's msync finds nothing
// dirty.
Completion JobRunner::MsyncAfter(const IoUnit& u, Completion done) {
  const uint32_t id = files_[u.file].id;
  return [this, id, done = std::move(done)](Status st) mutable {
    if (!st.ok()) {
      done(std::move(st));
      return;
    }
    host_.Fsync(id, false, std::move(done));
  };
}

}  // namespace storlab::fio
