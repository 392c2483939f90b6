// JobRunner: one fio job (one clone) running in virtual time, the way fio's
// do_io() runs it: it keeps up to iodepth I/Os in flight through its engine
// (engines.h), picks offsets (offset_gen.h), honours rate/rate_iops,
// thinktime, fsync=/fdatasync=, ramp_time, runtime and time_based, drains
// what is in flight when the time is up, and runs end_fsync INSIDE the
// measured runtime (fio backend.c: the fsync is part of do_io(), and the
// runtime is taken after it).
//
// The job's thread is modelled as a sequence of CPU bursts booked on the
// host's cores (cpu_pool.h): fio's own work per I/O, the submitting call,
// reaping. Statistics follow fio's: slat (async engines), clat (issue to
// reap), lat (start to reap), bandwidth and IOPS samples every 500 ms,
// depth histograms, latency buckets.
//
// Not thread-safe; lives on the engine's thread. The host and spec must
// outlive it.
#ifndef STORLAB_WORKLOADS_FIO_JOB_RUNNER_H_
#define STORLAB_WORKLOADS_FIO_JOB_RUNNER_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sim/callback.h"
#include "sim/status.h"
#include "sim/time.h"
#include "workloads/fio/block_sizes.h"
#include "workloads/fio/engines.h"
#include "workloads/fio/file_locks.h"
#include "workloads/fio/flow.h"
#include "workloads/fio/io_buffers.h"
#include "workloads/fio/iolog_write.h"
#include "workloads/fio/job_logs.h"
#include "workloads/fio/job_spec.h"
#include "workloads/fio/latency_target.h"
#include "workloads/fio/offset_gen.h"
#include "workloads/fio/rand_dist_gen.h"
#include "workloads/fio/thread_stat.h"
#include "workloads/fio/verify.h"
#include "workloads/fio/verify_log.h"
#include "workloads/host/sim_host.h"

namespace storlab::fio {

class JobRunner {
 public:
  // What the runner reports beyond fio's figures (the "storlab" object).
  struct Extras {
    Nanos start;          // job start (after startdelay)
    Nanos epoch;          // measurement start (after ramp_time)
    Nanos io_end;         // last I/O reaped, before end_fsync
    Nanos end;            // job done (after end_fsync)
    Nanos end_fsync;      // time spent in end_fsync
    uint64_t passes = 0;  // times the job went over its files
  };

  // `file_offsets`: where the job's I/O in each file starts (fio's
  // f->file_offset, get_start_offset()).
  JobRunner(SimHost& host, const JobSpec& spec, const std::vector<uint32_t>& file_ids,
            const std::vector<uint64_t>& file_sizes, const std::vector<uint64_t>& file_offsets,
            uint64_t io_size);
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;
  ~JobRunner();

  // Starts the job at `t` + startdelay; `on_done` runs when it has finished.
  void Start(Nanos t, Callback<void()> on_done);
  bool done() const { return phase_ == Phase::kDone; }
  bool running() const { return phase_ != Phase::kIdle && phase_ != Phase::kDone; }
  // The job ended in error (fio's td->error).
  bool failed() const { return failed_; }
  // fio's fio_mark_td_terminate(): a running job stops issuing and drains
  // what is in flight; a job not started yet ends as soon as it starts,
  // without I/O and without its startdelay.
  void Terminate();
  // fio's setup_files() failed for this job (a file could not be laid
  // out): it starts, does no I/O and ends with error `err` ("file:...,
  // func=..., error=..." in `verror`), as fio's thread_main() does; fio's
  // exit status is 1 then even when the error is 0 (allow_file_create=0).
  void FailSetup(int err, std::string verror);
  bool setup_failed() const { return setup_failed_; }
  // create_serialize=0: the job's files, set up when its segment starts
  // (fio_run_setup.cc). REQUIRES: the job has not begun.
  void SetFiles(const std::vector<uint32_t>& file_ids, const std::vector<uint64_t>& file_sizes,
                const std::vector<uint64_t>& file_offsets, uint64_t io_size);

