#include "workloads/fio/fio_run.h"

#include <algorithm>

#include "sim/quoted.h"
#include "sim/virtual_driver.h"
#include "workloads/fio/engines.h"
#include "workloads/fio/iolog_read.h"
#include "workloads/fio/opendir.h"
#include "workloads/fio/report_units.h"
#include "workloads/fio/verify_state.h"

// The tables below use designated initializers and rely on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {
namespace {

// options.c set_cpus_allowed(), str_cpumask_cb(): a CPU the host does not
// have is an error (fio checks cpus_configured(); here the simulated
// host's cores).
Status CheckCpus(const JobSet& jobs, uint32_t cores) {
  for (const JobSpec& j : jobs.jobs) {
    if (j.opts.cpus.empty() || j.opts.cpus.back() < cores) continue;
    return Status::InvalidArgument("job " + Quoted(j.name) + ": option " +
                                   (j.opts.cpus_allowed.empty() ? "'cpumask'" : "'cpus_allowed'") +
                                   ": CPU " + std::to_string(j.opts.cpus.back()) +
                                   " too large (max=" + std::to_string(cores - 1) +
                                   "): the simulated host has " + std::to_string(cores) +
                                   " cores ([host] cores, --host-cores)");
  }
  return Status();
}

}  // namespace

FioRun::FioRun(SimHost& host, JobSet jobs) : host_(host), jobs_(std::move(jobs)) {}

FioRun::~FioRun() = default;

Status FioRun::Prepare() {
  ExtentFs& fs = host_.fs();
  layout_start_ = host_.engine().now();
  // Direct I/O skips the page cache unless some job also uses buffered I/O
  // (then it goes through it, coherently).
  bool buffered = false;
  for (const JobSpec& j : jobs_.jobs) buffered |= !j.direct && !GetEngineModel(j.engine).no_io;
  host_.set_direct_bypasses_cache(!buffered);
  for (const std::string& note : jobs_.notes) messages_.push_back(note);
  for (const JobSpec& j : jobs_.jobs) exitall_ |= j.opts.exitall;
  RETURN_IF_ERROR(CheckCpus(jobs_, host_.cpu().cores()));
  // opendir= is fio's parse-time scan: every job's, before any layout.
  for (JobSpec& j : jobs_.jobs) {
    if (!j.opts.opendir.empty()) RETURN_IF_ERROR(ResolveOpendir(&j, fs, &messages_));
  }
  // Each job's files, once laid out; its runner is made when all are.
  std::vector<SetUp> set_up(jobs_.jobs.size());
  late_.assign(jobs_.jobs.size(), false);
  for (size_t k = 0; k < jobs_.jobs.size(); ++k) {
    JobSpec& spec = jobs_.jobs[k];
    const JobOptions& o = spec.opts;
    const uint64_t nfiles = spec.files.size();
    const uint64_t max_bs = SmallestIo(spec);
    if (o.size_percent) {
      uint64_t total = fs.capacity() / 100 * static_cast<uint64_t>(o.size_percent);
      spec.file_size = total / nfiles / max_bs * max_bs;
      spec.io_size = spec.file_size * nfiles;
    }
    // init.c fixup_options(): fill_device without size= is size=-1ULL,
    // writes until ENOSPC; here a file one block larger than the file
    // system stands in for it (it cannot be filled: the writes meet ENOSPC
    // as fio's do).
    if (o.fill_device && !spec.file_size) {
      spec.file_size = (fs.capacity() / max_bs + 1) * max_bs;
    }
    if (spec.trace) RETURN_IF_ERROR(CheckReplayFits(spec, fs.capacity()));
    if (spec.verify != VerifyKind::kNone && !host_.keeps_data()) {
      return Status::InvalidArgument("job '" + spec.name +
                                     "': verify= needs a host that keeps data (keep_data)");
    }
    segments_ = std::max(segments_, spec.segment + 1);
    // backend.c run_threads(): create_serialize=0 leaves setup_files() to
    // the job's own thread (thread_main()): fio_run_start.cc.
    if (!o.create_serialize) {
      late_[k] = true;
      set_up[k].ids.assign(nfiles, 0);
      set_up[k].sizes.assign(nfiles, 0);
      continue;
    }
    RETURN_IF_ERROR(SetUpFiles(spec, &set_up[k]));
  }
  for (size_t k = 0; k < jobs_.jobs.size(); ++k) {
    JobSpec& spec = jobs_.jobs[k];
    SetUp& j = set_up[k];
    if (!late_[k]) ReopenByName(spec, &j);
    const JobOptions& o = spec.opts;
    if (late_[k]) j.offsets.assign(j.ids.size(), 0);
    runners_.push_back(
        std::make_unique<JobRunner>(host_, spec, j.ids, j.sizes, j.offsets, spec.io_size));
    if (o.flow) {  // flow_init_job(): at setup, stonewalled jobs too
      auto& flow = flows_[o.flow_id];
      if (!flow) flow = std::make_unique<Flow>(host_.engine());
      flow->Join(static_cast<uint64_t>(o.flow));
      runners_.back()->SetFlow(flow.get());
    }
    if (j.failed) runners_.back()->FailSetup(j.err, j.error);
    // lockfile=exclusive: one lock per file for all jobs (file_locks.h).
    if (o.lockfile == "exclusive") runners_.back()->SetFileLocks(&file_locks_);
    // backend.c run_threads(): fio_verify_load_state() before the job's
    // setup_files(); a state that cannot be read ends the job there (fio's
    // exit status 1, the job's error 0).
    if (o.verify_state_load && o.verify != "0" && !j.failed) {
      auto vs = ReadVerifyStateFile(spec.name, static_cast<uint64_t>(spec.thread_number - 1));
      if (vs.ok()) {
        runners_.back()->LoadVerifyState(std::move(*vs));
      } else {
        messages_.push_back(vs.status().message());
        runners_.back()->FailSetup(0, "");
      }
    }
  }
  layout_end_ = host_.engine().now();
  return Status();
}

