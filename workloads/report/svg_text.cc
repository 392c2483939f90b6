#include "workloads/report/svg_text.h"

#include <cstdio>

#include "workloads/report/svg_chart.h"

namespace storlab::report {

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string Text(double x, double y, const std::string& s, const char* anchor, const char* cls) {
  return "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" text-anchor=\"" + anchor + "\" class=\"" +
         cls + "\">" + HtmlEscape(s) + "</text>";
}

}  // namespace storlab::report
