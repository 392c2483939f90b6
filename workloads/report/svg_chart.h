// Inline SVG charts for the run report (html_report.h): a line chart over
// simulated time and a bar chart, each one self-contained <svg> element
// with its axes, ticks and legend drawn as SVG text (no script, no fonts
// or files from elsewhere). Pure functions; thread-safe.
#ifndef STORLAB_WORKLOADS_REPORT_SVG_CHART_H_
#define STORLAB_WORKLOADS_REPORT_SVG_CHART_H_

#include <string>
#include <string_view>
#include <vector>

namespace storlab::report {

struct ChartSeries {
  std::string label;
  std::vector<double> y;  // one per x, in the chart's unit
  bool dashed = false;    // a limit
};
// A marked stretch of time (the end_fsync tail).
struct ChartSpan {
  double from_s = 0, to_s = 0;
  std::string label;
};
struct LineChart {
  std::string title;
  std::string unit;       // of the y axis: "MB/s", "GB", "%", "depth"
  std::vector<double> x;  // seconds of simulated time
  std::vector<ChartSeries> series;
  std::vector<ChartSpan> spans;
  // A log y axis (decades, at most five below the largest value): for
  // figures that differ by orders of magnitude (the page cache's speed
  // against a 1GbE link's); values at or below its bottom sit on it.
  bool log_y = false;
};
struct Bar {
  std::string label;  // under the bar ("64µs"), may be empty
  double value = 0;
};

std::string SvgLineChart(const LineChart& chart);
// Vertical bars, `unit` on the y axis.
std::string SvgBarChart(const std::string& title, const std::string& unit,
                        const std::vector<Bar>& bars);
// `s` with &, <, >, " escaped for HTML text and attributes.
std::string HtmlEscape(std::string_view s);
// A byte count's unit for a chart whose largest value is `max_bytes`:
// {divisor, "GB"} (decimal units, as fio's MB/s).
std::pair<double, std::string> ByteUnit(double max_bytes);

}  // namespace storlab::report

#endif  // STORLAB_WORKLOADS_REPORT_SVG_CHART_H_
