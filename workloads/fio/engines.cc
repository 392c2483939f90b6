#include "workloads/fio/engines.h"

// The tables below use designated initializers and rely on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {
namespace {

using namespace time_literals;

// Sources:
// - prep 180 ns: fio 3.33's null engine runs 5.46M IOPS on this machine
//   (tests/workloads/golden/null_randwrite.json: 16384 I/Os in 3 ms), i.e.
//   fio's own per-I/O work.
// - psync 1.2 us per call: fio psync on tmpfs, 599k 4 KiB reads/s
//   (shared/reference/measured-here.md) = 1.67 us, less a 4 KiB copy at
//   ~9 GB/s; split half entry, half exit.
// - libaio 1.64 us and io_uring 0.83 us per I/O: 608K and 1.2M IOPS per core
//   (J. Axboe, "Efficient IO with io_uring", 2019, non-polled), split 2:1
//   between submission and reaping.
// - posixaio: aio_write enqueues the request and signals glibc's helper
//   thread for the file descriptor (1.5 us of slat); an idle helper wakes
//   3 us later; the completion reaches fio's aio_suspend() 3 us after the
//   helper finishes. Fitted to the seeds' NVMe test A (430 MB/s of 4 KiB
//   posixaio writes at QD1 = 9.5 us per write, seed-results.md section 1)
//   with each wake-up inside the cost of a contended futex plus an idle
//   core's wake-up (a few us on 2013-2015 desktop CPUs). This VM, whose
//   wake-ups are slower, measures 16.8 us p50 clat (fio on tmpfs).
// - pvsync, pvsync2, vsync, splice, mmap: fio 3.33 on this VM (2 vCPUs,
//   Debian 12, ext4), 4 KiB random I/O on a cached 64 MiB file,
//   invalidate=0, 1 s each, median clat of five runs (noisy: other work
//   shares the cores): psync reads 1448 ns / writes 1720 ns, sync 1448 /
//   1656; pvsync 1496 / 1800 and pvsync2 1496 / 1784 (+60 ns: the iovec's
//   import), vsync 1800 / 2010 (+350 ns over sync: fio's queue, commit and
//   getevents path around readv/writev), splice 1880 / 3168 (+430 ns for
//   a read's splice + vmsplice, +1450 ns for a write's poll + vmsplice +
//   splice), mmap 564 / 572 with no fault (the memcpy alone; a read fault
//   maps 64 KiB: 1 fault per 16 pages, p95 of sequential 4 KiB reads
//   5.98 us against a p50 of 0.52 us, so 5.5 us a read fault; a write
//   faults every page once, p50 1.67-2.16 us for randwrite's first pass
//   against 0.58 us after it, so 1.4 us a write fault).
const EngineModel kModels[] = {
    {.kind = EngineKind::kSync, .prep = 180_ns, .submit = 750_ns, .complete = 750_ns},
    {.kind = EngineKind::kPsync, .prep = 180_ns, .submit = 600_ns, .complete = 600_ns},
    {.kind = EngineKind::kPvsync, .prep = 180_ns, .submit = 630_ns, .complete = 630_ns},
    {.kind = EngineKind::kPvsync2, .prep = 180_ns, .submit = 630_ns, .complete = 630_ns},
    // vsync: fio's queue, commit and getevents path per I/O (+350 ns);
    // the call itself is sync's lseek + readv/writev, once per merged run
    // (job_runner_vsync.cc books it).
    {.kind = EngineKind::kVsync, .prep = 530_ns, .merges = true},
    // mmap: no system call; a memcpy (the host's page-cache copy) and the
    // page faults of its first touch (job_runner_engines.cc).
    {.kind = EngineKind::kMmap,
     .prep = 180_ns,
     .mapped = true,
     .fault_read = 5500_ns,
     .fault_write = 1400_ns},
    // splice: psync's call plus the pipe's, per 64 KiB round.
    {.kind = EngineKind::kSplice,
     .prep = 180_ns,
     .submit = 600_ns,
     .complete = 600_ns,
     .chunk_read = 430_ns,
     .chunk_write = 1450_ns},
    {.kind = EngineKind::kLibaio,
     .async = true,
     .buffered_sync_submit = true,
     .prep = 180_ns,
     .submit = 1100_ns,
     .complete = 540_ns},
    {.kind = EngineKind::kIoUring,
     .async = true,
     .buffered_write_serial = true,
     .prep = 180_ns,
     .submit = 550_ns,
     .complete = 280_ns,
     .punt_wake = 3000_ns},
    // io_uring_cmd: the same ring and calls as io_uring (fio_ioring_queue(),
    // fio_ioring_commit(), fio_ioring_getevents()); the char device has no
    // page cache, so every I/O is direct (job_spec_fixup.cc).
    {.kind = EngineKind::kIoUringCmd,
     .async = true,
     .prep = 180_ns,
     .submit = 550_ns,
     .complete = 280_ns,
     .punt_wake = 3000_ns},
    {.kind = EngineKind::kPosixaio,
     .async = true,
     .per_fd_worker = true,
     .prep = 180_ns,
     .submit = 1500_ns,
     .complete = 300_ns,
     .worker_wake = 3000_ns,
     .notify = 3000_ns},
    {.kind = EngineKind::kNull, .async = true, .no_io = true, .diskless = true, .prep = 180_ns},
    // The file system engines (engines.h): FIO_SYNCIO; the call's whole
    // cost is `op` (its median clat measured with fio on ext4 here).
    {.kind = EngineKind::kFalloc,
     .prep = 180_ns,
     .file_op = FileOp::kFalloc,
     .op = 1450_ns,
     .op_trim = 37600_ns},
    {.kind = EngineKind::kFtruncate, .prep = 180_ns, .file_op = FileOp::kFtruncate, .op = 1530_ns},
    {.kind = EngineKind::kFileCreate,
     .no_io = true,
     .diskless = true,
     .prep = 180_ns,
     .file_op = FileOp::kCreate,
     .no_stats = true,
     .op = 55600_ns},
    {.kind = EngineKind::kFileStat,
     .no_io = true,
     .prep = 180_ns,
     .file_op = FileOp::kStat,
     .no_stats = true,
     .op = 1780_ns},
    {.kind = EngineKind::kFileDelete,
     .no_io = true,
     .prep = 180_ns,
     .file_op = FileOp::kDelete,
     .no_stats = true,
     .op = 67100_ns},
};

}  // namespace

const EngineModel& GetEngineModel(EngineKind kind) {
  for (const auto& m : kModels) {
    if (m.kind == kind) return m;
  }
  return kModels[1];
}

}  // namespace storlab::fio
