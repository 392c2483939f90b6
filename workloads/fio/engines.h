// The I/O engines as the runner models them: what each call costs the job's
// thread (CPU time in simulated nanoseconds) and how much of the job's
// iodepth really reaches the stack.
//
//   sync, psync  one request at a time; the thread waits in the system call
//                (fio caps iodepth at 1).
//   pvsync, pvsync2
//                engines/sync.c fio_pvsyncio_queue(), fio_pvsyncio2_queue():
//                preadv/pwritev(2) of one iovec, psync's path plus the
//                vectored call's setup. pvsync2's hipri (RWF_HIPRI) changes
//                nothing here (job_spec_fixup.cc says why).
//   vsync        engines/sync.c fio_vsyncio_queue()/_commit(): I/Os that
//                continue the previous one (same file, direction, next
//                offset) are queued and committed as one readv/writev,
//                at most iodepth of them; the stack sees the merged request
//                (job_runner_vsync.cc).
//   mmap         engines/mmap.c fio_mmapio_queue(): a memcpy to or from the
//                file mapped MAP_SHARED, i.e. the page cache; no system
//                call, but a page fault on the first touch of a page (a
//                read fault maps a 64 KiB window: fault-around; a write
//                fault makes one page writable). fsync is msync(MS_SYNC);
//                direct=1 is "not really direct": each write is followed
//                by msync(MS_SYNC) of its range, and the pages stay cached.
//   splice       engines/splice.c: a read splices the file into a pipe and
//                vmsplices it to fio's buffer, a write vmsplices the buffer
//                into the pipe and splices it to the file, 64 KiB
//                (SPLICE_DEF_SIZE, the pipe's size) per round: psync's I/O
//                with more system calls.
//   libaio       io_submit/io_getevents: asynchronous for O_DIRECT; buffered
//                I/O is done inside io_submit (Linux AIO is only async for
//                direct I/O), so the thread blocks and the depth is 1.
//   io_uring     asynchronous; buffered writes to one file are serialized by
//                io-wq (hashed per inode), buffered reads are not.
//   posixaio     glibc's user-space AIO: one helper thread per file
//                descriptor runs its requests one after another
//                (sysdeps/pthread/aio_misc.c), so a job's iodepth queues in
//                glibc, not in the device; fio polls for completions.
//   null         fio's null engine: completes at once, touches nothing.
//   io_uring_cmd engines/io_uring.c with cmd_type=nvme: NVMe commands passed
//                through io_uring to a namespace's generic char device
//                (/dev/ngXnY): io_uring's costs, never a page cache.
//   falloc       engines/falloc.c fio_fallocate_queue(): each I/O is one
//                fallocate() call on the simulated file system (a write
//                allocates and extends, a read allocates keeping the size,
//                a trim punches a hole); no data reaches the stack.
//   ftruncate    engines/ftruncate.c fio_ftruncate_queue(): each write is
//                ftruncate(fd, offset) (other directions: EINVAL).
//   filecreate, filestat, filedelete
//                engines/fileoperations.c: the cost is in opening a file
//                (open_file(): open(O_CREAT), stat_file(): stat(),
//                delete_file(): unlink()), timed as the clat of the job's
//                direction; the I/Os themselves are fake (queue_io()
//                completes at once, FIO_NOSTATS: no latency samples).
//
// The file system calls cost CPU time of the job's thread, measured here
// with fio 3.33's own engines on ext4 (a 2-vCPU VM, Debian 12; median clat
// of 2000-16384 calls): fallocate 4 KiB 1.45 us, punch hole 4 KiB 37.6 us,
// ftruncate 1.53 us, open(O_CREAT) of a new file 55.6 us, stat 1.78 us,
// unlink of a 4 KiB file 67.1 us. They do no device I/O: the simulated
// file system (sim/fs/extent_fs.h) writes no metadata. The same VM, fio
// 3.33, 4 KiB I/Os on a cached 64 MiB ext4 file (engines.cc has the
// figures): pvsync, pvsync2, vsync and splice against psync and sync, and
// mmap's faults.
//
// Thread-safe (immutable data).
#ifndef STORLAB_WORKLOADS_FIO_ENGINES_H_
#define STORLAB_WORKLOADS_FIO_ENGINES_H_

#include <cstdint>

#include "sim/time.h"
#include "workloads/fio/job_spec.h"

namespace storlab::fio {

// What an engine's call does to the simulated file system instead of (or
// before) block I/O.
enum class FileOp { kNone, kFalloc, kFtruncate, kCreate, kStat, kDelete };

struct EngineModel {
  EngineKind kind;
  bool async = false;                  // the thread keeps going while I/O is in flight
  bool no_io = false;                  // null: nothing reaches the stack
  bool diskless = false;               // FIO_DISKLESSIO: no disk_util, no file layout
  bool per_fd_worker = false;          // posixaio: a serial helper thread per file
  bool buffered_sync_submit = false;   // libaio: buffered I/O blocks io_submit
  bool buffered_write_serial = false;  // io_uring: buffered writes per inode
  Nanos prep;                          // fio's own work per I/O (get_io_u, offsets, stats)
  Nanos submit;                        // the submitting call (slat of async engines; syscall
                                       // entry of sync ones)
  Nanos complete;                      // reaping one completion (syscall exit of sync engines)
  Nanos worker_wake;                   // posixaio: waking an idle helper thread
  Nanos notify;                        // posixaio: completion seen by fio's polling
  Nanos punt_wake;                     // io_uring: IOSQE_ASYNC's idle io-wq worker waking
  FileOp file_op = FileOp::kNone;      // falloc, ftruncate: each I/O; the others: each open
  bool no_stats = false;               // FIO_NOSTATS: I/Os take no latency samples
  Nanos op;                            // the file system call (file_op)
  Nanos op_trim;                       // falloc: a trim's call (punch hole)
  bool merges = false;                 // vsync: contiguous I/Os go as one readv/writev
  bool mapped = false;                 // mmap: no system call; page faults instead
  Nanos fault_read;                    // mmap: a read fault (one fault-around window)
  Nanos fault_write;                   // mmap: a write fault (one page made writable)
  Nanos chunk_read;                    // splice: a read's calls beyond psync's, per 64 KiB
  Nanos chunk_write;                   // splice: a write's calls beyond psync's, per 64 KiB
  // kCreate, kStat, kDelete: the call is made when the job opens a file.
  bool op_on_open() const { return file_op >= FileOp::kCreate; }
};

const EngineModel& GetEngineModel(EngineKind kind);

// mmap's fault-around window (mm/memory.c fault_around_bytes, 64 KiB) and
// splice's round (engines/splice.c SPLICE_DEF_SIZE, the pipe's 64 KiB).
inline constexpr uint64_t kFaultAroundBytes = 64 * 1024;
inline constexpr uint64_t kSpliceChunk = 64 * 1024;
inline constexpr uint64_t kMmapPage = 4096;

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_ENGINES_H_
