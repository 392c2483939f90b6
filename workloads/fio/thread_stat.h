// ThreadStat: what fio counts for one job (or one group of jobs with
// group_reporting), mirroring fio's struct thread_stat, and GroupStat, its
// "Run status group" (struct group_run_stats). Merging follows fio's
// sum_thread_stats(): latencies combine as distributions, bandwidth and IOPS
// samples add up (pure sum), runtimes take the maximum.
// Thread-compatible.
#ifndef STORLAB_WORKLOADS_FIO_THREAD_STAT_H_
#define STORLAB_WORKLOADS_FIO_THREAD_STAT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/histogram.h"
#include "workloads/fio/block_infos.h"

namespace storlab::fio {

class SteadyState;  // steadystate.h

constexpr int kRead = 0, kWrite = 1, kTrim = 2;
// fio's unified_rw_reporting (UNIFIED_SPLIT, _MIXED, _BOTH) and the units
// of its num2str() (enum n2s_unit: N2S_NONE, N2S_BYTEPERSEC, N2S_BITPERSEC).
constexpr int kUnifiedSplit = 0, kUnifiedMixed = 1, kUnifiedBoth = 2;
constexpr int kN2sNone = 0, kN2sBytePerSec = 4, kN2sBitPerSec = 5;

// fio's struct io_stat without a histogram (bandwidth and IOPS samples).
struct IoStat {
  uint64_t min = UINT64_MAX;
  uint64_t max = 0;
  uint64_t samples = 0;
  double mean = 0;
  double s = 0;

  void Add(uint64_t v);
  // fio's sum_stat(..., pure_sum=true): group figures add up.
  void Sum(const IoStat& o);
  double stddev() const;
};

// fio's struct clat_prio_stat: the completion latencies (the total ones
// with lat_percentiles) of the I/Os of one priority.
struct PrioStat {
  uint32_t ioprio = 0;  // class << 13 | level
  LatencyHistogram lat;
};

struct DirStat {
  uint64_t io_bytes = 0;
  uint64_t total_ios = 0;  // issued
  uint64_t short_ios = 0;
  uint64_t drop_ios = 0;
  uint64_t runtime_ms = 0;
  LatencyHistogram slat, clat, lat;
  IoStat bw;    // KiB/s per bw_avg_time window
  IoStat iops;  // per iops_avg_time window
  // fio's clat_prio[ddir] (engines/cmdprio.c init_ts_clat_prio()): with
  // cmdprio, the job's priority first, then each cmdprio value; empty
  // otherwise. Reported when two of them have samples.
  std::vector<PrioStat> prios;
  void AddPrio(uint32_t ioprio, uint64_t nsec);
  size_t prios_with_samples() const;
};

struct ThreadStat {
  std::string name;
  std::string description;
  int groupid = 0;
  int error = 0;       // errno of the first error
  std::string verror;  // fio's "file:io_u.c:..., func=..., error=..."
  // continue_on_error (error_policy.h): fio's ts->continue_on_error (the
  // error types a job goes on after; nonzero: the errors are reported),
  // total_err_count and first_error.
  uint32_t continue_on_error = 0;
  uint64_t total_err_count = 0;
  int first_error = 0;
  // steadystate: the samples and the verdict (fio's ts->ss_*); set on a
  // report by FioRun::Reports(), null without ss_dur.
  const SteadyState* ss = nullptr;
  int members = 0;
  std::array<DirStat, 3> dir;
  uint64_t sync_total = 0;
  LatencyHistogram sync_lat;
  std::array<uint64_t, 7> io_u_map{}, io_u_submit{}, io_u_complete{};
  uint64_t total_submit = 0, total_complete = 0;
  std::array<uint64_t, 10> lat_n{}, lat_u{};
  std::array<uint64_t, 12> lat_m{};
  uint64_t total_run_time_ms = 0;
  uint64_t usr_time_ms = 0, sys_time_ms = 0;
  uint64_t ctx = 0, majf = 0, minf = 0;
  uint32_t latency_depth = 1;
  // latency_target's: ns, µs, percent (fio's ts->latency_target, ...).
  uint64_t latency_target = 0, latency_window = 0;
  double latency_percentile = 100.0;
  // What the reports show (fio's percentile_list, clat_percentiles,
  // lat_percentiles, slat_percentiles): a sorted list, and which latencies
  // get percentiles. A group takes its first job's.
  std::vector<double> percentile_list = LatencyHistogram::DefaultPercentiles();
  bool clat_percentiles = true, lat_percentiles = false, slat_percentiles = false;
  int percentile_precision = 2;  // decimals of the list in the normal output
  // block_error_percentiles (block_infos.h): a group takes its last job's.
  BlockInfos blocks;
  // How the reports show it (fio's ts->unified_rw_rep, kb_base, unit_base,
  // sig_figs): the first member's. With kUnifiedMixed, Merge() sums every
  // direction into dir[kRead] (fio's sum_thread_stats()).
  int unified_rw_rep = kUnifiedSplit;
  int kb_base = 1024;
  int unit_base = kN2sBytePerSec;
  int sig_figs = 4;

  // fio's io_u_mark_depth(): the depth at submit, including this I/O.
  void MarkDepth(uint32_t cur_depth);
  void MarkSubmit(uint32_t nr);
  void MarkComplete(uint32_t nr);
  // fio's io_u_mark_latency(): completion latency into the ns/us/ms buckets.
  void MarkLatency(uint64_t nsec);
  // Clears what fio's reset_io_stats() clears (the end of ramp_time).
  void ResetIo();
  // sum_thread_stats(this, src).
  void Merge(const ThreadStat& src);
  // stat.c gen_mixed_ddir_stats_from_ts() (unified_rw_reporting=both): the
  // directions summed into dir[kRead]. As in fio, kb_base, unit_base and
  // sig_figs are left 0, so its normal line shows "IOPS=0, BW=0 (0)(0B/...)".
  ThreadStat Mixed() const;
};

struct GroupStat {
  int groupid = 0;
  // The members' reporting settings (fio's rs->kb_base, unit_base,
  // sig_figs: the last member's; unified_rw_rep: OR of them all).
  int unified_rw_rep = kUnifiedSplit, kb_base = 1024, unit_base = kN2sBytePerSec, sig_figs = 4;
  std::array<uint64_t, 3> min_run{}, max_run{}, min_bw{}, max_bw{}, iobytes{}, agg{};
  // Accumulates one (possibly merged) thread stat, as __show_run_stats does.
  void Add(const ThreadStat& ts);
  // Computes agg = iobytes / max_run, after every Add.
  void Finish();
};

// fio's stat_calc_dist / stat_calc_lat: percentages with their floors.
std::array<double, 7> CalcDist(const std::array<uint64_t, 7>& map, uint64_t total);
template <size_t N>
std::array<double, N> CalcLat(const std::array<uint64_t, N>& src, uint64_t total) {
  std::array<double, N> out{};
  for (size_t i = 0; i < N; ++i) {
    if (!total) continue;
    out[i] = static_cast<double>(src[i]) / static_cast<double>(total) * 100.0;
    if (out[i] < 0.01 && src[i]) out[i] = 0.01;
  }
  return out;
}

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_THREAD_STAT_H_
