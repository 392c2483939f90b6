// JobLogs (job_logs.h): fio's log samples and files.
#include "workloads/fio/job_logs.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "sim/quoted.h"

namespace storlab::fio {
namespace {

constexpr uint64_t kLogMsecSlack = 1;  // fio's LOG_MSEC_SLACK

// fio's gen_log_name().
std::string LogName(const LogFile& f, const std::string& job, const char* type, int number,
                    bool per_job) {
  const std::string& prefix = f.prefix.empty() ? job : f.prefix;
  return per_job ? prefix + "_" + type + "." + std::to_string(number) + ".log"
                 : prefix + "_" + type + ".log";
}

struct File {
  FILE* f = nullptr;
  ~File() {
    if (f) std::fclose(f);
  }
};

Status CannotWrite(const std::string& name) {
  return Status::IoError("cannot write log " + Quoted(name, 256) + ": " + std::strerror(errno));
}

}  // namespace

std::unique_ptr<JobLogs> JobLogs::Make(const JobOptions& o, const std::string& job_name,
                                       int thread_number) {
  if (!o.bw_log.on && !o.lat_log.on && !o.iops_log.on && !o.hist_log.on) return nullptr;
  std::unique_ptr<JobLogs> l(new JobLogs());
  const auto avg = static_cast<uint64_t>(o.log_avg_msec);
  l->log_max_ = o.log_max_value;
  l->log_offset_ = o.log_offset;
  l->log_prio_ = o.log_prio;
  l->append_ = !o.per_job_logs;
  auto make = [&](const LogFile& f, const char* type, bool inline_log, uint64_t avg_msec) {
    auto log = std::make_unique<Log>();
    log->file = LogName(f, job_name, type, thread_number, o.per_job_logs);
    log->inline_log = inline_log;
    log->avg_msec = avg_msec;
    return log;
  };
  // init.c setup_log(): bwavgtime / iopsavgtime, when given, shorten the
  // log's window to theirs.
  auto window = [avg](bool set, int64_t ms) {
    return set ? std::min(avg, static_cast<uint64_t>(ms)) : avg;
  };
  if (o.lat_log.on) {
    l->lat_ = make(o.lat_log, "lat", true, avg);
    l->slat_ = make(o.lat_log, "slat", true, avg);
    l->clat_ = make(o.lat_log, "clat", true, avg);
  }
  if (o.bw_log.on) l->bw_ = make(o.bw_log, "bw", false, window(o.bwavgtime_set, o.bwavgtime));
  if (o.iops_log.on) {
    l->iops_ = make(o.iops_log, "iops", false, window(o.iopsavgtime_set, o.iopsavgtime));
  }
  if (o.hist_log.on) {
    l->hist_ = true;
    l->hist_file_ = LogName(o.hist_log, job_name, "clat_hist", thread_number, o.per_job_logs);
    l->hist_msec_ = static_cast<uint64_t>(o.log_hist_msec);
    l->hist_coarseness_ = static_cast<int>(o.log_hist_coarseness);
    for (auto& b : l->hist_before_) b.assign(LatencyHistogram::kBuckets, 0);
  }
  return l;
}

JobLogs::~JobLogs() = default;

// fio's add_log_sample(): a line per sample, or the window's mean (max)
// once the window has passed.
void JobLogs::Add(Log* log, uint64_t ms, uint64_t val, int dir, uint64_t bs, uint64_t offset,
                  uint32_t prio) {
  const uint64_t avg_msec = log->avg_msec;
  if (!avg_msec) {
    log->samples.push_back({ms + epoch_ms_, val, dir, bs, offset, prio});
    return;
  }
  log->window[static_cast<size_t>(dir)].Add(val);
  uint64_t& last = log->avg_last[static_cast<size_t>(dir)];
  if (ms < last) return;
  const uint64_t this_window = ms - last;
  if (this_window < avg_msec && (log->inline_log || avg_msec - this_window > kLogMsecSlack)) {
    return;
  }
  Flush(log, dir, ms);
  last = ms - ms % avg_msec;
}

// fio's __add_stat_to_log().
void JobLogs::Flush(Log* log, int dir, uint64_t ms) {
  IoStat& w = log->window[static_cast<size_t>(dir)];
  if (w.samples) {
    uint64_t v = log_max_ ? w.max : static_cast<uint64_t>(std::llround(w.mean));  // mean >= 0
    log->samples.push_back({ms + epoch_ms_, v, dir, 0, 0, 0});  // no priority for a window
  }
  w = IoStat();
}

void JobLogs::OnIo(const Io& io, const LatencyHistogram& clat) {
  if (lat_ && io.has_lat) Add(lat_.get(), io.ms, io.lat_ns, io.dir, io.bs, io.offset, io.prio);
  if (slat_ && io.has_slat)
    Add(slat_.get(), io.slat_ms, io.slat_ns, io.dir, io.bs, io.offset, io.prio);
  if (clat_ && io.has_clat) Add(clat_.get(), io.ms, io.clat_ns, io.dir, io.bs, io.offset, io.prio);
  if (bw_per_io() && io.has_bw)
    Add(bw_.get(), io.ms, io.bw_rate, io.dir, io.bs, io.offset, io.prio);
  if (iops_per_io() && io.has_iops) Add(iops_.get(), io.ms, 1, io.dir, io.bs, io.offset, io.prio);
  if (hist_ && hist_msec_ && io.has_clat) {
    // fio's add_clat_sample(): a snapshot of the histogram every log_hist_msec.
    uint64_t& last = hist_last_[static_cast<size_t>(io.dir)];
    if (!last) last = io.ms;
    const uint64_t this_window = io.ms - last;
    if (this_window >= hist_msec_) {
      std::vector<uint64_t>& before = hist_before_[static_cast<size_t>(io.dir)];
      HistSample s{io.ms + epoch_ms_, io.dir, io.bs,
                   std::vector<uint64_t>(LatencyHistogram::kBuckets)};
      for (unsigned i = 0; i < LatencyHistogram::kBuckets; ++i) {
        s.counts[i] = clat.bucket(i) - before[i];
        before[i] = clat.bucket(i);
      }
      hist_samples_.push_back(std::move(s));
      last = io.ms - (this_window - hist_msec_);
    }
  }
}

void JobLogs::OnBwWindow(uint64_t ms, int dir, uint64_t rate) {
  if (bw_ && bw_->avg_msec) Add(bw_.get(), ms, rate, dir, 0, 0);
}

void JobLogs::OnIopsWindow(uint64_t ms, int dir, uint64_t rate) {
  if (iops_ && iops_->avg_msec) Add(iops_.get(), ms, rate, dir, 0, 0);
}

void JobLogs::Finish(uint64_t ms) {
  for (Log* log : {lat_.get(), slat_.get(), clat_.get(), bw_.get(), iops_.get()}) {
    if (!log) continue;
    for (int d = 0; d < 3; ++d) Flush(log, d, ms);
  }
}

// fio's flush_samples(): the priority as 0x%04x with log_prio=1, else 1
// for the RT class (ioprio_value_is_class_rt()) and 0 otherwise.
Status JobLogs::WriteLog(const std::string& dir, const Log& log) const {
  const std::string path = dir.empty() ? log.file : dir + "/" + log.file;
  File out;
  out.f = std::fopen(path.c_str(), append_ ? "a" : "w");
  if (!out.f) return CannotWrite(path);
  char prio[16];
  for (const Sample& s : log.samples) {
    if (log_prio_) {
      std::snprintf(prio, sizeof(prio), "0x%04x", s.prio);
    } else {
      std::snprintf(prio, sizeof(prio), "%d", (s.prio >> 13) == 1 ? 1 : 0);
    }
    if (log_offset_) {
      std::fprintf(out.f, "%" PRIu64 ", %" PRIu64 ", %d, %" PRIu64 ", %" PRIu64 ", %s\n", s.ms,
                   s.val, s.dir, s.bs, s.offset, prio);
    } else {
      std::fprintf(out.f, "%" PRIu64 ", %" PRIu64 ", %d, %" PRIu64 ", %s\n", s.ms, s.val, s.dir,
                   s.bs, prio);
    }
  }
  if (std::fflush(out.f) != 0 || std::ferror(out.f)) return CannotWrite(path);
  return Status();
}

// fio's flush_hist_samples(): buckets summed `1 << coarseness` at a time.
Status JobLogs::WriteHist(const std::string& dir) const {
  const std::string path = dir.empty() ? hist_file_ : dir + "/" + hist_file_;
  File out;
  out.f = std::fopen(path.c_str(), append_ ? "a" : "w");
  if (!out.f) return CannotWrite(path);
  const unsigned stride = 1u << hist_coarseness_;
  const unsigned n = LatencyHistogram::kBuckets;
  for (const HistSample& s : hist_samples_) {
    std::fprintf(out.f, "%" PRIu64 ", %d, %" PRIu64 ", ", s.ms, s.dir, s.bs);
    for (unsigned j = 0; j < n; j += stride) {
      uint64_t sum = 0;
      for (unsigned k = 0; k < stride; ++k) sum += s.counts[j + k];
      std::fprintf(out.f, j + stride < n ? "%" PRIu64 ", " : "%" PRIu64 "\n", sum);
    }
  }
  if (std::fflush(out.f) != 0 || std::ferror(out.f)) return CannotWrite(path);
  return Status();
}

Status JobLogs::CheckWritable(const std::string& dir) const {
  std::vector<std::string> files;
  for (const Log* log : {bw_.get(), lat_.get(), slat_.get(), clat_.get(), iops_.get()}) {
    if (log) files.push_back(log->file);
  }
  if (hist_) files.push_back(hist_file_);
  for (const auto& f : files) {
    const std::string path = dir.empty() ? f : dir + "/" + f;
    const size_t slash = path.rfind('/');
    const std::string parent = slash == std::string::npos ? "." : path.substr(0, slash + 1);
    if (access(parent.c_str(), W_OK) != 0) return CannotWrite(path);
  }
  return Status();
}

Status JobLogs::Write(const std::string& dir) const {
  // fio's log_types order: bw, lat, slat, clat, iops, clat_hist.
  for (const Log* log : {bw_.get(), lat_.get(), slat_.get(), clat_.get(), iops_.get()}) {
    if (log) RETURN_IF_ERROR(WriteLog(dir, *log));
  }
  if (hist_) RETURN_IF_ERROR(WriteHist(dir));
  return Status();
}

}  // namespace storlab::fio
