// Jobs ready to run: fio's options after parsing, with numjobs expanded into
// clones, file names generated, groups assigned and fio's fixups applied
// (a synchronous engine caps iodepth at 1, mixed workloads read and write,
// ...). Built from raw sections (job_file.h) in the order fio reads them:
// command-line globals, job files, command-line jobs.
// Thread-compatible.
#ifndef STORLAB_WORKLOADS_FIO_JOB_SPEC_H_
#define STORLAB_WORKLOADS_FIO_JOB_SPEC_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/status.h"
#include "sim/time.h"
#include "workloads/fio/block_sizes.h"
#include "workloads/fio/cmdprio.h"
#include "workloads/fio/file_service.h"
#include "workloads/fio/io_buffers.h"
#include "workloads/fio/job_file.h"
#include "workloads/fio/options.h"
#include "workloads/fio/rand_dist.h"
#include "workloads/fio/verify.h"

namespace storlab::fio {

struct ReplayTrace;  // iolog_read.h

enum class EngineKind {
  kSync,
  kPsync,
  kLibaio,
  kIoUring,
  kPosixaio,
  kNull,
  kIoUringCmd,
  kFalloc,
  kFtruncate,
  kFileCreate,
  kFileStat,
  kFileDelete,
  kVsync,
  kPvsync,
  kPvsync2,
  kMmap,
  kSplice,
};
enum class RandGen { kTausworthe, kLfsr, kTausworthe64 };

struct JobSpec {
  JobOptions opts;  // as written (the "job options" echo)
  std::string name;
  int section = 0;        // index of the job section it came from
  int clone = 0;          // 0 .. numjobs-1
  int thread_number = 1;  // fio's: 1, 2, ... over all jobs
  int groupid = 0;
  int segment = 0;  // stonewall segment: runs after every earlier one
  bool first_of_section = true;

  bool do_read = false, do_write = false;  // directions in the mix
  // rw=trim, randtrim: trims only; trimwrite, randtrimwrite: each block
  // trimmed, then written (io_u.c set_rw_ddir(), td_trimwrite()).
  bool do_trim = false, trim_write = false;
  bool random = false;
  int rwmixread = 50;  // percent, for mixed workloads
  BlockSizes sizes;    // bs=, bsrange=, bssplit= per direction (block_sizes.h)
  // The largest I/O of direction `d` (kRead, kWrite, kTrim): buffers, layout.
  uint64_t max_bs(int d) const { return sizes[static_cast<size_t>(d)].max; }
  uint64_t ba[3] = {4096, 4096,
                    4096};  // random offsets' alignment (blockalign=; the smallest size)
  // The rw= postfix (options.c str_rw_cb): a sequential job skips seq_add
  // bytes after each I/O (negative: goes backwards); a random job takes a
  // new random offset every seq_nr I/Os and goes on sequentially between.
  int64_t seq_add = 0;
  uint32_t seq_nr = 1;
  EngineKind engine = EngineKind::kPsync;
  uint32_t iodepth = 1;  // effective (1 for synchronous engines)
  // io_u queueing after init.c fixup_options(): submit batch, reap between
  // complete_min and complete_max at a time, and once the queue was full
  // wait until no more than `low` are in flight. batching: not fio's
  // defaults (1, 1, 1, iodepth), so the runner queues as fio does.
  struct Queueing {
    uint32_t batch = 1, complete_min = 1, complete_max = 1, low = 1;
    bool batching = false;
    bool polling = false;  // complete_min = complete_max = 0 (backend.c io_in_polling())
  } queueing;
  bool direct = false;
  // ioengine=mmap with direct=1: the I/O goes through the page cache (a
  // mapping), and each write is msync'ed (engines/mmap.c); direct is false.
  bool msync_writes = false;
  // uncached= on buffered I/O: each read and write fails (EOPNOTSUPP);
  // mmap's thp=: the mapping is private (job_runner_engines.cc).
  bool uncached_io = false, mmap_private = false;
  // nowait=: RWF_NOWAIT on each read and write (job_runner_nowait.cc);
  // io_uring_cmd refuses any rw flag (EINVAL); force_async=N: IOSQE_ASYNC
  // on every Nth I/O (0: never).
  bool nowait = false, cmd_rw_flags = false;
  uint64_t force_async = 0;
  // sync=sync|dsync (O_SYNC, O_DSYNC): each write is durable when it
  // returns: the page cache writes its range back and flushes, a direct
  // write goes to the device with FUA (Request kFua). Not for mmap, whose
  // stores never see the flag.
  bool sync_writes = false;
  // sync_file_range=: its SYNC_FILE_RANGE_* flags, every `sfr_every` writes
  // (0: never).
  uint32_t sfr_flags = 0;
  uint64_t sfr_every = 0;
  RandGen rand_gen = RandGen::kTausworthe;
  uint64_t rand_seed = 0;    // offsets and the read/write mix derive from it
  RandDist rand_dist;        // random_distribution (kRandom: uniform)
  FileService file_service;  // file_service_type (file_service.h)

