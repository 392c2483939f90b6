#include "workloads/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <utility>

#include "workloads/report/svg_text.h"

namespace storlab::report {
namespace {

constexpr double kWidth = 760, kHeight = 230;
constexpr double kLeft = 64, kRight = 12, kTop = 28, kBottom = 34;
constexpr double kLegendRow = 16;
// Colour-blind-safe palette (Okabe-Ito), then greys.
constexpr const char* kColors[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                   "#56B4E9", "#F0E442", "#000000", "#777777", "#AAAAAA"};

// A tick label: at most 4 significant digits, no trailing zeros.
std::string Label(double v) {
  char buf[32];
  const bool whole = v >= 1e4 && v < 1e12 && v == std::floor(v);
  std::snprintf(buf, sizeof buf, whole ? "%.0f" : "%.4g", v);
  return buf;
}

// A "nice" step (1, 2 or 5 × 10^k) for about `n` ticks up to `max`.
double NiceStep(double max, int n) {
  if (max <= 0) return 1;
  const double raw = max / n;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * p) return m * p;
  }
  return 10 * p;
}

std::string Line(double x1, double y1, double x2, double y2, const char* cls) {
  return "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) + "\" y2=\"" +
         Num(y2) + "\" class=\"" + cls + "\"/>";
}

// The frame, title and y axis up to `ymax` (rounded up to a tick).
// Returns the rounded maximum.
double Axes(std::string& s, const std::string& title, const std::string& unit, double ymax,
            double height) {
  const double step = NiceStep(ymax, 4);
  const double top = std::max(step, std::ceil(ymax / step - 1e-9) * step);
  const double plot_h = height - kTop - kBottom;
  s += Text(kLeft, 18, title, "start", "title");
  s += Text(8, kTop - 6, unit, "start", "unit");
  for (double v = 0; v <= top * (1 + 1e-9); v += step) {
    const double y = kTop + plot_h * (1 - v / top);
    s += Line(kLeft, y, kWidth - kRight, y, "grid");
    s += Text(kLeft - 4, y + 4, Label(v), "end");
  }
  s += Line(kLeft, kTop + plot_h, kWidth - kRight, kTop + plot_h, "axis");
  s += Line(kLeft, kTop, kLeft, kTop + plot_h, "axis");
  return top;
}

// A log y axis from `lo` to `hi` (powers of ten), a line per decade.
void LogAxes(std::string& s, const std::string& title, const std::string& unit, double lo,
             double hi, double height) {
  const double plot_h = height - kTop - kBottom;
  s += Text(kLeft, 18, title, "start", "title");
  s += Text(8, kTop - 6, unit + " (log)", "start", "unit");
  const double decades = std::log10(hi / lo);
  for (double v = lo; v <= hi * (1 + 1e-9); v *= 10) {
    const double y = kTop + plot_h * (1 - std::log10(v / lo) / decades);
    s += Line(kLeft, y, kWidth - kRight, y, "grid");
    s += Text(kLeft - 4, y + 4, Label(v), "end");
  }
  s += Line(kLeft, kTop + plot_h, kWidth - kRight, kTop + plot_h, "axis");
  s += Line(kLeft, kTop, kLeft, kTop + plot_h, "axis");
}

std::string Open(double height) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + Num(kWidth) +
         "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(kWidth) + " " + Num(height) +
         "\">";
}

}  // namespace

std::string HtmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::pair<double, std::string> ByteUnit(double max_bytes) {
  if (max_bytes >= 1e9) return {1e9, "GB"};
  if (max_bytes >= 1e6) return {1e6, "MB"};
  if (max_bytes >= 1e3) return {1e3, "kB"};
  return {1, "bytes"};
}