void FioRun::SetCuts(const std::vector<Nanos>& times, const std::function<Status()>& hook) {
  for (Nanos t : times) timed_.push_back({.at = t, .after_jobs = true, .run = hook});
}

void FioRun::SetStatusInterval(Nanos first, Nanos every, std::function<void(Nanos)> show) {
  status_next_ = first;
  status_every_ = every;
  status_show_ = std::move(show);
}

void FioRun::SetEtaTicks(Nanos first, Nanos every, std::function<void(Nanos)> show) {
  eta_next_ = first;
  eta_every_ = every;
  eta_show_ = std::move(show);
}

void FioRun::AddFault(Nanos at, std::function<Status()> run) {
  timed_.push_back({.at = at, .after_jobs = false, .run = std::move(run)});
}

Status FioRun::Run(const std::function<void(Nanos)>& progress) {
  Engine& engine = host_.engine();
  // By time; at one time faults first, each kind in the order given.
  std::stable_sort(timed_.begin(), timed_.end(), [](const Timed& a, const Timed& b) {
    return a.at != b.at ? a.at < b.at : a.after_jobs < b.after_jobs;
  });
  StartSteadyState();
  StartSegment(0);
  uint64_t n = 0;
  Watchdog watchdog(host_.stack());
  Status cut;
  auto cut_due = [&] {
    return next_timed_ < timed_.size() &&
           (engine.empty() || engine.next_time() > timed_[next_timed_].at);
  };
  Status st = VirtualDriver(engine).RunWatched(
      [&] {
        if (progress && (++n & 0x3ffff) == 0) progress(engine.now());
        while (cut.ok() && done_ < runners_.size() && cut_due()) {
          const Timed& t = timed_[next_timed_++];
          if (observe_) observe_(Max(engine.now(), t.at));
          engine.AdvanceTo(Max(engine.now(), t.at));
          cut = t.run();
        }
        while (eta_show_ && done_ < runners_.size() && !engine.empty() &&
               engine.next_time() > eta_next_) {
          eta_show_(eta_next_);
          eta_next_ += eta_every_;
        }
        while (status_show_ && done_ < runners_.size() && !engine.empty() &&
               engine.next_time() > status_next_) {
          if (observe_) observe_(Max(engine.now(), status_next_));
          engine.AdvanceTo(Max(engine.now(), status_next_));
          status_show_(engine.now());
          status_next_ += status_every_;
        }
        if (observe_ && !engine.empty()) {
          Nanos until = engine.next_time();
          if (next_timed_ < timed_.size() && timed_[next_timed_].at < until) {
            until = timed_[next_timed_].at;
          }
          observe_(until);
        }
        return cut.ok() && done_ < runners_.size();
      },
      watchdog);
  end_ = engine.now();
  phases_.End(host_.stack(), end_);
  RETURN_IF_ERROR(cut);
  RETURN_IF_ERROR(st);
  // The cuts after the last job: the stack goes on with what it holds.
  VirtualDriver driver(engine);
  for (; next_timed_ < timed_.size(); ++next_timed_) {
    const Timed& t = timed_[next_timed_];
    if (!t.after_jobs) continue;
    driver.RunUntil(Max(engine.now(), t.at));
    RETURN_IF_ERROR(t.run());
  }
  return Status();
}

