// JobRunner's life (job_runner.h): setup, start, ramp_time, draining and
// the final figures. The I/O path is in job_runner_io.cc, the end of I/O
// and end_fsync in job_runner_end.cc, the bandwidth and IOPS sample
// windows and rate_min in job_runner_samples.cc.
#include "workloads/fio/job_runner.h"

#include <algorithm>
#include <string>

#include "sim/profile/units.h"
#include "sim/quoted.h"
#include "workloads/fio/rand_dist_gen.h"

namespace storlab::fio {
namespace {

using namespace time_literals;

// log_unix_epoch / log_alternate_epoch (time.c set_epoch_time(), at the
// job's epoch and again at reset_all_stats()): the logs' times count from
// the clock's epoch. Every clock of the simulated host (any
// log_alternate_epoch_clock_id) reads the simulated time, which starts at
// the Unix epoch as the report's "timestamp" does.
void SetLogEpoch(JobLogs* logs, const JobOptions& o, Nanos now) {
  if (logs && (o.log_unix_epoch || o.log_alternate_epoch)) {
    logs->SetEpochMs(static_cast<uint64_t>(now.count() / 1000000));
  }
}

// fio's runtime: microseconds elapsed, rounded up to milliseconds
// (backend.c update_runtime()).
uint64_t RuntimeMs(Nanos elapsed) {
  uint64_t us = static_cast<uint64_t>(elapsed.count()) / 1000;
  return (us + 999) / 1000;
}

}  // namespace

JobRunner::JobRunner(SimHost& host, const JobSpec& spec, const std::vector<uint32_t>& file_ids,
                     const std::vector<uint64_t>& file_sizes,
                     const std::vector<uint64_t>& file_offsets, uint64_t io_size)
    : host_(host),
      spec_(spec),
      eng_(GetEngineModel(spec.engine)),
      psync_(GetEngineModel(EngineKind::kPsync)),
      io_size_(io_size),
      mix_rng_(spec.rand_seed ^ 0x6d6978ULL),
      poisson_rng_(spec.rand_seed ^ 0x706f6973ULL),
      prio_rng_(spec.rand_seed ^ 0x7072696fULL),
      seq_rand_rng_{Taus88(spec.rand_seed ^ 0x73720ULL), Taus88(spec.rand_seed ^ 0x73721ULL),
                    Taus88(spec.rand_seed ^ 0x73722ULL)},
      file_rng_(spec.rand_seed ^ 0x66737276ULL) {
  for (int d : {kRead, kWrite, kTrim}) {
    if (!spec.sizes[d].variable()) continue;
    // fio seeds bsrange_state[ddir] from its own seed (FIO_RAND_BS_OFF).
    buflen_[d] = std::make_unique<BuflenPicker>(spec.sizes[d], spec.opts.bs_unaligned,
                                                spec.rand_seed ^ (0x627372ULL + d));
  }
  seq_left_ = 1;  // the first I/O takes a random offset (init.c: "initialized to 1")
  InitFiles(file_ids, file_sizes, file_offsets);
  if (spec.opts.block_error_percentiles && !files_.empty()) SetUpBlockInfos();
  units_.resize(spec.iodepth);
  for (auto& u : units_) {
    u.job = this;
    free_.push_back(&u);
  }
  // Writes carry fio's bytes when the run keeps data or the stack's timing
  // depends on them (ZFS compression); reads fill them only with data kept.
  // With verify=, writes carry verify's own data (VerifyFill, over random
  // bytes: verify.c fill_verify_pattern), whatever fill_io_buffer would do.
  if (host.writes_carry_data()) {
    bufs_ = IoBuffers(units_.size(), std::max(spec.max_bs(kRead), spec.max_bs(kWrite)),
                      spec.rand_seed, spec.verify == VerifyKind::kNone ? spec.fill : BufferFill{});
  }
  if (host.keeps_data()) {
    vlog_.unit.resize(units_.size());
    vlog_.piece.resize(units_.size());
    // trim verify: log_io_piece() draws for the trim list when the job
    // verifies what it wrote (backend.c do_io(): td->o.do_verify).
    if (spec.opts.do_verify && !spec.opts.experimental_verify) {
      vlog_.trims.Configure(spec.rand_seed ^ 0x7472696dULL, spec.opts.trim_percentage,
                            spec.opts.trim_backlog, spec.opts.trim_backlog_batch);
    }
  }
  ts_.name = spec.name;
  ts_.description = spec.opts.description;
  ts_.groupid = spec.groupid;
  ts_.members = 1;
  ts_.latency_depth = static_cast<uint32_t>(spec.opts.iodepth);
  logs_ = JobLogs::Make(spec.opts, spec.name, spec.thread_number);
  if (!spec.opts.write_iolog.empty()) iolog_ = std::make_unique<IologWriter>(spec.opts.write_iolog);
  // A replay ends with its trace, not after io_size bytes.
  if (spec.trace) io_size_ = UINT64_MAX;
  // fio's bw_avg_time / iops_avg_time (bwavgtime=, iopsavgtime=; 500 ms);
  // a log that averages gives them its window unless they were given
  // (init.c setup_log()).
  bw_avg_ = Nanos(spec.opts.bwavgtime * 1000000);
  iops_avg_ = Nanos(spec.opts.iopsavgtime * 1000000);
  if (logs_) {
    if (logs_->bw_window_ms() && !spec.opts.bwavgtime_set)
      bw_avg_ = Nanos(static_cast<int64_t>(logs_->bw_window_ms()) * 1000000);
    if (logs_->iops_window_ms() && !spec.opts.iopsavgtime_set)
      iops_avg_ = Nanos(static_cast<int64_t>(logs_->iops_window_ms()) * 1000000);
    bw_windows_ = !logs_->bw_per_io();
    iops_windows_ = !logs_->iops_per_io();
  }
  ts_.continue_on_error = spec.opts.errors.continue_mask;
  if (spec.opts.latency_target > Nanos(0)) {
    lat_target_ = std::make_unique<LatencyTarget>(
        LatencyTarget::Config{.target_ns = static_cast<uint64_t>(spec.opts.latency_target.count()),
                              .window = spec.opts.latency_window,
                              .percentile = spec.opts.latency_percentile.at(0),
                              .keep_running = spec.opts.latency_run,
                              .iodepth = spec.iodepth});
    ts_.latency_target = static_cast<uint64_t>(spec.opts.latency_target.count());
    ts_.latency_window = static_cast<uint64_t>(spec.opts.latency_window.count() / 1000);
    ts_.latency_percentile = spec.opts.latency_percentile.at(0);
  }
  ts_.clat_percentiles = spec.opts.clat_percentiles;
  ts_.lat_percentiles = spec.opts.lat_percentiles;
  ts_.slat_percentiles = spec.opts.slat_percentiles;
  if (!spec.opts.percentile_list.empty()) {
    // fio's calc_clat_percentiles(): the list ends at its first 0, sorted.
    const auto& l = spec.opts.percentile_list;
    ts_.percentile_list.assign(l.begin(), std::find(l.begin(), l.end(), 0.0));
    std::sort(ts_.percentile_list.begin(), ts_.percentile_list.end());
    ts_.percentile_precision = static_cast<int>(spec.opts.percentile_precision);
  }
  // engines/cmdprio.c: latencies per priority, in the directions the job does.
  const bool does[2] = {spec.do_read, spec.do_write};
  for (int d : {kRead, kWrite}) {
    if (!does[d]) continue;
    for (uint32_t p : spec.cmdprio.StatPrios(d))
      ts_.dir[d].prios.push_back({.ioprio = p, .lat = {}});
  }
}

JobRunner::~JobRunner() = default;

void JobRunner::InitFiles(const std::vector<uint32_t>& file_ids,
                          const std::vector<uint64_t>& file_sizes,
                          const std::vector<uint64_t>& file_offsets) {
  const JobSpec& spec = spec_;
  // Random offsets are in units of blockalign= (by default the smallest
  // size, fio's rw_min_bs), and leave room for the largest smallest size at
  // the end.
  // Over the directions the job uses (fio's td_min_bs and rw_min_bs).
  const bool uses[3] = {spec.do_read, spec.do_write, spec.do_trim};
  granule_ = UINT64_MAX;
  uint64_t max_bs = 0;
  for (int d : {kRead, kWrite, kTrim}) {
    if (!uses[d]) continue;
    granule_ = std::min(granule_, spec.ba[d]);
    max_bs = std::max(max_bs, spec.sizes[d].min);
  }
  // io_u.c get_rand_file_blocks(): strided zones draw within zonerange.
  zoned_ = spec.zones.size && file_ids.size() == 1;
  files_.clear();
  for (size_t i = 0; i < file_ids.size(); ++i) {
    FileState f;
    f.id = file_ids[i];
    f.size = file_sizes[i];
    f.start = f.zone_start = std::min(file_offsets[i], f.size);
    f.pos[0] = f.pos[1] = f.pos[2] = f.start;
    if (spec.random) {
      const uint64_t region = f.size - f.start;
      const uint64_t span = zoned_ ? std::min(spec.zones.range, region) : region;
      uint64_t blocks = span >= max_bs ? (span - max_bs) / granule_ + 1 : 0;
      f.picker = std::make_unique<RandomPicker>(blocks, spec.rand_gen, !spec.opts.norandommap,
                                                spec.rand_seed + i);
      if (spec.rand_dist.kind != RandDist::Kind::kRandom && blocks) {
        f.picker->SetDistribution(std::make_unique<RandDistGen>(
            spec.rand_dist, blocks, granule_, (spec.rand_seed + i) ^ 0x64697374ULL));
      }
    }
    if (eng_.per_fd_worker || eng_.buffered_write_serial) f.queue.resize(spec.iodepth + 1);
    files_.push_back(std::move(f));
  }
  // backend.c init_file_completion_logging(): with verify= and
  // verify_state_save, each file keeps its last iodepth writes.
  if (spec.verify != VerifyKind::kNone && spec.opts.verify_state_save) {
    vlog_.write_comps.assign(files_.size(), std::vector<uint64_t>(spec.iodepth, 0));
    vlog_.write_comp_idx.assign(files_.size(), 0);
  }
  open_limit_ = OpenLimit(spec, files_.size());
  // init.c: zipf/pareto/gauss over nrfiles << FIO_FSERVICE_SHIFT ranges,
  // unhashed (zipf_disable_hash(), gauss_disable_hash()).
  if (spec.file_service.kind == FileService::Kind::kDist && !files_.empty()) {
    file_dist_ = std::make_unique<RandDistGen>(spec.file_service.dist,
                                               uint64_t{files_.size()} << FileService::kShift, 1,
                                               spec.rand_seed ^ 0x66647374ULL);
    file_dist_->DisableHash();
  }
}

void JobRunner::SetFiles(const std::vector<uint32_t>& file_ids,
                         const std::vector<uint64_t>& file_sizes,
                         const std::vector<uint64_t>& file_offsets, uint64_t io_size) {
  InitFiles(file_ids, file_sizes, file_offsets);
  if (!spec_.trace) io_size_ = io_size;
  if (spec_.opts.block_error_percentiles && !files_.empty()) SetUpBlockInfos();
}

Nanos JobRunner::Book(Nanos t, Nanos d) { return host_.cpu().Run(t, d, &spec_.cpus); }

void JobRunner::Start(Nanos t, Callback<void()> on_done) {
  on_done_ = std::move(on_done);
  // Ended before it started (exitall): it starts, and ends, now.
  host_.engine().At(terminated_ ? host_.engine().now() : t + spec_.opts.startdelay,
                    [this] { Begin(); });
}

void JobRunner::Terminate() {
  if (terminated_ || phase_ == Phase::kDone) return;
  terminated_ = true;
  if (phase_ == Phase::kRunning) StopIssuing();
  // Waiting for its startdelay: it starts (and ends) now.
  if (phase_ == Phase::kIdle && on_done_)
    host_.engine().At(host_.engine().now(), [this] { Begin(); });
}

void JobRunner::FailSetup(int err, std::string verror) {
  failed_ = true;
  setup_failed_ = true;
  ts_.error = err;
  ts_.verror = std::move(verror);
}

JobRunner::RunState JobRunner::run_state() const {
  switch (phase_) {
    case Phase::kIdle:
      return RunState::kNotCreated;
    case Phase::kRunning:
    case Phase::kDraining:
      if (!ramp_over_) return RunState::kRamp;
      return verifying_ ? RunState::kVerifying : RunState::kRunning;
    case Phase::kFsyncing:
      return RunState::kFsyncing;
    case Phase::kDone:
      break;
  }
  return RunState::kReaped;
}

uint64_t JobRunner::total_io_size() const {
  if (io_size_ == UINT64_MAX) return 0;  // a trace: fio knows no total
  return io_size_ * static_cast<uint64_t>(std::max<int64_t>(1, spec_.opts.loops));
}

void JobRunner::Begin() {
  if (phase_ != Phase::kIdle) return;  // Terminate() started it already
  PinMemory();  // thread_main(): fio_pin_memory(), before pre_read and the I/O
  // pre_read: the files are read first, then the job begins (its epoch
  // after them, as thread_main() sets it after pre_read_files()).
  if (spec_.opts.pre_read && pre_read_state_ != 2 && !failed_ && !terminated_ && !eng_.no_io) {
    if (pre_read_state_ == 0) {
      pre_read_state_ = 1;
      PreRead(0, 0, host_.engine().now());
    }
    return;
  }
  Nanos now = host_.engine().now();
  phase_ = Phase::kRunning;
  extras_.start = now;
  epoch_ = now;
  SetLogEpoch(logs_.get(), spec_.opts, now);
  thread_free_ = now;
  next_bw_sample_ = now + bw_avg_;
  next_iops_sample_ = now + iops_avg_;
  ramp_over_ = spec_.opts.ramp_time == Nanos(0);
  if (!ramp_over_) host_.engine().At(now + spec_.opts.ramp_time, [this] { OnRampEnd(); });
  extras_.epoch = epoch_;
  extras_.passes = 1;
  if (lat_target_) lat_target_->Reset(now, 0);  // lat_target_init()
  replay_last_issue_ = now;
  last_think_ = now;  // init_thinktime(): td->epoch
  if (iolog_) IologOpen();
  Pump();
}

void JobRunner::OnRampEnd() {
  if (phase_ != Phase::kRunning && phase_ != Phase::kDraining) return;
  ramp_over_ = true;
  ResetStats(host_.engine().now());
  Pump();
}

// fio's reset_all_stats(): counters, latencies and the epoch start over
// (the end of ramp_time; latency_target's final run).
void JobRunner::ResetStats(Nanos now) {
  epoch_ = now;
  SetLogEpoch(logs_.get(), spec_.opts, now);
  extras_.epoch = now;
  ts_.ResetIo();
  for (int d = 0; d < 3; ++d) {
    done_bytes_[d] = done_ios_[d] = check_bytes_[d] = check_ios_[d] = 0;
    issued_bytes_[d] = issued_ios_[d] = poisson_usec_[d] = win_bytes_[d] = win_ios_[d] = 0;
    think_bytes_[d] = 0;
  }
  next_bw_sample_ = now + bw_avg_;
  next_iops_sample_ = now + iops_avg_;
  usr_ns_ = sys_ns_ = Nanos(0);
  if (lat_target_) lat_target_->Reset(now, 0);  // lat_target_reset()
}

void JobRunner::StopIssuing() {
  if (phase_ != Phase::kRunning) return;
  phase_ = Phase::kDraining;
  if (overlap_held_) {  // serialize_overlap: fio frees a requeued I/O at the end
    free_.push_back(overlap_held_);
    overlap_held_ = nullptr;
  }
  if (cur_depth_ == 0) {
    Nanos t = Max(host_.engine().now(), thread_free_);
    // Finish from an event, never from inside a completion's Pump.
    host_.engine().At(t, [this, t] { FinishIo(t); });
  }
}

// fio prints an empty report for a job that counted no I/O; say why.
std::string JobRunner::NoIoReason() const {
  const JobOptions& o = spec_.opts;
  std::string why;
  if (o.ramp_time > Nanos(0) && extras_.epoch > extras_.start) {
    why = "after ramp_time=" + FormatDuration(o.ramp_time) + " (whose I/O fio does not count)";
  } else {
    why = "from its start";
  }
  why += ", its " + (o.runtime > Nanos(0) ? "runtime=" + FormatDuration(o.runtime) : "run") +
         " ended before it issued an I/O";
  if (o.thinktime > Nanos(0)) why += " (thinktime=" + FormatDuration(o.thinktime) + ")";
  if (o.rate[kRead] || o.rate[kWrite] || o.rate_iops[kRead] || o.rate_iops[kWrite]) {
    why += " (rate limits)";
  }
  return "storlab sim: job " + Quoted(spec_.name) + " completed no I/O: " + why;
}

void JobRunner::Finish(Nanos t) {
  if (StartVerify(t)) return;
  UnpinMemory();  // thread_main(): fio_unpin_memory() as the thread ends
  SaveVerifyState();
  Nanos elapsed = t - epoch_;
  while (bw_windows_ && next_bw_sample_ < t) CloseBwWindow();
  while (iops_windows_ && next_iops_sample_ < t) CloseIopsWindow();
  if (logs_) logs_->Finish(static_cast<uint64_t>(elapsed.count() / 1000000));
  if (iolog_) IologClose(t);
  for (int d = 0; d < 3; ++d) {
    if (ts_.dir[d].io_bytes) ts_.dir[d].runtime_ms = RuntimeMs(elapsed);
  }
  // thread_main(): the writes' runtime ends where do_verify() starts; the
  // verify pass's reads get their own.
  if (verifying_) {
    // update_runtime(): verify_only's dry run has no write runtime.
    ts_.dir[kWrite].runtime_ms = spec_.opts.verify_only ? 0 : RuntimeMs(verify_start_ - epoch_);
    if (ts_.dir[kRead].io_bytes) ts_.dir[kRead].runtime_ms = RuntimeMs(t - verify_start_);
  }
  ts_.total_run_time_ms = static_cast<uint64_t>(elapsed.count() / 1000000);
  if (lat_target_) ts_.latency_depth = lat_target_->depth();  // fio's td->latency_qd
  ts_.usr_time_ms = static_cast<uint64_t>(usr_ns_.count() / 1000000);
  ts_.sys_time_ms = static_cast<uint64_t>(sys_ns_.count() / 1000000);
  extras_.end = t;
  if (spec_.opts.unlink) UnlinkFiles();
  if (!failed_ && !spec_.opts.create_only && !ts_.total_err_count &&
      ts_.dir[kRead].io_bytes + ts_.dir[kWrite].io_bytes + ts_.dir[kTrim].io_bytes == 0) {
    messages_.push_back(NoIoReason());
  }
  // The thread exits at `t`: let the clock reach it before reporting done.
  host_.engine().At(t, [this] {
    phase_ = Phase::kDone;
    // backend.c reap_threads(): flow_exit_job().
    if (flow_) flow_->Leave(flow_count_, static_cast<uint64_t>(spec_.opts.flow));
    if (on_done_) on_done_();
  });
}

}  // namespace storlab::fio
