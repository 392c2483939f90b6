#include "workloads/fio/job_spec_fixup.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "sim/quoted.h"
#include "workloads/fio/engines.h"
#include "workloads/fio/fio_pattern.h"
#include "workloads/fio/fio_units.h"
#include "workloads/fio/thread_stat.h"

namespace storlab::fio {
namespace {

EngineKind ToEngine(const std::string& s) {
  if (s == "sync") return EngineKind::kSync;
  if (s == "libaio") return EngineKind::kLibaio;
  if (s == "io_uring") return EngineKind::kIoUring;
  if (s == "posixaio") return EngineKind::kPosixaio;
  if (s == "null" || s == "cpp_null") return EngineKind::kNull;
  if (s == "io_uring_cmd") return EngineKind::kIoUringCmd;
  if (s == "falloc") return EngineKind::kFalloc;
  if (s == "ftruncate") return EngineKind::kFtruncate;
  if (s == "filecreate") return EngineKind::kFileCreate;
  if (s == "filestat") return EngineKind::kFileStat;
  if (s == "filedelete") return EngineKind::kFileDelete;
  if (s == "vsync") return EngineKind::kVsync;
  if (s == "pvsync") return EngineKind::kPvsync;
  if (s == "pvsync2") return EngineKind::kPvsync2;
  if (s == "mmap") return EngineKind::kMmap;
  if (s == "splice") return EngineKind::kSplice;
  return EngineKind::kPsync;
}

RandGen ToRandGen(const std::string& s) {
  if (s == "lfsr") return RandGen::kLfsr;
  if (s == "tausworthe64") return RandGen::kTausworthe64;
  return RandGen::kTausworthe;
}

// rw=write:112k (bytes skipped after each I/O, may be negative) or
// rw=randread:8 (I/Os per random offset), options.c str_rw_cb.
Status ApplyRwPostfix(JobSpec& j, const std::string& where) {
  const std::string& p = j.opts.rw_postfix;
  if (p.empty()) return Status();
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(where + ": job " + Quoted(j.name) +
                                   ": option 'rw': " + Quoted(j.opts.rw + ":" + p) + ": " + why);
  };
  if (j.random) {
    auto n = ParseFioInt(p);
    if (!n.ok() || *n < 1 || *n > INT32_MAX) {
      return bad("after ':' a random rw takes the number of I/Os per random offset (e.g. 8)");
    }
    j.seq_nr = static_cast<uint32_t>(*n);
    return Status();
  }
  bool negative = p[0] == '-';
  auto n = ParseFioSize(negative ? std::string_view(p).substr(1) : std::string_view(p));
  if (!n.ok() || *n > static_cast<uint64_t>(INT64_MAX)) {
    return bad("after ':' a sequential rw takes the bytes to skip after each I/O (e.g. 64k)");
  }
  j.seq_add = negative ? -static_cast<int64_t>(*n) : static_cast<int64_t>(*n);
  return Status();
}

// The options of engines/sync.c and engines/mmap.c.
Status FixupSyncEngines(JobSpec& j, const std::string& where) {
  const JobOptions& o = j.opts;
  const std::string job = where + ": job " + Quoted(j.name) + ": ";
  // fio_pvsyncio2_queue(): hipri sets RWF_HIPRI on hipri_percentage % of
  // the I/Os: the kernel then polls for the completion rather than taking
  // an interrupt and waking the thread. That happens only for O_DIRECT on
  // a device with poll queues (NVMe's poll_queues, 0 by default; any other
  // I/O completes as without the flag), and the simulated host has no
  // interrupt or wake-up latency for polling to take away, so the flag
  // changes no timing here (the polling thread's busy CPU is not counted,
  // as with sqthread_poll). fio knows hipri with io_uring too: not here.
  bool percentage_given = false;
  for (const auto& e : o.echo) percentage_given |= e.first == "hipri_percentage";
  if ((o.hipri || percentage_given) && j.engine != EngineKind::kPvsync2) {
    return Status::InvalidArgument(job +
                                   "hipri and hipri_percentage are modelled with "
                                   "ioengine=pvsync2 only, not with ioengine=" +
                                   o.ioengine);
  }
  RETURN_IF_ERROR(FixupEngineFlags(j, job));
  // engines/mmap.c: "not really direct": the I/O goes through the mapping
  // (the page cache) and each write is msync'ed (job_runner_engines.cc).
  if (j.engine == EngineKind::kMmap) {
    j.msync_writes = j.direct;
    j.direct = false;
    // fio_mmapio_init(): with direct=1, fsync= or fdatasync=, the smallest
    // block must be a multiple of the page size.
    uint64_t min_bs = UINT64_MAX;
    for (size_t d = 0; d < 2; ++d) min_bs = std::min(min_bs, j.sizes[d].min);
    if ((min_bs & (kMmapPage - 1)) && (o.direct || o.fsync_blocks || o.fdatasync_blocks)) {
      return Status::InvalidArgument(job + "option 'bs': " + std::to_string(min_bs) +
                                     ": mmap options (direct=1, fsync=, fdatasync=) dictate a "
                                     "minimum block size of 4096 bytes");
    }
  }
  return Status();
}

}  // namespace

