// FioRun: a set of fio jobs on one simulated host, from the layout of their
// files to the last job's exit, in virtual time.
//
//   Prepare()  resolves each job's files and sizes and lays them out the way
//              fio does before the jobs start ("Laying out IO file"): files
//              that do not exist or are too small are created and allocated
//              (fallocate); for jobs that read (or overwrite=1) they are
//              written in full and fsync'ed, which costs simulated time.
//              A full file system gives fio's messages and the jobs go on.
//   Run()      starts the jobs (stonewall segments one after another) and
//              runs the engine until every job has exited.
//   Reports()  the jobs' statistics merged as fio merges them for
//              group_reporting, with their "Run status group" figures.
// Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_FIO_RUN_H_
#define STORLAB_WORKLOADS_FIO_FIO_RUN_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/status.h"
#include "sim/time.h"
#include "workloads/fio/file_locks.h"
#include "workloads/fio/flow.h"
#include "workloads/fio/job_runner.h"
#include "workloads/fio/job_spec.h"
#include "workloads/fio/phase_stats.h"
#include "workloads/fio/steadystate.h"
#include "workloads/fio/thread_stat.h"
#include "workloads/host/sim_host.h"

namespace storlab::fio {

class FioRun {
 public:
  struct LayoutLine {
    std::string job;
    uint32_t files = 0;
    uint64_t bytes = 0;
  };
  // One entry of fio's report: a job, or a group with group_reporting.
  struct Report {
    ThreadStat ts;
    const JobOptions* opts = nullptr;  // the "job options" echo
    std::vector<const JobRunner*> members;
  };

  FioRun(SimHost& host, JobSet jobs);
  FioRun(const FioRun&) = delete;
  FioRun& operator=(const FioRun&) = delete;
  ~FioRun();

  Status Prepare();
  // `progress` (may be empty) is called now and then with the simulated
  // time; it is for display only and cannot change the run. An error when
  // the run got stuck (sim/watchdog.h: it names the node).
  Status Run(const std::function<void(Nanos)>& progress);
  // Power cuts during Run(): `hook` runs at each of `times` (engine times,
  // sorted), between two events, with the clock moved to it. A cut after
  // the jobs are done runs once the engine has run up to it (the stack goes
  // on destaging). An error from `hook` ends the run with it.
  void SetCuts(const std::vector<Nanos>& times, const std::function<Status()>& hook);
  // A fault (storlab sim --fault): `run` runs at engine time `at` during
  // Run(), between two events, as a cut does — before a cut due at the same
  // time. Faults due after the last job has exited do not run. An error
  // from `run` ends the run with it.
  void AddFault(Nanos at, std::function<Status()> run);
  // A watcher of the run (workloads/report/run_sampler.h): during Run(),
  // between two events, `observe(until)` is called with the time up to
  // which the stack stays as it is now (the next event's or the next cut's
  // time). It may only read; it schedules nothing, so the run is the same
  // with and without it.
  void SetObserver(std::function<void(Nanos)> observe) { observe_ = std::move(observe); }
  // --status-interval: `show` runs every `every` of engine time from `first`
  // while jobs run, between two events, as a fault does (it only reads).
  void SetStatusInterval(Nanos first, Nanos every, std::function<void(Nanos)> show);
  // --eta (workloads/fio/eta.h): `show(t)` runs for every t = `first` +
  // k·`every` of engine time while jobs run, between two events, once the
  // next event is later than t — without moving the clock, so what it reads
  // is the state at t. It only reads.
  void SetEtaTicks(Nanos first, Nanos every, std::function<void(Nanos)> show);

  std::vector<Report> Reports() const;
  // Whether the reports show fio's disk_util: a job that does device I/O
  // and has disk_util=1 (init.c only sets the disks up for such a job).
  bool ShowsDiskUtil() const;
  std::vector<GroupStat> Groups(const std::vector<Report>& reports) const;

