// RunSampler: a fio run's figures over simulated time, for the report
// (storlab sim --report) and its CSV (report_series.h).
//
// It samples at a fixed simulated interval: every job's bytes per
// direction, every node's bytes, busy time and requests in flight (NodeStats),
// and the model figures that show a volatile cache or an SSD's state
// (dirty bytes and their limits, SLC fill, GC copies). It is driven by
// FioRun::SetObserver: it reads the stack between two events, when the
// state is the one it has at every sample time up to the next event, and
// schedules nothing, so a run with a sampler is the same run. It starts
// at 100 µs and, past kMaxPoints samples, keeps every other one and
// doubles the interval (the figures are cumulative or instantaneous, so
// nothing is lost but resolution). Not thread-safe.
#ifndef STORLAB_WORKLOADS_REPORT_RUN_SAMPLER_H_
#define STORLAB_WORKLOADS_REPORT_RUN_SAMPLER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/node.h"
#include "sim/time.h"
#include "workloads/fio/fio_run.h"

namespace storlab::report {

class RunSampler {
 public:
  // How a column's samples become a figure.
  enum class Kind {
    kRate,   // a cumulative count of bytes: its change per second
    kBusy,   // cumulative busy ns: the busy fraction of each interval
    kDepth,  // requests in flight at the sample time (NodeStats::in_flight)
    kGauge,  // an instantaneous value (bytes held)
    kLimit,  // an instantaneous limit, drawn dashed beside its gauges
  };
  struct Column {
    std::string node;    // the node's name, or "" for a job's column
    std::string figure;  // "write", "bytes", "busy", "dirty_bytes", ...
    Kind kind;
    std::vector<double> values;  // one per sample
  };
  // A node's request counts at the jobs' start (the layout's I/O is
  // before it), to report the jobs' own.
  struct Counts {
    uint64_t reads = 0, read_bytes = 0, writes = 0, write_bytes = 0, flushes = 0;
  };
  static constexpr size_t kMaxPoints = 1000;

  // REQUIRES: run.Prepare() done, run.Run() not started; `start` is the
  // jobs' start (the engine's time now).
  RunSampler(fio::FioRun& run, Nanos start);
  RunSampler(const RunSampler&) = delete;
  RunSampler& operator=(const RunSampler&) = delete;

  // Takes every sample due before `until` (the stack does not change
  // before then). For FioRun::SetObserver.
  void Observe(Nanos until);
  // The last sample, at the jobs' end.
  void Finish(Nanos end);

  Nanos start() const { return start_; }
  // Sample times, relative to the start.
  const std::vector<Nanos>& times() const { return times_; }
  const std::vector<Column>& columns() const { return columns_; }
  // Column `c`'s figure per sample (rates in bytes/s, busy as a fraction;
  // the first sample of a cumulative column is 0).
  std::vector<double> Figures(const Column& c) const;
  // The largest value of a gauge column (0 when absent).
  double Peak(const std::string& node, const std::string& figure) const;
  const Column* Find(const std::string& node, const std::string& figure) const;
  // `node`'s counts from the start to now.
  Counts Since(const Node& node) const;

 private:
  void Sample(Nanos t);
  void Thin();

  fio::FioRun& run_;
  Nanos start_;
  Nanos interval_;
  Nanos next_;
  std::vector<Nanos> times_;
  std::vector<Column> columns_;
  // Which job-section columns each runner adds to (2 per section: read, write).
  std::vector<size_t> runner_column_;
  std::vector<std::pair<const Node*, Counts>> at_start_;  // the stack's order
};

}  // namespace storlab::report

#endif  // STORLAB_WORKLOADS_REPORT_RUN_SAMPLER_H_
