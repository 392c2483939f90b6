// The run report of `storlab sim --report FILE.html` and `storlab demo
// --report DIR`: one self-contained HTML page (inline CSS and SVG, no
// script, nothing fetched) drawn from a finished fio run and its
// RunSampler: the jobs' figures, "where the bytes went", the stack as a
// tree with each node's figures, the time series (throughput, volatile
// caches and their limits, SSD SLC fill and GC, queue depth, busy), the
// end_fsync tail marked, and a latency histogram per job and direction.
// Thread-compatible.
#ifndef STORLAB_WORKLOADS_REPORT_HTML_REPORT_H_
#define STORLAB_WORKLOADS_REPORT_HTML_REPORT_H_

#include <string>

#include "sim/status.h"
#include "workloads/fio/fio_run.h"
#include "workloads/report/run_sampler.h"

namespace storlab::report {

struct ReportText {
  std::string title;         // the page's heading
  std::string explanation;   // "where the bytes went" ("" : within 2× of the limit)
  std::string power_cuts;    // the power cuts' summary paragraph ("" : none)
  std::string cut_timeline;  // HTML of cut_timeline.h ("" : none)
};

// REQUIRES: run.Run() done and sampler.Finish() called.
std::string HtmlReport(fio::FioRun& run, const RunSampler& sampler, const ReportText& text);
// FILE.html's series file: FILE.csv beside it (".csv" appended when the
// name does not end in ".html").
std::string CsvPathFor(const std::string& html_path);
// Writes the page to `html_path` and `csv` (report_series.h ReportCsv)
// beside it.
Status WriteReport(const std::string& html_path, const std::string& html, const std::string& csv);
// Writes `csv` to `path` (storlab sim --report-csv).
Status WriteReportCsv(const std::string& path, const std::string& csv);
// Checks before a run that `html_path` can be written (creates and keeps
// it empty), so a bad path fails before a long run, not after.
Status CheckReportPath(const std::string& html_path);
Status CheckReportCsvPath(const std::string& path);

}  // namespace storlab::report

#endif  // STORLAB_WORKLOADS_REPORT_HTML_REPORT_H_