  SimHost& host() { return host_; }
  const SimHost& host() const { return host_; }
  const JobSet& jobs() const { return jobs_; }
  const std::vector<std::unique_ptr<JobRunner>>& runners() const { return runners_; }
  const std::vector<LayoutLine>& layout() const { return layout_; }
  // fio's messages on stderr (notes, layout trouble, I/O errors).
  std::vector<std::string> Messages() const;
  Nanos layout_time() const { return layout_end_ - layout_start_; }
  // When Prepare() began (fio's genesis: before the layout).
  Nanos layout_start() const { return layout_start_; }
  uint64_t layout_bytes() const { return layout_bytes_; }
  Nanos end_time() const { return end_; }
  // Stonewall segments, and the stack's figures in each (phase_stats.h).
  int segments() const { return segments_; }
  const PhaseStats& phases() const { return phases_; }

 private:
  // A job's files as setup_files() leaves them (fio_run_setup.cc): ids,
  // sizes, where its I/O in each starts; failed: the setup failed (the
  // job starts, does no I/O and ends, with error `err` when not 0).
  struct SetUp {
    std::vector<uint32_t> ids;
    std::vector<uint64_t> sizes, offsets;
    bool failed = false;
    bool no_size = false;  // the error was fio's "you need to specify size="
    int err = 0;
    std::string error;
  };
  static uint64_t SmallestIo(const JobSpec& spec);
  Status SetUpFiles(JobSpec& spec, SetUp* out);
  void ReopenByName(const JobSpec& spec, SetUp* s);
  void SetUpLate(size_t k);
  Status LayoutFile(const JobSpec& spec, uint32_t id, uint64_t size);
  void OnJobExit(const JobRunner& job);
  void StartSegment(int segment);
  // wait_for: starts the jobs in waiting_ that no waitee fences.
  void StartWaiting();
  bool WaiteeRunning(const JobRunner& job) const;
  // steadystate (fio_run_steadystate.cc): fio's helper thread calls
  // steadystate_check() once a second.
  void StartSteadyState();
  void SteadyStateCheck();
  const SteadyState* SteadyData(const JobRunner& job) const;

  SimHost& host_;
  JobSet jobs_;
  std::vector<std::unique_ptr<JobRunner>> runners_;
  std::vector<bool> late_;  // per job: create_serialize=0, set up when its segment starts
  std::map<int64_t, std::unique_ptr<Flow>> flows_;  // by flow_id (flow.h)
  FileLocks file_locks_;                            // lockfile=exclusive
  std::vector<LayoutLine> layout_;
  std::vector<std::string> messages_;
  bool exitall_ = false;  // some job set exitall (fio's exitall_on_terminate)
  Nanos layout_start_, layout_end_, end_;
  uint64_t layout_bytes_ = 0;
  size_t done_ = 0;
  int segments_ = 0;
  int current_segment_ = 0;
  Nanos segment_start_;
  std::vector<JobRunner*> waiting_;  // this segment's jobs not started yet (wait_for)
  PhaseStats phases_;
  // Cuts and faults, in the order they run (sorted by Run()).
  struct Timed {
    Nanos at;
    bool after_jobs = false;  // a cut: it runs after the last job too
    std::function<Status()> run;
  };
  std::vector<Timed> timed_;
  size_t next_timed_ = 0;
  std::function<void(Nanos)> observe_;
  Nanos status_next_, status_every_;
  std::function<void(Nanos)> status_show_;
  Nanos eta_next_, eta_every_;
  std::function<void(Nanos)> eta_show_;
  // Per runner: steadystate.c's struct steadystate_data (`data` on the job
  // that keeps the samples: each job, or a group's last with
  // group_reporting).
  struct SteadyTrack {
    bool on = false;
    bool ramp_over = false;
    bool attained = false;
    Nanos prev_time;
    uint64_t prev_bytes = 0, prev_ios = 0;
    std::unique_ptr<SteadyState> data;
  };
  std::vector<SteadyTrack> steady_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FIO_RUN_H_
