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
//
// Thread-safe (immutable data).
#ifndef STORLAB_WORKLOADS_FIO_ENGINES_H_
#define STORLAB_WORKLOADS_FIO_ENGINES_H_

#include "sim/time.h"
#include "workloads/fio/job_spec.h"

namespace storlab::fio {

struct EngineModel {
  EngineKind kind;
  bool async = false;                  // the thread keeps going while I/O is in flight
  bool no_io = false;                  // null: nothing reaches the stack
  bool per_fd_worker = false;          // posixaio: a serial helper thread per file
  bool buffered_sync_submit = false;   // libaio: buffered I/O blocks io_submit
  bool buffered_write_serial = false;  // io_uring: buffered writes per inode
  Nanos prep;                          // fio's own work per I/O (get_io_u, offsets, stats)
  Nanos submit;                        // the submitting call (slat of async engines; syscall
                                       // entry of sync ones)
  Nanos complete;                      // reaping one completion (syscall exit of sync engines)
  Nanos worker_wake;                   // posixaio: waking an idle helper thread
  Nanos notify;                        // posixaio: completion seen by fio's polling
};

const EngineModel& GetEngineModel(EngineKind kind);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_ENGINES_H_