  const JobSpec& spec() const { return spec_; }
  ThreadStat& stat() { return ts_; }
  const ThreadStat& stat() const { return ts_; }
  const Extras& extras() const { return extras_; }
  // The job's fio logs (write_bw_log, ...); nullptr when it writes none.
  const JobLogs* logs() const { return logs_.get(); }
  // write_iolog's recording; nullptr when the job has none.
  const IologWriter* iolog() const { return iolog_.get(); }
  // steadystate.c: bytes, I/Os since the epoch, in ramp_time (TD_RAMP).
  uint64_t bytes_done() const { return done_bytes_[0] + done_bytes_[1] + done_bytes_[2]; }
  uint64_t ios_done() const { return done_ios_[0] + done_ios_[1] + done_ios_[2]; }
  bool ramping() const { return !ramp_over_; }
  // What eta.c reads (workloads/fio/eta.h): the job's runstate, as
  // check_str_update() and thread_eta() tell them apart (fio's TD_*), its
  // io_bytes / io_blocks per direction since the epoch, fio's
  // total_io_size (io_size × loops; 0 for a replayed trace) and the files
  // it holds open.
  enum class RunState { kNotCreated, kRamp, kRunning, kVerifying, kFsyncing, kReaped };
  RunState run_state() const;
  uint64_t bytes_done(int dir) const { return done_bytes_[dir]; }
  uint64_t ios_done(int dir) const { return done_ios_[dir]; }
  uint64_t total_io_size() const;
  size_t files_open() const { return files_.size(); }
  // flow= (flow.h): the flow it joined, asked before each I/O; lockfile's locks.
  void SetFlow(Flow* flow) { flow_ = flow; }
  void SetFileLocks(FileLocks* locks) { locks_ = locks; }
  const std::vector<std::string>& messages() const { return messages_; }      // fio's stderr
  const std::vector<VerifyDumpFile>& verify_dumps() const { return dumps_; }  // verify_dump
  // verify_state_save's file (empty: none); verify_state_load (verify_state.h).
  const std::vector<uint8_t>& verify_state_file() const { return vlog_.saved; }
  void LoadVerifyState(VerifyState s);

 private:
  enum class Phase { kIdle, kRunning, kDraining, kFsyncing, kDone };
  // A trim's status on a file not under /dev/ (ENOTTY: job_runner_trim.cc).
  static constexpr std::string_view kTrimNotBlock = "BLKDISCARD on a regular file";
  static constexpr int kSync = 3;  // IoUnit::dir for fsync/fdatasync (fio's DDIR_SYNC)

  struct IoUnit {
    JobRunner* job;
    uint32_t file;       // index into files_
    uint8_t dir;         // kRead, kWrite, kTrim or kSync
    bool blocks_thread;  // the thread waits for it
    bool submit_blocks;  // libaio buffered: the I/O happens in io_submit
    uint64_t offset;
    uint64_t length;
    uint32_t ioprio = 0;      // io_u->ioprio (cmdprio.h)
    bool ver_list = false;    // a verify read of a block written (fio's IO_U_F_VER_LIST)
    bool in_flight = false;   // queued to the engine, not reaped (fio's IO_U_F_FLIGHT)
    bool locked = false;      // holds its file's lock (lockfile=exclusive)
    bool sync_range = false;  // kSync: sync_file_range(), not fsync
    Nanos start;              // fio's start_time
    Nanos issue;              // fio's issue_time
    Nanos arrival;            // reaches the stack (or the fd queue)
  };
  struct FileState {
    uint32_t id;              // ExtentFs id
    uint64_t size;            // where its I/O ends (the file's end)
    uint64_t start;           // where its I/O starts (fio's get_start_offset())
    uint64_t zone_start = 0;  // fio's f->file_offset: start, moved by zonemode=strided
    std::unique_ptr<RandomPicker> picker;
    uint64_t pos[3] = {0, 0, 0};
    bool exhausted = false;
    bool opened = false;  // open in this pass (io_u.c get_next_file_rr(), openfiles=)
    uint64_t first_write = UINT64_MAX, last_write = 0;  // written (file_log_write_comp())
    // posixaio's helper thread for this fd, or io-wq's per-inode chain.
    std::vector<IoUnit*> queue;  // FIFO (ring)
    size_t q_head = 0, q_size = 0;
    bool worker_busy = false;
    Nanos worker_free;
    // mmap: the fault-around windows mapped for reading, the pages mapped
    // writable (job_runner_engines.cc); empty until the first I/O.
    std::vector<bool> map_read, map_write, map_private;  // map_private: thp's copies
  };

