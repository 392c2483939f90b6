#include "workloads/report/html_report.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>

#include "sim/histogram.h"
#include "sim/node.h"
#include "sim/quoted.h"
#include "workloads/report/report_series.h"
#include "workloads/report/stack_tree.h"
#include "workloads/report/svg_chart.h"
#include "workloads/text_format.h"

namespace storlab::report {
namespace {

using Kind = RunSampler::Kind;

constexpr const char kStyle[] = R"(<style>
body{font:14px/1.4 sans-serif;margin:16px 24px;color:#222;max-width:1100px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 6px;border-bottom:1px solid #ccc}
table.jobs{border-collapse:collapse}table.jobs td,table.jobs th{padding:2px 10px;text-align:right}
table.jobs th{background:#eee}table.jobs td:first-child{text-align:left}
p.explain{background:#fff6e0;border-left:4px solid #E69F00;padding:8px 12px}
ul.tree,ul.tree ul{list-style:none;margin:0;padding-left:22px}
ul.tree>li{padding-left:0}ul.tree li{position:relative;margin:4px 0}
ul.tree ul>li::before{content:"";position:absolute;left:-14px;top:0;height:14px;width:12px;
border-left:1px solid #999;border-bottom:1px solid #999}
div.node{display:inline-block;border:1px solid #888;border-radius:4px;padding:3px 8px;background:#f4f8fc}
div.node b{color:#0072B2}div.node span{color:#555;font-size:12px}
svg.chart{display:block;margin:6px 0 12px;background:#fff}
svg text{font:11px sans-serif;fill:#222}svg text.title{font-size:13px;font-weight:bold}
svg text.unit,svg text.small{fill:#555;font-size:10px}svg text.spanlabel{fill:#a33}
svg .grid{stroke:#e4e4e4}svg .axis{stroke:#444}svg rect.span{fill:#f6d5d5}
svg rect.bar{fill:#0072B2}
</style>
)";

std::vector<double> Seconds(const RunSampler& s) {
  std::vector<double> x;
  for (Nanos t : s.times()) x.push_back(t.seconds());
  return x;
}

std::vector<double> Scaled(std::vector<double> v, double by) {
  for (double& x : v) x *= by;
  return v;
}

std::string JobsTable(fio::FioRun& run) {
  std::string s =
      "<table class=\"jobs\"><tr><th>job</th><th>direction</th><th>MB/s</th><th>IOPS</th>"
      "<th>ios</th><th>runtime, ms</th><th>mean clat, µs</th></tr>\n";
  for (const auto& rep : run.Reports()) {
    for (int d = 0; d < 2; ++d) {
      const fio::DirStat& ds = rep.ts.dir[d];
      if (!ds.io_bytes) continue;
      const double secs = static_cast<double>(ds.runtime_ms) / 1000;
      s += "<tr><td>" + HtmlEscape(rep.ts.name) + "</td><td>" + (d ? "write" : "read") +
           "</td><td>" + Fmt("%.1f", secs > 0 ? static_cast<double>(ds.io_bytes) / secs / 1e6 : 0) +
           "</td><td>" + Fmt("%.0f", secs > 0 ? static_cast<double>(ds.clat.samples()) / secs : 0) +
           "</td><td>" + Fmt("%.0f", static_cast<double>(ds.clat.samples())) + "</td><td>" +
           Fmt("%.0f", static_cast<double>(ds.runtime_ms)) + "</td><td>" +
           Fmt("%.1f", ds.clat.mean() / 1000) + "</td></tr>\n";
    }
  }
  return s + "</table>\n";
}

// end_fsync: from the first job's last I/O to the last job's end.
std::vector<ChartSpan> FsyncTail(fio::FioRun& run, Nanos start) {
  bool any = false;
  Nanos from = Nanos::Max(), to;
  for (const auto& r : run.runners()) {
    const auto& e = r->extras();
    if (e.end_fsync <= Nanos()) continue;
    any = true;
    from = Min(from, e.io_end);
    to = Max(to, e.end);
  }
  if (!any) return {};
  return {{(from - start).seconds(), (to - start).seconds(), "end_fsync"}};
}

// The charts of PlanCharts(), bytes scaled to one unit (or as planned).
std::string Charts(fio::FioRun& run, const RunSampler& s) {
  const std::vector<ChartSpan> spans = FsyncTail(run, s.start());
  std::string out;
  for (const ChartPlan& p : PlanCharts(run, s)) {
    LineChart c{.title = p.title,
                .unit = p.unit,
                .x = Seconds(s),
                .series = {},
                .spans = spans,
                .log_y = p.log_y};
    double max = 0;
    std::vector<std::vector<double>> figs;
    for (const auto* col : p.cols) {
      figs.push_back(s.Figures(*col));
      for (double v : figs.back()) max = std::max(max, v);
    }
    double factor = p.factor;
    if (factor == 0) {
      auto [div, u] = ByteUnit(max);
      factor = 1 / div;
      c.unit = u + p.unit;
    }
    for (size_t i = 0; i < p.cols.size(); ++i) {
      c.series.push_back(
          {SeriesLabel(*p.cols[i]), Scaled(figs[i], factor), p.cols[i]->kind == Kind::kLimit});
    }
    out += SvgLineChart(c);
  }
  return out;
}

// A latency value as fio prints its units.
std::string Duration(double ns) {
  if (ns >= 1e9) return Fmt("%.3gs", ns / 1e9);
  if (ns >= 1e6) return Fmt("%.3gms", ns / 1e6);
  if (ns >= 1e3) return Fmt("%.3gµs", ns / 1e3);
  return Fmt("%.3gns", ns);
}

// fio's histogram (sim/histogram.h: 64 buckets per power of two), summed
// per power of two: the share of completions in each.
std::string Histograms(fio::FioRun& run) {
  std::string out;
  for (const auto& rep : run.Reports()) {
    for (int d = 0; d < 2; ++d) {
      const LatencyHistogram& h = rep.ts.dir[d].clat;
      if (!h.samples()) continue;
      std::map<int, double> by_power;
      for (unsigned i = 0; i < LatencyHistogram::kBuckets; ++i) {
        const uint64_t n = h.bucket(i);
        if (!n) continue;
        const uint64_t v = LatencyHistogram::IndexToValue(i);
        by_power[v ? 63 - __builtin_clzll(v) : 0] += static_cast<double>(n);
      }
      std::vector<Bar> bars;
      const int first = by_power.begin()->first, last = by_power.rbegin()->first;
      const int every = last - first >= 16 ? 2 : 1;
      for (int p = first; p <= last; ++p) {
        const double share = 100 * by_power[p] / static_cast<double>(h.samples());
        bars.push_back({(p - first) % every ? "" : Duration(std::ldexp(1.0, p)), share});
      }
      out += SvgBarChart("Completion latency of '" + rep.ts.name + "', " +
                             (d ? "writes" : "reads") + " (clat; bars from 2^k ns)",
                         "% of I/Os", bars);
    }
  }
  return out;
}

}  // namespace

std::string HtmlReport(fio::FioRun& run, const RunSampler& sampler, const ReportText& text) {
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
                  HtmlEscape(text.title) + "</title>\n" + kStyle + "</head><body>\n";
  s += "<h1>" + HtmlEscape(text.title) + "</h1>\n<p>Stack <b>" +
       HtmlEscape(run.host().stack().name()) + "</b>, seed " +
       std::to_string(run.host().stack().seed()) + ", " +
       Fmt("%.3f", (run.end_time() - sampler.start()).seconds()) +
       " s of simulated time, sampled every " +
       Duration(sampler.times().size() > 1
                    ? static_cast<double>((sampler.times()[1] - sampler.times()[0]).count())
                    : 0) +
       ".</p>\n";
  s += "<h2>The jobs</h2>\n" + JobsTable(run);
  s += "<h2>Where the bytes went</h2>\n";
  if (!text.explanation.empty()) {
    s += "<p class=\"explain\">" + HtmlEscape(text.explanation) + "</p>\n";
  } else {
    s += "<p>fio's figure is within 2× of the stack's narrowest link or device: nothing to "
         "explain.</p>\n";
  }
  if (!text.power_cuts.empty()) {
    s += "<h2>Power cuts</h2>\n<p>" + HtmlEscape(text.power_cuts) + "</p>\n" + text.cut_timeline;
  }
  s += "<h2>The stack</h2>\n<p>Requests and busy time from the jobs' start (the layout of "
       "their files before it not counted); hit rates and the largest queue depth since the "
       "stack was built.</p>\n" +
       StackTree(run.host().stack(), sampler);
  s += "<h2>Over simulated time</h2>\n" + Charts(run, sampler);
  s += "<h2>Latency histograms</h2>\n" + Histograms(run);
  return s + "</body></html>\n";
}

std::string CsvPathFor(const std::string& html_path) {
  const std::string ext = ".html";
  if (html_path.size() > ext.size() &&
      html_path.compare(html_path.size() - ext.size(), ext.size(), ext) == 0) {
    return html_path.substr(0, html_path.size() - ext.size()) + ".csv";
  }
  return html_path + ".csv";
}

namespace {
Status WriteFile(const std::string& path, const std::string& text,
                 const char* option = "--report") {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f << text;
  if (f) f.flush();
  if (!f) {
    return Status::IoError(std::string(option) + ": cannot write " + Quoted(path, 256) + ": " +
                           std::strerror(errno));
  }
  return Status();
}
}  // namespace

Status WriteReport(const std::string& html_path, const std::string& html, const std::string& csv) {
  RETURN_IF_ERROR(WriteFile(html_path, html));
  return WriteFile(CsvPathFor(html_path), csv);
}

Status WriteReportCsv(const std::string& path, const std::string& csv) {
  return WriteFile(path, csv, "--report-csv");
}

Status CheckReportPath(const std::string& html_path) { return WriteFile(html_path, ""); }

Status CheckReportCsvPath(const std::string& path) { return WriteFile(path, "", "--report-csv"); }

}  // namespace storlab::report
