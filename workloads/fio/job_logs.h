// JobLogs: one job's fio logs — write_bw_log, write_lat_log (lat, slat and
// clat), write_iops_log, write_hist_log — collected in simulated time and
// written when the run is done, as fio 3.33 writes them (stat.c
// add_log_sample, iolog.c flush_samples / flush_hist_samples):
//
//   files  PREFIX_bw.N.log, PREFIX_lat.N.log, PREFIX_slat.N.log,
//          PREFIX_clat.N.log, PREFIX_iops.N.log, PREFIX_clat_hist.N.log
//          (N the job's number; PREFIX_TYPE.log with per_job_logs=0, which
//          appends as fio does). PREFIX is the option's value or the job's name.
//   lines  "msec, value, ddir, bs, prio" ("msec, value, ddir, bs, offset,
//          prio" with log_offset=1; prio as 0x%04x with log_prio=1); msec
//          since the job's epoch (after ramp_time). With log_avg_msec=N
//          each line is the mean (or, with log_max_value=1, the maximum)
//          over N ms, and bs and offset are 0.
//          The histogram log: "msec, ddir, bs, count, count, ..." — the
//          completion latencies since its previous line, in fio's buckets
//          (1856 >> log_hist_coarseness columns), every log_hist_msec.
//
// bw and iops: without log_avg_msec there is one line per I/O (bw: its bytes
// over its completion latency, in fio's units; iops: 1); with it, the job's
// bandwidth and IOPS windows are log_avg_msec long (fio's bw_avg_time /
// iops_avg_time follow it) and each window is a line.
// Not thread-safe; the JobRunner's.
#ifndef STORLAB_WORKLOADS_FIO_JOB_LOGS_H_
#define STORLAB_WORKLOADS_FIO_JOB_LOGS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/histogram.h"
#include "sim/status.h"
#include "workloads/fio/options.h"
#include "workloads/fio/thread_stat.h"

namespace storlab::fio {

class JobLogs {
 public:
  // nullptr when the job writes no log.
  static std::unique_ptr<JobLogs> Make(const JobOptions& o, const std::string& job_name,
                                       int thread_number);
  JobLogs(const JobLogs&) = delete;
  JobLogs& operator=(const JobLogs&) = delete;
  ~JobLogs();

  // One line per I/O for bw (iops): write_bw_log (write_iops_log) without
  // log_avg_msec. The runner then takes its bw (iops) figures per I/O too.
  bool bw_per_io() const { return bw_ && !bw_->avg_msec; }
  bool iops_per_io() const { return iops_ && !iops_->avg_msec; }
  // The bw (iops) window when that log averages: log_avg_msec, or
  // min(log_avg_msec, bwavgtime) when bwavgtime was given (init.c
  // setup_log()); 0: fio's 500 ms.
  uint64_t bw_window_ms() const { return bw_ ? bw_->avg_msec : 0; }
  uint64_t iops_window_ms() const { return iops_ ? iops_->avg_msec : 0; }
  // log_unix_epoch / log_alternate_epoch: the simulated clock's
  // milliseconds at the job's epoch, added to the lines' times from now on
  // (fio's td->alternate_epoch, stat.c __add_log_sample()).
  void SetEpochMs(uint64_t ms) { epoch_ms_ = ms; }

  struct Io {
    uint64_t ms;  // completion, since the epoch
    int dir;
    uint64_t bs, offset;
    uint32_t prio;  // io_u->ioprio
    uint64_t clat_ns, lat_ns;
    bool has_slat;
    uint64_t slat_ms, slat_ns;  // slat's time is the issue's
    uint64_t bw_rate;           // bytes * 10^6 / clat_ns, fio's per-I/O rate
    // What disable_lat / disable_clat / disable_bw / gtod_reduce leave
    // (io_u.c account_io_completion).
    bool has_lat = true, has_clat = true, has_bw = true, has_iops = true;
  };
  // A completed I/O after ramp_time; `clat` is the job's completion latency
  // histogram for that direction, including this I/O.
  void OnIo(const Io& io, const LatencyHistogram& clat);
  // A bandwidth (KiB/s) or IOPS window sample at `ms`.
  void OnBwWindow(uint64_t ms, int dir, uint64_t rate);
  void OnIopsWindow(uint64_t ms, int dir, uint64_t rate);
  // The job is done at `ms`: fio's finalize_logs() flushes the averages.
  void Finish(uint64_t ms);
  // Whether the files' directories can be written to, before a run (an
  // error naming the file).
  Status CheckWritable(const std::string& dir = "") const;
  // Writes the files in `dir` ("": the current directory, as fio does).
  Status Write(const std::string& dir = "") const;

 private:
  struct Sample {
    uint64_t ms;
    uint64_t val;
    int dir;
    uint64_t bs, offset;
    uint32_t prio;
  };
  struct Log {
    std::string file;
    bool inline_log = false;  // lat/slat/clat: no slack on the window
    uint64_t avg_msec = 0;    // its averaging window (0: a line per I/O)
    std::vector<Sample> samples;
    std::array<IoStat, 3> window;
    std::array<uint64_t, 3> avg_last{};
  };
  struct HistSample {
    uint64_t ms;
    int dir;
    uint64_t bs;
    std::vector<uint64_t> counts;  // per bucket, since the previous sample
  };

  JobLogs() = default;
  void Add(Log* log, uint64_t ms, uint64_t val, int dir, uint64_t bs, uint64_t offset,
           uint32_t prio = 0);
  void Flush(Log* log, int dir, uint64_t ms);
  Status WriteLog(const std::string& dir, const Log& log) const;
  Status WriteHist(const std::string& dir) const;

  uint64_t epoch_ms_ = 0;
  bool log_max_ = false, log_offset_ = false, log_prio_ = false, append_ = false;
  std::unique_ptr<Log> bw_, lat_, slat_, clat_, iops_;
  // write_hist_log
  std::string hist_file_;
  bool hist_ = false;
  uint64_t hist_msec_ = 0;
  int hist_coarseness_ = 0;
  std::array<uint64_t, 3> hist_last_{};
  std::array<std::vector<uint64_t>, 3> hist_before_;
  std::vector<HistSample> hist_samples_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_JOB_LOGS_H_
