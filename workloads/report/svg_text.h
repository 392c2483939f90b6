// The SVG pieces the run report's charts share: a coordinate, and a text
// element. Thread-safe.
#ifndef STORLAB_WORKLOADS_REPORT_SVG_TEXT_H_
#define STORLAB_WORKLOADS_REPORT_SVG_TEXT_H_

#include <string>

namespace storlab::report {

// A coordinate with one decimal ("12.5").
std::string Num(double v);
// <text x y text-anchor class>s</text>, `s` HTML-escaped.
std::string Text(double x, double y, const std::string& s, const char* anchor = "start",
                 const char* cls = "");

}  // namespace storlab::report

#endif  // STORLAB_WORKLOADS_REPORT_SVG_TEXT_H_
