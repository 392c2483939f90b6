// The report's time series: which of a run's sampled figures (RunSampler)
// the page draws, chart by chart — the jobs' and the links' and devices'
// throughput, what each volatile cache holds and its limits, an SSD's SLC
// fill and garbage collection, queue depth, busy — and the same series as
// CSV for gnuplot (`storlab sim --report-csv FILE`, and FILE.csv beside
// `--report FILE.html`): `time_s`, then one column per series drawn, in
// the charts' order (a series drawn twice once), each named as its legend
// with its unit in brackets (`"disk bytes [bytes/s]"`). Thread-compatible.
#ifndef STORLAB_WORKLOADS_REPORT_REPORT_SERIES_H_
#define STORLAB_WORKLOADS_REPORT_REPORT_SERIES_H_

#include <string>
#include <vector>

#include "workloads/fio/fio_run.h"
#include "workloads/report/run_sampler.h"

namespace storlab::report {

// One chart: its series, and how they are drawn (bytes scaled to one unit
// when `factor` is 0, else `unit` with `factor`).
struct ChartPlan {
  std::string title;
  std::vector<const RunSampler::Column*> cols;
  std::string unit;
  double factor = 0;
  bool log_y = false;
};

// REQUIRES: run.Run() done and sampler.Finish() called.
std::vector<ChartPlan> PlanCharts(fio::FioRun& run, const RunSampler& sampler);
// A series' name, as the chart's legend shows it.
std::string SeriesLabel(const RunSampler::Column& c);
// The unit of a column's figures (RunSampler::Figures): "bytes/s", ...
const char* SeriesUnit(const RunSampler::Column& c);
// The drawn series as CSV: a header line, then one line per sample.
std::string ReportCsv(fio::FioRun& run, const RunSampler& sampler);

}  // namespace storlab::report

#endif  // STORLAB_WORKLOADS_REPORT_REPORT_SERIES_H_