  void InitFiles(const std::vector<uint32_t>& file_ids, const std::vector<uint64_t>& file_sizes,
                 const std::vector<uint64_t>& file_offsets);
  void Begin();
  void OnRampEnd();
  void Pump();
  bool ShouldStop(Nanos t) const;
  bool PickOffset(int dir, IoUnit* u);
  size_t ServiceFile(bool* stay);
  size_t DrawFile();
  void StridedZone(int dir);
  void RestartFiles();
  void Issue(int dir, Nanos t, bool sync_range = false);
  void Launch(IoUnit* u, Nanos t);
  bool OverlapHold(IoUnit* u);  // serialize_overlap (job_runner_overlap.cc)
  bool OverlapsInFlight(const IoUnit& u) const;
  bool LaunchHeld(Nanos t);
  void Dispatch(IoUnit* u);
  void StartWorker(FileState& f, Nanos t);
  void SubmitNow(IoUnit* u);
  void OnStackDone(IoUnit* u, Status st);
  void LockGranted(IoUnit* u);
  void Reap(IoUnit* u, const Status& st, Nanos visible);
  void Account(int dir, uint64_t bytes, Nanos t);
  void CloseBwWindow();
  void CloseIopsWindow();
  void LogIo(const IoUnit& u, Nanos reap, uint64_t clat_ns, uint64_t lat_ns);
  void SleepUntil(Nanos t);
  bool ThinkDue(Nanos t) const;
  void Think(Nanos t);
  void RateSkipThink(Nanos thought);
  void PoissonNext(int dir);
  // latency_target (job_runner_latency.cc, latency_target.h).
  uint32_t DepthLimit() const { return lat_target_ ? lat_target_->depth() : spec_.iodepth; }
  void LatencyTargetHit(const IoUnit& u, uint64_t lat_ns, Nanos t);
  void LatencyTargetAct(LatencyTarget::Action a);
  void LatencyFatal(const IoUnit& u, uint64_t lat_ns, uint64_t max_ns);
  void ResetStats(Nanos now);
  void StopIssuing();
  // The end of I/O (job_runner_end.cc); block_error_percentiles (job_runner_trim.cc).
  void FinishIo(Nanos t);
  void FsyncNext(size_t index, Nanos t);
  void SetUpBlockInfos();
  void PinMemory();
  void UnpinMemory();
  uint64_t BlockIndex(const IoUnit& u) const;
  void Finish(Nanos t);
  std::string NoIoReason() const;
  // I/O errors and continue_on_error (job_runner_errors.cc).
  void RecordError(const IoUnit& u, const Status& st);
  void CountError(int err);
  bool EmptyRead(const IoUnit& u);
  bool VerifyErrorEndsJob();
  bool MinRateMissed(int dir, Nanos t);
  Nanos Book(Nanos t, Nanos d);
  // Trace replay and recording (job_runner_replay.cc).
  bool ReplayNext(Nanos t, int* dir, Nanos* due);
  void ReplayIssue(int dir, Nanos t);
  bool ReplayPick(IoUnit* u);
  void IologOpen();
  void IologIo(const IoUnit& u);
  void IologClose(Nanos t);
  // flow= (job_runner_flow.cc, flow.h).
  void FlowHold(Nanos t);
  void FlowWake();
  Nanos FlowSleepEnd(Nanos t) const;
  // io_u queueing with iodepth_batch & co. (job_runner_batch.cc).
  void Queue(IoUnit* u);
  void Commit();
  void AfterPump();
  void Completed(IoUnit* u, Status st);
  void GetEvents();
  // vsync's merged runs (job_runner_vsync.cc).
  bool QueueMerged(IoUnit* u);
  void CommitMerged();
  void MergedDone(const Status& st);
  // rw=trim and its kin (job_runner_trim.cc).
  int TrimWriteDir() const;
  bool TrimWritePick(IoUnit* u);
  bool CountsToSize(int dir) const;
  void SubmitTrim(IoUnit* u, Completion done);
  void SubmitPrivate(IoUnit* u, Completion done);  // mmap thp= (job_runner_engines.cc)
  Status NowaitRefusal(const IoUnit& u);           // nowait, force_async (job_runner_nowait.cc)
  Nanos AsyncPunt(const IoUnit& u);
  // The file system engines and opening files (job_runner_fileops.cc).
  void SubmitFileOp(IoUnit* u, Completion done);
  Nanos OpenFileOp(size_t idx, Nanos t);
  bool OpenPicked(Nanos* t);
  void Advise(size_t idx);
  bool Exhaust(FileState& f);
  static size_t OpenLimit(const JobSpec& spec, size_t files);
  void UnlinkFiles();
  bool UnlinkEachLoop();
  void PreRead(size_t file, uint64_t done_bytes, Nanos t);
  // The engines' own paths (job_runner_engines.cc): mmap's faults, msync, splice's rounds.
  Nanos CallCost(const IoUnit& u);
  Nanos MmapFaults(const IoUnit& u);
  Completion MsyncAfter(const IoUnit& u, Completion done);
  void Unmap();
  // verify= (job_runner_verify.cc, verify.h).
  bool VerifyOn() const { return spec_.verify != VerifyKind::kNone && host_.keeps_data(); }
  void VerifyIssue(const IoUnit& u);
  bool VerifyPick(IoUnit* u);
  bool TrimVerifyPick(IoUnit* u);
  void VerifyFill(const IoUnit& u, uint8_t* data);
  void VerifyRead(const IoUnit& u);
  bool StartVerify(Nanos t);
  bool BacklogDue();
  void VerifyWritten(const IoUnit& u);
  void VerifyDump(const IoUnit& u, const VerifyOutcome& v);
  void AddMessages(const std::string& msg);
  void SaveVerifyState();