std::vector<std::string> FioRun::Messages() const {
  std::vector<std::string> out = messages_;
  for (const auto& r : runners_) {
    for (const auto& m : r->messages()) out.push_back(m);
  }
  return out;
}

std::vector<FioRun::Report> FioRun::Reports() const {
  // fio's __show_run_stats(): consecutive jobs with group_reporting in the
  // same group share one entry; the name is the first member's, the options
  // the last member's.
  // Jobs with stats=0 are left out; as in fio, one without group_reporting
  // still counts a slot (nr_ts), and a slot no job fills is reported as an
  // empty entry of group -1 (terse and JSON show it; normal skips it).
  std::vector<Report> out;
  size_t slots = 0;
  int last_group = -1;
  for (const auto& r : runners_) {
    const JobSpec& s = r->spec();
    if (!s.opts.group_reporting) {
      ++slots;
    } else if (last_group != s.groupid && s.opts.stats) {
      last_group = s.groupid;
      ++slots;
    }
  }
  last_group = -1;
  for (const auto& r : runners_) {
    const JobSpec& s = r->spec();
    if (!s.opts.stats) continue;
    bool join = !out.empty() && s.opts.group_reporting && last_group == s.groupid;
    if (!join) {
      out.emplace_back();
      out.back().ts.name = r->stat().name;
      out.back().ts.description = r->stat().description;
      out.back().ts.groupid = s.groupid;
      out.back().ts.members = 0;
      SetReportUnits(s.opts, &out.back().ts);
    }
    Report& rep = out.back();
    const ThreadStat& ts = r->stat();
    rep.ts.Merge(ts);
    ++rep.ts.members;
    // __show_run_stats(): a job that went on after its errors reports the
    // first of them (and the last error text its engine set).
    rep.ts.continue_on_error = ts.continue_on_error;
    rep.ts.total_err_count += ts.total_err_count;
    rep.ts.first_error = ts.first_error;
    if (!rep.ts.error && !ts.error && ts.continue_on_error && ts.first_error) {
      rep.ts.error = ts.first_error;
      rep.ts.verror = ts.verror;
    } else if (!rep.ts.error && ts.error) {
      rep.ts.error = ts.error;
      rep.ts.verror = ts.verror;
    }
    rep.ts.latency_depth = ts.latency_depth;
    rep.ts.latency_target = ts.latency_target;
    rep.ts.latency_window = ts.latency_window;
    rep.ts.latency_percentile = ts.latency_percentile;
    rep.ts.percentile_list = ts.percentile_list;
    rep.ts.percentile_precision = ts.percentile_precision;
    rep.ts.clat_percentiles = ts.clat_percentiles;
    rep.ts.lat_percentiles = ts.lat_percentiles;
    rep.ts.slat_percentiles = ts.slat_percentiles;
    rep.ts.blocks = ts.blocks;
    rep.opts = &s.opts;
    rep.members.push_back(r.get());
    // stat.c __show_run_stats(): the last member with ss_dur gives its data.
    if (const SteadyState* ss = SteadyData(*r)) rep.ts.ss = ss;
    last_group = s.groupid;
  }
  while (out.size() < slots) {
    out.emplace_back();
    out.back().ts.groupid = -1;
    out.back().ts.members = 0;
    out.back().ts.latency_depth = 0;
    out.back().ts.clat_percentiles = false;
  }
  return out;
}

bool FioRun::ShowsDiskUtil() const {
  for (const auto& r : runners_) {
    if (r->spec().opts.disk_util && !GetEngineModel(r->spec().engine).diskless) return true;
  }
  return false;
}

std::vector<GroupStat> FioRun::Groups(const std::vector<Report>& reports) const {
  int max_group = 0;
  for (const auto& r : runners_) max_group = std::max(max_group, r->spec().groupid);
  std::vector<GroupStat> groups(static_cast<size_t>(max_group) + 1);
  for (size_t g = 0; g < groups.size(); ++g) groups[g].groupid = static_cast<int>(g);
  for (const Report& rep : reports) {
    if (rep.ts.groupid >= 0) groups[static_cast<size_t>(rep.ts.groupid)].Add(rep.ts);
  }
  for (auto& g : groups) g.Finish();
  return groups;
}

}  // namespace storlab::fio
