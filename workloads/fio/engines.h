// The I/O engines as the runner models them: what each call costs the job's
// thread (CPU time in simulated nanoseconds) and how much of the job's
// iodepth really reaches the stack.
//
//   sync, psync  one request at a time; the thread waits in the system call
//                (fio caps iodepth at 1).
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
// file system (sim/fs/extent_fs.h) writes no metadata.
//
// Thread-safe (immutable data).
#ifndef STORLAB_WORKLOADS_FIO_ENGINES_H_
#define STORLAB_WORKLOADS_FIO_ENGINES_H_

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
  FileOp file_op = FileOp::kNone;      // falloc, ftruncate: each I/O; the others: each open
  bool no_stats = false;               // FIO_NOSTATS: I/Os take no latency samples
  Nanos op;                            // the file system call (file_op)
  Nanos op_trim;                       // falloc: a trim's call (punch hole)
  // kCreate, kStat, kDelete: the call is made when the job opens a file.
  bool op_on_open() const { return file_op >= FileOp::kCreate; }
};

const EngineModel& GetEngineModel(EngineKind kind);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_ENGINES_H_