  SimHost& host_;
  const JobSpec& spec_;
  const EngineModel& eng_;
  const EngineModel& psync_;
  uint64_t io_size_;
  uint64_t granule_;                         // random block size
  std::unique_ptr<BuflenPicker> buflen_[3];  // bsrange/bssplit; null: a fixed size
  uint32_t seq_left_ = 0;                    // I/Os until the next random offset (rw=randread:N)
  bool zoned_ = false;                       // zonemode=strided over the job's one file
  uint64_t zone_bytes_ = 0;                  // fio's td->zone_bytes
  std::vector<FileState> files_;
  size_t open_files_ = 0;           // fio's nr_open_files
  size_t open_limit_ = 0;           // openfiles= (default: every file)
  std::vector<size_t> opened_now_;  // files the last pick opened
  std::set<size_t> open_set_;       // the open files, when openfiles= limits them
  std::vector<IoUnit> units_;
  std::vector<IoUnit*> free_;
  IoBuffers bufs_;  // one per unit, when writes carry data (host.writes_carry_data())
  Callback<void()> on_done_;
  ThreadStat ts_;
  Extras extras_;
  std::vector<std::string> messages_;
  std::vector<VerifyDumpFile> dumps_;
  Taus88 mix_rng_;
  // rate_process=poisson: each direction's next start (fio's last_usec, µs), poisson_state.
  uint64_t poisson_usec_[3] = {0, 0, 0};
  Taus88 poisson_rng_;
  Taus88 prio_rng_;         // cmdprio: fio's prio_state
  Taus88 seq_rand_rng_[3];  // percentage_random: fio's seq_rand_state[ddir]
  // file_service_type (file_service.h): the file kept, for how many more
  // I/Os (fio's file_service_file, file_service_left), and the draws of
  // random and zipf/pareto/normal (fio's next_file_state, next_file_zipf).
  size_t service_file_ = SIZE_MAX;
  uint32_t service_left_ = 0;
  Taus88 file_rng_;
  std::unique_ptr<RandDistGen> file_dist_;
  std::unique_ptr<LatencyTarget> lat_target_;  // null without latency_target
  bool quiescing_ = false;                     // no new I/O until nothing is in flight
  bool reset_after_quiesce_ = false;           // then the statistics start over
  size_t replay_pos_ = 0;                      // next trace entry
  Nanos replay_last_issue_;                    // fio's td->last_issue
  std::unique_ptr<IologWriter> iolog_;
  uint64_t iolog_offset_ = 0;  // the last I/O's offset: what a sync line shows
  VerifyLog vlog_;             // verify=: the blocks written (verify_log.h)
  int64_t verify_batch_ = 0;   // verify_backlog: verify reads still due (td->verify_batch)
  bool backlog_pick_ = false;  // the next I/O is a verify_backlog read or a trim verify trim
  bool verifying_ = false;     // the verify pass after the writes (fio's do_verify())
  Nanos verify_start_;