void SizeFiles(JobSpec& j) {
  const JobOptions& o = j.opts;
  const uint64_t nfiles = j.files.size();
  j.file_size = 0;
  j.io_size = 0;
  if (o.filesize) {
    j.file_size = o.filesize;
    j.io_size = o.size ? o.size : o.filesize * nfiles;
  } else if (o.size && nfiles) {
    j.file_size = o.size / nfiles;
    j.io_size = o.size;
  }
  if (o.io_size) j.io_size = o.io_size;
}

Status FixupJob(JobSpec& j, const std::string& where, std::vector<std::string>* notes) {
  const JobOptions& o = j.opts;
  const std::string& rw = o.rw;
  j.random = rw.rfind("rand", 0) == 0;
  j.do_read = rw == "read" || rw == "randread" || rw == "rw" || rw == "readwrite" || rw == "randrw";
  j.do_write =
      rw == "write" || rw == "randwrite" || rw == "rw" || rw == "readwrite" || rw == "randrw";
  j.do_trim = rw == "trim" || rw == "randtrim" || rw == "trimwrite" || rw == "randtrimwrite";
  j.trim_write = rw == "trimwrite" || rw == "randtrimwrite";
  j.do_write = j.do_write || j.trim_write;
  bool mixed = j.do_read && j.do_write;
  j.rwmixread = mixed ? static_cast<int>(o.rwmixread) : (j.do_read ? 100 : 0);
  for (size_t d = 0; d < 3; ++d) j.sizes[d] = DirBlockSizes::Fixed(o.bs[d]);
  if (!o.bsrange.empty()) {
    Status st = ApplyBsrange(o.bsrange, &j.sizes, o.kb_base == "1000" ? 1000 : 1024);
    if (!st.ok()) return st.WithContext(where + ": job " + Quoted(j.name) + ": option 'bsrange'");
  }
  if (!o.bssplit.empty()) {
    Status st = ApplyBssplit(o.bssplit, &j.sizes, o.kb_base == "1000" ? 1000 : 1024);
    if (!st.ok()) return st.WithContext(where + ": job " + Quoted(j.name) + ": option 'bssplit'");
  }
  // init.c fixup_options: blockalign= applies to random I/O only, and turns
  // the random map off.
  for (size_t d = 0; d < 3; ++d) j.ba[d] = j.random && o.ba[d] ? o.ba[d] : j.sizes[d].min;
  if (j.random && !o.norandommap &&
      (j.ba[0] != j.sizes[0].min || j.ba[1] != j.sizes[1].min ||
       (j.do_trim && j.ba[2] != j.sizes[2].min))) {
    notes->push_back("fio: Any use of blockalign= turns off randommap");
    j.opts.norandommap = true;
  }
  RETURN_IF_ERROR(ApplyRwPostfix(j, where));
  j.engine = ToEngine(o.ioengine);
  j.direct = o.direct || o.atomic;  // fixup_options(): O_ATOMIC implies O_DIRECT
  j.iodepth = static_cast<uint32_t>(o.iodepth);
  // io_submit_mode=offload (rate-submit.c): iodepth workers, each doing
  // one I/O at a time; io_uring refuses (ioengines.c: FIO_NO_OFFLOAD).
  j.offload = o.io_submit_mode == "offload";
  // vsync offloaded: each worker queues one I/O and commits it alone (a
  // readv of one iovec), sync's path.
  if (j.offload && j.engine == EngineKind::kVsync) j.engine = EngineKind::kSync;
  const bool uring = j.engine == EngineKind::kIoUring || j.engine == EngineKind::kIoUringCmd;
  if (j.offload && uring) {
    return Status::InvalidArgument(where + ": job " + Quoted(j.name) + ": " + o.ioengine +
                                   ": can't be used with offloaded submit "
                                   "(io_submit_mode=offload). Use a sync engine");
  }
  // io_uring_cmd (engines/io_uring.c): NVMe passthrough to a namespace's
  // generic char device, past any page cache (its files: job_spec.cc).
  if (j.engine == EngineKind::kIoUringCmd) j.direct = true;
  j.sync_writes =
      (o.sync == "sync" || o.sync == "1" || o.sync == "dsync") && j.engine != EngineKind::kMmap;
  // io_uring and io_uring_cmd's options (engines/io_uring.c).
  const bool uring_opts = o.sqthread_poll || o.registerfiles || o.fixedbufs ||
                          o.sqthread_poll_cpu >= 0 || o.nonvectored >= 0;
  if (uring_opts && !uring) {
    return Status::InvalidArgument(where + ": job " + Quoted(j.name) +
                                   ": sqthread_poll, sqthread_poll_cpu, registerfiles, fixedbufs "
                                   "and nonvectored are options of ioengine=io_uring and "
                                   "io_uring_cmd, not of ioengine=" +
                                   o.ioengine);
  }
  j.sqthread_poll = uring && o.sqthread_poll;
  RETURN_IF_ERROR(FixupSyncEngines(j, where));
  // FIO_SYNCIO engines: sync, psync and the file system engines (engines.h).
  const bool sync_engine = !GetEngineModel(j.engine).async;
  if (sync_engine && j.iodepth > 1) {
    // backend.c prints the note in either mode; inline, a synchronous
    // engine completes each I/O before the next.
    notes->push_back(
        "note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be "
        "capped at 1");
    // vsync queues (fio_vsyncio_queue(): FIO_Q_QUEUED) up to iodepth.
    if (!j.offload && j.engine != EngineKind::kVsync) j.iodepth = 1;
  }
  // init.c fixup_options(): the io_u queueing's defaults and bounds. They
  // matter to engines that queue (ioengines.c td_io_queue(): FIO_Q_QUEUED);
  // a synchronous engine completes each I/O in its queue call.
  {
    const int64_t depth = o.iodepth;
    int64_t low = o.iodepth_low, batch = o.iodepth_batch;
    int64_t cmin = o.iodepth_batch_complete_min, cmax = o.iodepth_batch_complete_max;
    if (low > depth || !low) low = depth;
    if (batch > depth || !batch) batch = depth;
    if (cmin > cmax) cmax = cmin;
    JobSpec::Queueing& q = j.queueing;
    q.batch = static_cast<uint32_t>(batch);
    q.complete_min = static_cast<uint32_t>(cmin);
    q.complete_max = static_cast<uint32_t>(cmax);
    q.low = static_cast<uint32_t>(low);
    const bool queues = !sync_engine;
    q.batching = queues && !j.offload && (batch != 1 || cmin != 1 || cmax != 1 || low != depth);
    // vsync always queues and commits (job_runner_vsync.cc).
    if (j.engine == EngineKind::kVsync && !j.offload) q.batching = true;
    q.polling = q.batching && !cmin && !cmax;
  }
  // engines/libaio.c fio_libaio_getevents(): userspace_reap reads the ring
  // (user_io_getevents()) only when asked for at least 0 events.
  if (o.userspace_reap && j.engine != EngineKind::kLibaio) {
    return Status::InvalidArgument(where + ": job " + Quoted(j.name) +
                                   ": userspace_reap is an option of ioengine=libaio, not of "
                                   "ioengine=" +
                                   o.ioengine);
  }
  j.user_reap = o.userspace_reap && j.queueing.complete_min == 0;
  // cmdprio_*: options of the libaio and io_uring engines
  // (engines/cmdprio.c); fio knows them only with one of those.
  const bool cmdprio = !o.cmdprio_percentage.empty() || !o.cmdprio_class.empty() ||
                       !o.cmdprio.empty() || !o.cmdprio_bssplit.empty();
  if (cmdprio && j.engine != EngineKind::kLibaio && !uring) {
    return Status::InvalidArgument(where + ": job " + Quoted(j.name) +
                                   ": cmdprio_percentage, cmdprio_class, cmdprio and "
                                   "cmdprio_bssplit are options of ioengine=libaio and io_uring, "
                                   "not of ioengine=" +
                                   o.ioengine);
  }
  ASSIGN_OR_RETURN(j.cmdprio, CmdPrio::Make(o, j.do_read, j.do_write, where));
  // init.c fixup_options(): the dedupe working set's checks.
  if (o.dedupe_percentage && o.dedupe_mode == "working_set") {
    const std::string job = where + ": job " + Quoted(j.name) + ": dedupe_mode=working_set: ";
    if (!o.size && !o.size_percent) {
      return Status::InvalidArgument(job + "the pregenerated working set needs size=");
    }
    if (o.nrfiles != 1) {
      return Status::InvalidArgument(
          job + "works with a single file per job, not nrfiles=" + std::to_string(o.nrfiles));
    }
    if (o.dedupe_working_set_percentage + o.dedupe_percentage > 100) {
      return Status::InvalidArgument(
          job + "dedupe_percentage=" + std::to_string(o.dedupe_percentage) +
          " cannot be reached with dedupe_working_set_percentage=" +
          std::to_string(o.dedupe_working_set_percentage) + " (unique pages): more than 100");
    }
  }
  // init.c fixup_options(): zonesize needs zonemode=strided and the other
  // way round; zonerange defaults to zonesize; strided zones work with one
  // file only (the runner ignores them with more, silently, as fio).
  if (o.zonemode == "strided" && !o.zonesize) {
    return Status::InvalidArgument(where + ": job " + Quoted(j.name) +
                                   ": zonesize= must be given with zonemode=strided");
  }
  if (o.zonemode == "none" && o.zonesize) {
    return Status::InvalidArgument(where + ": job " + Quoted(j.name) +
                                   ": zonemode=none and zonesize= are not compatible (fio's "
                                   "zones need zonemode=strided)");
  }
  if (o.zonemode == "strided") {
    j.zones = {
        .size = o.zonesize, .range = o.zonerange ? o.zonerange : o.zonesize, .skip = o.zoneskip};
  }
  if (!o.buffer_pattern.empty()) {
    auto pat = ParseFioPattern(o.buffer_pattern);
    if (!pat.ok()) {
      return pat.status().WithContext(where + ": job " + Quoted(j.name) +
                                      ": option 'buffer_pattern'");
    }
    j.buffer_pattern = std::move(*pat);
  }
  // gtod_reduce=1 (options.c str_gtod_reduce_cb) and what each disable_*
  // does to the percentiles (init.c fixup_options).
  if (o.gtod_reduce) {
    j.opts.disable_lat = j.opts.disable_clat = j.opts.disable_slat = j.opts.disable_bw = true;
  }
  if (j.opts.disable_lat) j.opts.lat_percentiles = false;
  if (j.opts.disable_clat) j.opts.clat_percentiles = false;
  if (j.opts.disable_slat) j.opts.slat_percentiles = false;
  j.rand_gen = ToRandGen(o.random_generator);
  auto dist = ParseRandDist(o.random_distribution);
  if (!dist.ok()) return dist.status().WithContext(where + ": job " + Quoted(j.name));
  j.rand_dist = *dist;
  auto service = ParseFileService(o.file_service_type);
  if (!service.ok()) return service.status().WithContext(where + ": job " + Quoted(j.name));
  j.file_service = *service;
  // init.c fixup_options: a distribution other than uniform has no random
  // map (its hot blocks repeat).
  if (j.rand_dist.kind != RandDist::Kind::kRandom) j.opts.norandommap = true;
  // init.c fixup_options(): time_based without a runtime is a warning
  // (fatal only with warnings_fatal) and time_based is turned off.
  if (o.time_based && o.runtime == Nanos(0)) {
    notes->push_back("fio: time_based requires a runtime/timeout setting");
    j.opts.time_based = false;
  }
  if (o.fsync_blocks && o.fdatasync_blocks) {
    return Status::InvalidArgument(where + ": job " + Quoted(j.name) +
                                   ": fsync= and fdatasync= cannot both be set");
  }
  if (o.rate[0] && o.rate_iops[0]) {
    return Status::InvalidArgument(where + ": job " + Quoted(j.name) +
                                   ": rate= and rate_iops= cannot both be set");
  }
  // Trim verify in a job that writes but does not trim: fio 3.33 aborts at
  // the first trim of its list (fio.h fio_ro_check(): a trim asserts td_trim()).
  if (o.trim_percentage && o.trim_backlog && o.verify != "0" && o.do_verify && j.do_write &&
      !j.do_trim) {
    return Status::InvalidArgument(
        where + ": job " + Quoted(j.name) + ": trim_percentage with trim_backlog trims blocks " +
        "of a job that does not trim (rw=" + o.rw +
        "): real fio 3.33 aborts at its first such trim (fio.h fio_ro_check() assertion); use " +
        "rw=trimwrite or randtrimwrite");
  }
  return Status();
}

