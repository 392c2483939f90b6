// The option table's I/O priority entries (options.h, cmdprio.h): the job's
// prio= and prioclass= (options.c) and the libaio and io_uring engines'
// cmdprio_percentage=, cmdprio_class=, cmdprio= and cmdprio_bssplit=
// (engines/libaio.c, engines/io_uring.c), and io_uring's own engine
// options. Help texts are fio 3.33's own.
#include "workloads/fio/cmdprio.h"
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddPrioOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  // IOPRIO_MIN_PRIO .. IOPRIO_MAX_PRIO, IOPRIO_MIN_PRIO_CLASS ..
  // IOPRIO_MAX_PRIO_CLASS (os/os-linux.h).
  add({.name = "prio",
       .type = OptType::kInt,
       .target = &O::prio,
       .min = 0,
       .max = 7,
       .help = "Set job IO priority value"});
  add({.name = "prioclass",
       .type = OptType::kInt,
       .target = &O::prioclass,
       .min = 0,
       .max = 3,
       .help = "Set job IO priority class"});
  // FIO_OPT_INT with off1 (reads) and off2 (writes): "N" or "N,M".
  add({.name = "cmdprio_percentage",
       .type = OptType::kString,
       .target = &O::cmdprio_percentage,
       .help = "Send high priority I/O this percentage of the time",
       .check = CmdPrio::CheckPercentage});
  add({.name = "cmdprio_class",
       .type = OptType::kString,
       .target = &O::cmdprio_class,
       .help = "Set asynchronous IO priority class",
       .check = CmdPrio::CheckClass});
  add({.name = "cmdprio",
       .type = OptType::kString,
       .target = &O::cmdprio,
       .help = "Set asynchronous IO priority level",
       .check = CmdPrio::CheckLevel});
  add({.name = "cmdprio_bssplit",
       .type = OptType::kString,
       .target = &O::cmdprio_bssplit,
       .help = "Set priority percentages for different block sizes",
       .check = CmdPrio::CheckBssplit});
  // engines/io_uring.c's options. registerfiles (fixed files), fixedbufs
  // (registered buffers), nonvectored (IORING_OP_READ rather than READV) and
  // sqthread_poll_cpu (the SQ thread's CPU) save tens of nanoseconds a call
  // or pin a thread: below what the engine model resolves, they change no
  // timing. sqthread_poll moves the submission to a kernel thread
  // (job_runner_io.cc).
  add({.name = "cmd_type",
       .type = OptType::kEnum,
       .target = &O::cmd_type,
       .def = "nvme",
       .values = {{"nvme", "Issue nvme-uring-cmd"}},
       .help = "Specify uring-cmd type"});
  add({.name = "sqthread_poll",
       .type = OptType::kSet,
       .target = &O::sqthread_poll,
       .help = "Offload submission/completion to kernel thread"});
  add({.name = "sqthread_poll_cpu",
       .type = OptType::kInt,
       .target = &O::sqthread_poll_cpu,
       .min = 0,
       .max = 4095,
       .help = "What CPU to run SQ thread polling on"});
  add({.name = "registerfiles",
       .type = OptType::kSet,
       .target = &O::registerfiles,
       .help = "Pre-open/register files"});
  add({.name = "fixedbufs",
       .type = OptType::kSet,
       .target = &O::fixedbufs,
       .help = "Pre map IO buffers"});
  add({.name = "nonvectored",
       .type = OptType::kInt,
       .target = &O::nonvectored,
       .def = "-1",
       .min = -1,
       .max = 1,
       .help = "Use non-vectored read/write commands"});
  // engines/sync.c's pvsync2 options: RWF_HIPRI on a share of the I/Os
  // (fio_pvsyncio2_queue()). Accepted with no timing effect
  // (job_spec_fixup.cc says why).
  add({.name = "hipri",
       .type = OptType::kSet,
       .target = &O::hipri,
       .help = "Set RWF_HIPRI for pwritev2/preadv2"});
  add({.name = "hipri_percentage",
       .type = OptType::kInt,
       .target = &O::hipri_percentage,
       .def = "100",
       .min = 0,
       .max = 100,
       .help = "Probabilistically set RWF_HIPRI for pwritev2/preadv2"});
  // engines/sync.c and io_uring.c: RWF_UNCACHED on buffered I/O; mmap.c:
  // a private mapping advised MADV_HUGEPAGE (job_spec_fixup.cc says what
  // each does here).
  add({.name = "userspace_reap",
       .type = OptType::kSet,
       .target = &O::userspace_reap,
       .help = "Use alternative user-space reap implementation"});
  add({.name = "uncached",
       .type = OptType::kInt,
       .target = &O::uncached,
       .def = "0",
       .help = "Use RWF_UNCACHED for buffered read/writes"});
  add({.name = "thp",
       .type = OptType::kInt,
       .target = &O::thp,
       .def = "0",
       .help = "Memory Advise Huge Page"});
  // engines/sync.c, libaio.c, io_uring.c: RWF_NOWAIT on each read and
  // write; io_uring.c fio_ioring_prep(): IOSQE_ASYNC on every Nth I/O
  // (job_spec_flags.cc, job_runner_nowait.cc).
  add({.name = "nowait",
       .type = OptType::kBool,
       .target = &O::nowait,
       .def = "0",
       .help = "Set RWF_NOWAIT for reads/writes"});
  add({.name = "force_async",
       .type = OptType::kInt,
       .target = &O::force_async,
       .def = "0",
       .min = 0,
       .help = "Set IOSQE_ASYNC every N requests"});
}

}  // namespace storlab::fio
