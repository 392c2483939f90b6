// Fmt: one number printed with a printf format ("%.1f GB"), for the demo's
// explanations and the run reports. Thread-safe.
#ifndef STORLAB_WORKLOADS_TEXT_FORMAT_H_
#define STORLAB_WORKLOADS_TEXT_FORMAT_H_

#include <cstdio>
#include <string>

namespace storlab {

// REQUIRES: `fmt` takes exactly one double and prints under 64 bytes.
inline std::string Fmt(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace storlab

#endif  // STORLAB_WORKLOADS_TEXT_FORMAT_H_