  // io_u queueing (job_runner_batch.cc): I/Os queued but not committed,
  // completions the thread has not reaped, and whether it waits for the
  // depth to fall to iodepth_low (wait_for_completions() with a full queue).
  struct Unreaped {
    IoUnit* u;
    Status st;
  };
  std::vector<IoUnit*> batch_;
  std::deque<Unreaped> unreaped_;
  bool low_wait_ = false, in_getevents_ = false;
  bool poll_wait_ = false;          // io_in_polling(): waits for one event after each I/O
  IoUnit* overlap_held_ = nullptr;  // serialize_overlap: picked, waits for an overlap to go
  // vsync: the run in the call, its gathered data, and the I/O that did
  // not continue it (FIO_Q_BUSY), queued again when the call returns.
  std::vector<IoUnit*> merged_;
  std::vector<uint8_t> merge_buf_;
  IoUnit* held_ = nullptr;
  // trimwrite: the last trim (file, offset, length) the next write covers
  // (fio's f->last_start[DDIR_TRIM], last_pos[DDIR_TRIM]).
  bool trim_write_due_ = false;
  uint32_t trim_file_ = 0;
  uint64_t trim_offset_ = 0, trim_length_ = 0;
  FileLocks* locks_ = nullptr;         // lockfile=exclusive (file_locks.h; null: none)
  uint64_t pinned_ = 0, prepped_ = 0;  // lockmem's bytes; force_async's count (ld->prepped)
  Flow* flow_ = nullptr;
  uint64_t flow_count_ = 0;      // fio's td->flow_counter
  bool flow_passed_ = false;     // the flow let the next I/O through
  bool flow_waiting_ = false;    // held back, waiting for the flow to move
  bool flow_sleep_due_ = false;  // held back, quiescing before flow_sleep
  Phase phase_ = Phase::kIdle;
  bool in_pump_ = false, failed_ = false, setup_failed_ = false;
  bool blocked_io_ = false;  // the thread waits in a call
  bool sleeping_ = false;    // rate limit or thinktime
  bool ramp_over_ = true;
  int pre_read_state_ = 0;  // pre_read: 0 not yet, 1 reading, 2 done (fio's TD_PRE_READING)
  bool terminated_ = false;
  // rate_min / rate_iops_min: what was done at the last check (fio's
  // last_rate_check_bytes/blocks/time).
  uint64_t done_bytes_[3] = {0, 0, 0}, done_ios_[3] = {0, 0, 0};
  uint64_t check_bytes_[3] = {0, 0, 0}, check_ios_[3] = {0, 0, 0};
  Nanos check_time_[3];
  Nanos thread_free_;  // when the thread can do its next thing
  Nanos epoch_;
  uint32_t cur_depth_ = 0;
  int pending_dir_ = -1;
  size_t next_file_ = 0;
  uint32_t last_write_file_ = 0;
  uint64_t loops_done_ = 0;
  uint64_t issued_loop_bytes_ = 0;
  uint64_t issued_bytes_[3] = {0, 0, 0}, issued_ios_[3] = {0, 0, 0};  // since epoch, for rate
  uint64_t think_bytes_[3] = {0, 0, 0};  // rate_ignore_thinktime: bytes counted for thinking
  uint64_t write_issues_ = 0;            // fio's io_issues[DDIR_WRITE]
  int last_dir_issued_ = -1;
  uint64_t completed_blocks_ = 0, last_think_blocks_ = 0, issued_blocks_ = 0;  // io_issues
  Nanos last_think_;  // fio's last_thinktime (thinktime_iotime)
  Nanos usr_ns_, sys_ns_;
  // Bandwidth / IOPS sampling windows (fio's bw_avg_time, iops_avg_time:
  // 500 ms, or log_avg_msec for a log that averages), or none when a log
  // takes the figures per I/O.
  std::unique_ptr<JobLogs> logs_;
  Nanos bw_avg_, iops_avg_;
  bool bw_windows_ = true, iops_windows_ = true;
  Nanos next_bw_sample_, next_iops_sample_;
  uint64_t win_bytes_[3] = {0, 0, 0}, win_ios_[3] = {0, 0, 0};
};

// verify_dump: writes the job's dump files into the current directory, as
// fio does when the block fails (job_runner_verify.cc).
Status WriteVerifyDumps(const JobRunner& r);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_JOB_RUNNER_H_