  std::vector<std::string> files;  // paths in the simulated file system
  uint64_t file_size = 0;          // each file; 0: take the existing file's size
  // filesetup.c get_start_offset(): where in each file the job's I/O
  // starts, offset + subjob_number * offset_increment.
  uint64_t file_offset = 0;
  uint64_t subjob = 0;   // fio's td->subjob_number (0: the job; numjobs-1 .. 1: its clones)
  uint64_t io_size = 0;  // bytes per loop; 0: the files' total size
  // read_iolog: the trace the job replays instead of choosing its own I/O
  // (files, directions and block sizes come from it; iolog_spec.cc).
  std::shared_ptr<const ReplayTrace> trace;
  // verify=: what writes put in their blocks and reads check (verify.h).
  VerifyKind verify = VerifyKind::kNone;
  std::vector<uint8_t> verify_pattern;
  // verify_interval after init.c fixup_options(): a header every that many
  // bytes of a write (0 without verify).
  uint64_t verify_interval = 0;
  // buffer_pattern=: what writes carry when verify= does not say (fio_pattern.h).
  std::vector<uint8_t> buffer_pattern;
  // What write buffers hold, from buffer_pattern, zero_buffers,
  // refill_buffers, scramble_buffers, buffer_compress_* (io_buffers.h).
  BufferFill fill;
  // sqthread_poll (io_uring, io_uring_cmd): the kernel's SQ thread submits,
  // on a core of its own, and the job reaps from the ring without a call.
  bool sqthread_poll = false;
  // libaio's userspace_reap with iodepth_batch_complete_min=0: the job
  // reads its completions off the AIO ring without io_getevents().
  bool user_reap = false;
  // prio=, prioclass=, cmdprio_*: each I/O's priority (cmdprio.h).
  CmdPrio cmdprio;
  // io_submit_mode=offload: iodepth worker threads do the I/O (a
  // synchronous engine keeps its iodepth); the job's thread never waits.
  bool offload = false;
  // The host cores its CPU bursts may run on (cpumask, cpus_allowed; with
  // cpus_allowed_policy=split one of them); empty: any.
  std::vector<uint32_t> cpus;
  // zonemode=strided (io_u.c setup_strided_zone_mode()); size 0: no zones.
  struct Zones {
    uint64_t size = 0;   // bytes of I/O per zone
    uint64_t range = 0;  // the zone's extent (zonerange; default zonesize)
    uint64_t skip = 0;   // bytes skipped after a zone
  } zones;
};

struct JobSet {
  std::vector<JobSpec> jobs;
  std::vector<std::pair<std::string, std::string>> global_echo;  // "global options"
  std::vector<std::string> notes;                                // fio's notes (printed on stderr)
};

// `run_seed` is --seed: it seeds the offsets of jobs with randrepeat=0.
Result<JobSet> BuildJobs(const std::vector<RawSection>& sections, uint64_t run_seed);

const char* EngineName(EngineKind e);
// What the job's write buffers hold, from its options (job_spec.cc).
BufferFill ResolveBufferFill(const JobSpec& j);

// The simulated time `jobs` should take, for a progress estimate: stonewall
// segments one after another, the jobs of a segment side by side (each its
// startdelay + ramp_time + runtime; 0 when none has a runtime).
Nanos ExpectedTime(const JobSet& jobs);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_JOB_SPEC_H_
