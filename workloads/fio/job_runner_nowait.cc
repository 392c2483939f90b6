// The engine flags nowait (RWF_NOWAIT: pvsync2, libaio, io_uring) and
// force_async (IOSQE_ASYNC: io_uring), as fio 3.33 sets them and Linux 6.1
// answers them.
#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// A read or write with RWF_NOWAIT (SimHost::NowaitCheck() has the kernel's
// rules) fails rather than wait, and fio stops the job at the error as at
// any other (real fio 3.33 here: "err=11 ... Resource temporarily
// unavailable" at the first uncached buffered read, "err=95 ... Operation
// not supported" at the first buffered write of pvsync2 and libaio).
Status JobRunner::NowaitRefusal(const IoUnit& u) {
  // io_uring_cmd_prep(): the rw_flags field is uring_cmd_flags there.
  if (spec_.cmd_rw_flags) return Status::InvalidArgument("io_uring_cmd: unknown uring_cmd_flags");
  if (!spec_.nowait) return Status();
  const Op op = u.dir == kRead ? Op::kRead : Op::kWrite;
  switch (host_.NowaitCheck(files_[u.file].id, op, u.offset, u.length, spec_.direct)) {
    case SimHost::Nowait::kProceeds:
      return Status();
    case SimHost::Nowait::kUnsupported:
      return Status::NotSupported("RWF_NOWAIT: the file system does not set FMODE_NOWAIT");
    case SimHost::Nowait::kBufferedWrite:
      // io_uring/rw.c io_write(): a buffered write to a regular file is not
      // tried without blocking, and a block device's EOPNOTSUPP becomes
      // -EAGAIN; with REQ_F_NOWAIT (the user's RWF_NOWAIT) that is the
      // answer, not a punt to io-wq.
      if (eng_.kind == EngineKind::kIoUring) return Status::WouldBlock("RWF_NOWAIT buffered write");
      return Status::NotSupported("RWF_NOWAIT on a buffered write");
    case SimHost::Nowait::kWouldBlock:
      break;
  }
  return Status::WouldBlock("RWF_NOWAIT");
}

// engines/io_uring.c fio_ioring_prep() / fio_ioring_cmd_prep(): every
// force_async-th I/O prepared (trims and syncs count) carries IOSQE_ASYNC,
// so io_uring skips the inline attempt and hands it to an io-wq worker
// (io_uring.c io_queue_sqe_fallback() -> io_queue_iowq()); the worker
// wakes (io_wq_enqueue() -> io_wq_activate_free_worker()) before the I/O
// reaches the stack. Reads and direct writes only: buffered writes and
// syncs go to io-wq anyway (the runner's per-file worker; fsync never runs
// inline, io_fsync()), and fio does trims itself.
Nanos JobRunner::AsyncPunt(const IoUnit& u) {
  if (spec_.force_async == 0 || ++prepped_ != spec_.force_async) return Nanos(0);
  prepped_ = 0;
  const bool inline_first = u.dir == kRead || (u.dir == kWrite && spec_.direct);
  return inline_first ? eng_.punt_wake : Nanos(0);
}

}  // namespace storlab::fio
