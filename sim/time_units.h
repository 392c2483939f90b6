// The units of a time as fio writes one (parse.c's time postfixes: runtime=,
// ramp_time=, thinktime= ...): shared by fio's option parser and the fault
// lines of storlab sim and the exports (sim/serve/fault_line.h), so both read
// "500ms" or "2m" alike. Pure functions, thread-safe.
#ifndef STORLAB_SIM_TIME_UNITS_H_
#define STORLAB_SIM_TIME_UNITS_H_

#include <string_view>

namespace storlab {

// Nanoseconds in one `unit` (lower case: ns, nsec, us, usec, ms, msec, s,
// sec, m, min, h, d); 0 for anything else.
inline double TimeUnitNanos(std::string_view unit) {
  if (unit == "ns" || unit == "nsec") return 1;
  if (unit == "us" || unit == "usec") return 1e3;
  if (unit == "ms" || unit == "msec") return 1e6;
  if (unit == "s" || unit == "sec") return 1e9;
  if (unit == "m" || unit == "min") return 60e9;
  if (unit == "h") return 3600e9;
  if (unit == "d") return 86400e9;
  return 0;
}

}  // namespace storlab

#endif  // STORLAB_SIM_TIME_UNITS_H_