// init.c fixup_options(): with verify=, verify_interval defaults to the
// smallest write when write sizes vary, is at most the smallest write (or
// read) size, and must divide the smallest and largest write sizes (their
// gcd otherwise). verify.c get_hdr_inc(): bs_unaligned sizes take one
// header per I/O.
void FixupVerify(JobSpec& j) {
  if (j.verify == VerifyKind::kNone) return;
  const uint64_t wmin = j.sizes[1].min, wmax = j.sizes[1].max;  // writes
  uint64_t vi = j.opts.verify_interval;
  if (wmax != wmin && !vi) vi = wmin;
  if (vi > wmin) {
    vi = wmin;
  } else if (j.do_read && vi > j.sizes[0].min) {
    vi = j.sizes[0].min;
  }
  if (!vi || wmin % vi || wmax % vi) vi = std::gcd(wmin, wmax);
  j.verify_interval = j.opts.bs_unaligned ? 0 : vi;
}

// verify.c populate_hdr(): memswp(p, p + verify_offset, hdr_size) in each
// header's block (verify_interval, or the I/O). Past the block's end real
// fio 3.33 swaps bytes beyond it (a 4k block with verify_offset=4090:
// "verify: bad header offset" at the verify pass); here that is an error.
Status CheckVerifyOffset(const JobSpec& j, const std::string& where) {
  const auto vo = static_cast<uint64_t>(j.opts.verify_offset);
  const uint64_t hs = VerifyHeaderSize(j.verify);
  if (!vo || j.verify == VerifyKind::kNone || j.verify == VerifyKind::kNull || !hs) return Status();
  const uint64_t block = j.verify_interval ? j.verify_interval : j.sizes[kWrite].min;
  if (vo + hs <= block) return Status();
  return Status::InvalidArgument(
      where + ": job " + Quoted(j.name) + ": option 'verify_offset': " + std::to_string(vo) +
      " + the " + std::to_string(hs) + "-byte verify header is past the end of a " +
      std::to_string(block) + "-byte block (real fio 3.33 swaps it with bytes beyond the block)");
}

}  // namespace storlab::fio
