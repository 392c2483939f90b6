#include "workloads/fio/fio_run.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sim/quoted.h"
#include "sim/virtual_driver.h"
#include "workloads/fio/engines.h"
#include "workloads/fio/iolog_read.h"

// The tables below use designated initializers and rely on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

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
  // Each job's files, once laid out; its runner is made when all are.
  struct SetUp {
    JobSpec* spec;
    std::vector<uint32_t> ids;
    std::vector<uint64_t> sizes;
    int err;
    std::string error;
  };
  std::vector<SetUp> set_up;
  for (JobSpec& spec : jobs_.jobs) {
    const JobOptions& o = spec.opts;
    uint64_t nfiles = spec.files.size();
    // The smallest I/O each direction needs room for (fio's td_min_bs; the
    // bs= size when it is fixed).
    uint64_t max_bs = std::max({spec.do_read ? spec.sizes[kRead].min : 0,
                                spec.do_write ? spec.sizes[kWrite].min : 0,
                                spec.do_trim ? spec.sizes[kTrim].min : 0});
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
    std::vector<uint32_t> ids;
    std::vector<uint64_t> sizes;
    uint32_t extend_files = 0;
    uint64_t extend_bytes = 0;
    std::vector<size_t> to_extend;
    for (size_t i = 0; i < nfiles; ++i) {
      const std::string& path = spec.files[i];
      uint32_t id = fs.Lookup(path);
      uint64_t have = id ? fs.file(id).size : 0;
      // filesetup.c setup_files(): the job's I/O covers [file_offset,
      // file_offset + io_size): size= (per file) past the offset, extending
      // the file; filesize= or the file's own size up to its end.
      const uint64_t off = spec.file_offset;
      uint64_t want = spec.file_size && !o.filesize ? off + spec.file_size
                      : spec.file_size              ? spec.file_size
                                                    : have;
      if (want == 0) {
        return Status::InvalidArgument("job " + Quoted(spec.name) +
                                       ": need size= or filesize= (file " + Quoted(path) +
                                       " does not exist yet)");
      }
      if (off && want < off + max_bs) {  // setup_files(): err_offset
        return Status::InvalidArgument("job " + Quoted(spec.name) + ": offset " +
                                       std::to_string(off) + " leaves no room for I/O in file " +
                                       Quoted(path) + " (" + std::to_string(want) + " bytes)");
      }
      if (want < max_bs) {
        return Status::InvalidArgument("job " + Quoted(spec.name) + ": file " + Quoted(path) +
                                       " (" + std::to_string(want) + " bytes) is smaller than bs");
      }
      if (!id || have < want) {
        ++extend_files;
        extend_bytes += want;
        to_extend.push_back(i);
      }
      sizes.push_back(want);
      ids.push_back(id);
    }
    // filesetup.c extend_file(): a write that meets ENOSPC while laying a
    // file out stops the layout and fails the job (setup_files() returns
    // 1, thread_main() exits with td->error set).
    std::string layout_error;
    int layout_errno = ENOSPC;
    if (extend_files && GetEngineModel(spec.engine).file_op == FileOp::kCreate) {
      // filesetup.c setup_files(): no extend for an FIO_DISKLESSIO engine;
      // filecreate creates each file when the job opens it. (The null
      // engine's files are still made here: storlab's iolog and reports
      // name them.)
    } else if (extend_files && o.create_on_open) {
      // filesetup.c setup_files(): create_on_open skips the extend; the
      // file is created (empty, costing no simulated time) when the job
      // opens it, its writes allocate as they go, its reads find nothing.
      for (size_t i : to_extend) {
        if (!ids[i]) ids[i] = fs.Create(spec.files[i]);
      }
    } else if (extend_files) {
      layout_.push_back({spec.name, extend_files, extend_bytes});
      bool new_layout = spec.do_read || (spec.do_write && o.overwrite);
      for (size_t i : to_extend) {
        const std::string& path = spec.files[i];
        // A write job without overwrite gets a fresh file (fio unlinks it).
        if (!new_layout && spec.do_write && ids[i]) fs.Remove(ids[i]);
        ids[i] = fs.Create(path);
        // filesetup.c fallocate_file(), fallocate=: native_fallocate()'s
        // failure is only a debug line, posix_fallocate()'s is logged;
        // truncate sets the size and allocates nothing, none does neither
        // (the job's writes allocate as they go).
        // fallocate_file(): nothing with fill_device.
        const std::string& mode = o.fill_device ? std::string("none") : o.fallocate;
        if (mode == "native" || mode == "posix" || mode == "1") {
          Status st = fs.Allocate(ids[i], sizes[i]);
          if (!st.ok() && mode != "native") {
            messages_.push_back(std::string("fio: posix_fallocate fails: ") +
                                std::strerror(st.code() == Status::Code::kNoSpace ? ENOSPC : EIO));
          }
        } else if (mode == "keep") {
          // FIO_FALLOCATE_KEEP_SIZE: a failure is the job's error.
          Status st = fs.AllocateKeepSize(ids[i], sizes[i]);
          if (!st.ok() && layout_error.empty()) {
            const int err = st.code() == Status::Code::kNoSpace ? ENOSPC : EIO;
            layout_error =
                std::string("file:filesetup.c:93, func=fallocate, error=") + std::strerror(err);
            layout_errno = err;
            messages_.push_back("fio: pid=0, err=" + std::to_string(err) + "/" + layout_error);
          }
        } else if (mode == "truncate") {
          fs.Truncate(ids[i], sizes[i]);
        }
        if (!new_layout) continue;
        // extend_file() then sets the size with ftruncate() before writing:
        // a layout stopped by ENOSPC leaves a file of full size whose tail
        // is a hole, which a later run takes as laid out and reads as zeros.
        // fill_device: no ftruncate(), the layout writes until ENOSPC and
        // stops there quietly; a job that does not write then does its
        // I/O over what was written (extend_file()).
        if (!o.fill_device) fs.Truncate(ids[i], sizes[i]);
        Status st = LayoutFile(spec, ids[i], sizes[i]);
        if (o.fill_device && st.code() == Status::Code::kNoSpace) {
          if (!spec.do_write) sizes[i] = std::min(sizes[i], fs.file(ids[i]).size);
          continue;
        }
        if (st.code() == Status::Code::kNoSpace) {
          messages_.emplace_back("fio: ENOSPC on laying out file, stopping");
          layout_error =
              std::string("file:filesetup.c:240, func=write, error=") + std::strerror(ENOSPC);
          messages_.push_back("fio: pid=0, err=" + std::to_string(ENOSPC) + "/" + layout_error);
          break;
        }
        if (!st.ok()) return st.WithContext("laying out " + Quoted(path));
      }
    }
    if (!spec.io_size) {
      for (uint64_t s : sizes) spec.io_size += s - spec.file_offset;
    }
    set_up.push_back({&spec, std::move(ids), std::move(sizes), layout_errno, layout_error});
    segments_ = std::max(segments_, spec.segment + 1);
  }
  for (SetUp& j : set_up) {
    // Each job opens its files by name when it starts (filesetup.c
    // td_io_open_file()): a file a later job's extend_file() unlinked and
    // created again is the new one for the jobs before it too.
    for (size_t i = 0; i < j.ids.size(); ++i) {
      if (const uint32_t id = fs.Lookup(j.spec->files[i])) j.ids[i] = id;
    }
    const JobOptions& o = j.spec->opts;
    runners_.push_back(
        std::make_unique<JobRunner>(host_, *j.spec, j.ids, j.sizes, j.spec->io_size));
    if (o.flow) {  // flow_init_job(): at setup, stonewalled jobs too
      auto& flow = flows_[o.flow_id];
      if (!flow) flow = std::make_unique<Flow>(host_.engine());
      flow->Join(static_cast<uint64_t>(o.flow));
      runners_.back()->SetFlow(flow.get());
    }
    if (!j.error.empty()) runners_.back()->FailSetup(j.err, j.error);
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
  std::vector<Report> out;
  int last_group = -1;
  for (const auto& r : runners_) {
    const JobSpec& s = r->spec();
    bool join = !out.empty() && s.opts.group_reporting && last_group == s.groupid;
    if (!join) {
      out.emplace_back();
      out.back().ts.name = r->stat().name;
      out.back().ts.description = r->stat().description;
      out.back().ts.groupid = s.groupid;
      out.back().ts.members = 0;
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
    rep.opts = &s.opts;
    rep.members.push_back(r.get());
    // stat.c __show_run_stats(): the last member with ss_dur gives its data.
    if (const SteadyState* ss = SteadyData(*r)) rep.ts.ss = ss;
    last_group = s.groupid;
  }
  return out;
}

std::vector<GroupStat> FioRun::Groups(const std::vector<Report>& reports) const {
  int max_group = 0;
  for (const auto& r : runners_) max_group = std::max(max_group, r->spec().groupid);
  std::vector<GroupStat> groups(static_cast<size_t>(max_group) + 1);
  for (size_t g = 0; g < groups.size(); ++g) groups[g].groupid = static_cast<int>(g);
  for (const Report& rep : reports) groups[static_cast<size_t>(rep.ts.groupid)].Add(rep.ts);
  for (auto& g : groups) g.Finish();
  return groups;
}

}  // namespace storlab::fio
