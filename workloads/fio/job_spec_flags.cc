// FixupEngineFlags (job_spec_fixup.h): sync_file_range= and the engine
// flags uncached, nowait, force_async and thp, as fio 3.33 reads them.
#include <cstdlib>
#include <string>
#include <string_view>

#include "sim/quoted.h"
#include "workloads/fio/job_spec_fixup.h"

namespace storlab::fio {

Status FixupEngineFlags(JobSpec& j, const std::string& job) {
  const JobOptions& o = j.opts;
  // options.c sync_file_range (FIO_OPT_STR_MULTI: values split at ',',
  // each one of wait_before, write, wait_after OR'ed in) and str_sfr_cb():
  // each value's ":N" postfix sets how many writes apart (1 without; the
  // last value's counts).
  if (!o.sync_file_range.empty()) {
    std::string_view rest = o.sync_file_range;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      std::string_view v = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      const size_t colon = v.find(':');
      const std::string_view flag = v.substr(0, colon);
      j.sfr_every = 1;
      if (colon != std::string_view::npos) {
        const std::string n(v.substr(colon + 1));
        char* end = nullptr;
        const unsigned long long every = std::strtoull(n.c_str(), &end, 10);
        if (n.empty() || *end != '\0' || every > (1u << 30)) {
          return Status::InvalidArgument(job + "option 'sync_file_range': " + Quoted(n) +
                                         " is not a number of writes");
        }
        j.sfr_every = every;  // fio's atoi(): 0 turns it off
      }
      if (flag == "wait_before") {
        j.sfr_flags |= 1;
      } else if (flag == "write") {
        j.sfr_flags |= 2;
      } else if (flag == "wait_after") {
        j.sfr_flags |= 4;
      } else {
        return Status::InvalidArgument(job + "option 'sync_file_range': " + Quoted(flag) +
                                       " is not one of wait_before, write, wait_after");
      }
    }
  }
  // engines/sync.c fio_pvsyncio2_queue(), io_uring.c fio_ioring_prep():
  // uncached sets RWF_UNCACHED (0x40 in fio 3.33's os/os-linux.h) on
  // buffered I/O. The flag never reached Linux under that value: kernels
  // before 6.11 refuse an unknown flag (kiocb_set_rw_flags(): EOPNOTSUPP),
  // later ones read 0x40 as RWF_ATOMIC, which buffered I/O refuses alike
  // (real fio 3.33 here, pvsync2 and io_uring: err=95 on the first I/O).
  if (o.uncached && j.engine != EngineKind::kPvsync2 && j.engine != EngineKind::kIoUring &&
      j.engine != EngineKind::kIoUringCmd) {
    return Status::InvalidArgument(job +
                                   "uncached is an option of ioengine=pvsync2, io_uring "
                                   "and io_uring_cmd, not of ioengine=" +
                                   o.ioengine);
  }
  // td->o.odirect: direct=1 (or atomic=1, fixup_options()) leaves the flag off.
  const bool odirect = o.direct || o.atomic;
  j.uncached_io = o.uncached && !odirect;
  // nowait (RWF_NOWAIT: sync.c fio_pvsyncio2_queue(), libaio.c
  // fio_libaio_prep(), io_uring.c fio_ioring_prep() and _cmd_prep()) and
  // io_uring's force_async (IOSQE_ASYNC on every force_async-th prep).
  const bool uring = j.engine == EngineKind::kIoUring || j.engine == EngineKind::kIoUringCmd;
  if (o.nowait && !uring && j.engine != EngineKind::kPvsync2 && j.engine != EngineKind::kLibaio) {
    return Status::InvalidArgument(job +
                                   "nowait is an option of ioengine=pvsync2, libaio, io_uring "
                                   "and io_uring_cmd, not of ioengine=" +
                                   o.ioengine);
  }
  if (o.force_async != 0 && !uring) {
    return Status::InvalidArgument(job +
                                   "force_async is an option of ioengine=io_uring and "
                                   "io_uring_cmd, not of ioengine=" +
                                   o.ioengine);
  }
  j.nowait = o.nowait;
  j.force_async = static_cast<uint64_t>(o.force_async);
  // io_uring_cmd: the sqe's rw_flags share their field with uring_cmd_flags,
  // and io_uring_cmd_prep() refuses any flag it does not know (6.0-6.1:
  // any rw_flags at all; 6.2 on: all but IORING_URING_CMD_FIXED): EINVAL.
  if (j.engine == EngineKind::kIoUringCmd) {
    j.cmd_rw_flags = j.nowait || j.uncached_io;
    j.nowait = j.uncached_io = false;
  }
  // engines/mmap.c fio_mmap_get_shared(): thp maps the file MAP_PRIVATE
  // and advises MADV_HUGEPAGE. Stores then land in private copies of the
  // pages and never reach the file (no huge page either: a private file
  // mapping's copies are not THP-eligible, do_huge_pmd_anonymous_page()
  // is for anonymous VMAs only).
  if (o.thp && j.engine != EngineKind::kMmap) {
    return Status::InvalidArgument(
        job + "thp is an option of ioengine=mmap, not of ioengine=" + o.ioengine);
  }
  j.mmap_private = o.thp != 0;
  if (j.mmap_private && o.verify != "0" && o.verify != "none") {
    return Status::InvalidArgument(job +
                                   "thp with verify is not supported: the private "
                                   "mapping's bytes are not kept");
  }
  return Status();
}

}  // namespace storlab::fio