std::string SvgLineChart(const LineChart& c) {
  const size_t legend_rows = (c.series.size() + 1) / 2;
  const double legend_h = kLegendRow * static_cast<double>(legend_rows) + 10;
  const double height = kHeight + legend_h;
  const double plot_h = kHeight - kTop - kBottom;
  const double plot_w = kWidth - kLeft - kRight;
  double ymax = 0, xmax = 0;
  for (const auto& sr : c.series) {
    for (double v : sr.y) ymax = std::max(ymax, v);
  }
  for (double x : c.x) xmax = std::max(xmax, x);
  for (const auto& sp : c.spans) xmax = std::max(xmax, sp.to_s);
  if (xmax <= 0) xmax = 1;
  std::string s = Open(height);
  double top = 0, lo = 0;
  if (c.log_y && ymax > 0) {
    top = std::pow(10.0, std::ceil(std::log10(ymax) - 1e-9));
    double min_pos = top;
    for (const auto& sr : c.series) {
      for (double v : sr.y) {
        if (v > 0) min_pos = std::min(min_pos, v);
      }
    }
    lo = std::max(top / 1e5, std::pow(10.0, std::floor(std::log10(min_pos))));
    if (lo >= top) lo = top / 10;
    LogAxes(s, c.title, c.unit, lo, top, kHeight);
  } else {
    top = Axes(s, c.title, c.unit, ymax, kHeight);
  }
  auto px = [&](double x) { return kLeft + plot_w * x / xmax; };
  auto py = [&](double y) {
    if (lo == 0) return kTop + plot_h * (1 - y / top);
    return y <= lo ? kTop + plot_h
                   : kTop + plot_h * (1 - std::log10(y / lo) / std::log10(top / lo));
  };
  for (const auto& sp : c.spans) {
    s += "<rect class=\"span\" x=\"" + Num(px(sp.from_s)) + "\" y=\"" + Num(kTop) + "\" width=\"" +
         Num(std::max(1.0, px(sp.to_s) - px(sp.from_s))) + "\" height=\"" + Num(plot_h) + "\"/>";
    s += Text(px(sp.from_s) + 3, kTop + 12, sp.label, "start", "spanlabel");
  }
  const double xstep = NiceStep(xmax, 8);
  for (double x = 0; x <= xmax * (1 + 1e-9); x += xstep) {
    s += Line(px(x), kTop + plot_h, px(x), kTop + plot_h + 4, "axis");
    s += Text(px(x), kTop + plot_h + 16, Label(x), "middle");
  }
  s += Text(kWidth - kRight, kTop + plot_h + 30, "simulated time, s", "end", "unit");
  for (size_t i = 0; i < c.series.size(); ++i) {
    const auto& sr = c.series[i];
    const char* color = kColors[i % std::size(kColors)];
    std::string pts;
    for (size_t k = 0; k < sr.y.size() && k < c.x.size(); ++k) {
      pts += (k ? " " : "") + Num(px(c.x[k])) + "," + Num(py(sr.y[k]));
    }
    s += "<polyline class=\"series\" fill=\"none\" stroke=\"" + std::string(color) +
         "\" stroke-width=\"1.5\"" + (sr.dashed ? " stroke-dasharray=\"6 4\"" : "") + " points=\"" +
         pts + "\"/>";
    const double lx = kLeft + static_cast<double>(i % 2) * (plot_w / 2);
    const size_t row = i / 2;
    const double ly = kHeight + 10 + kLegendRow * static_cast<double>(row) - 4;
    s += "<line x1=\"" + Num(lx) + "\" y1=\"" + Num(ly - 4) + "\" x2=\"" + Num(lx + 18) +
         "\" y2=\"" + Num(ly - 4) + "\" stroke=\"" + color + "\" stroke-width=\"2\"" +
         (sr.dashed ? " stroke-dasharray=\"4 3\"" : "") + "/>";
    s += Text(lx + 22, ly, sr.label, "start", "legend");
  }
  return s + "</svg>\n";
}

std::string SvgBarChart(const std::string& title, const std::string& unit,
                        const std::vector<Bar>& bars) {
  const double plot_h = kHeight - kTop - kBottom;
  const double plot_w = kWidth - kLeft - kRight;
  double ymax = 0;
  for (const auto& b : bars) ymax = std::max(ymax, b.value);
  std::string s = Open(kHeight);
  const double top = Axes(s, title, unit, ymax, kHeight);
  const double w = bars.empty() ? 0 : plot_w / static_cast<double>(bars.size());
  for (size_t i = 0; i < bars.size(); ++i) {
    const double h = plot_h * bars[i].value / top;
    const double x = kLeft + w * static_cast<double>(i);
    s += "<rect class=\"bar\" x=\"" + Num(x + 1) + "\" y=\"" + Num(kTop + plot_h - h) +
         "\" width=\"" + Num(std::max(1.0, w - 2)) + "\" height=\"" + Num(h) + "\"/>";
    if (!bars[i].label.empty()) {
      s += Text(x + w / 2, kTop + plot_h + 16, bars[i].label, "middle", "small");
    }
  }
  return s + "</svg>\n";
}

}  // namespace storlab::report
