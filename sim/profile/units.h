// Units: the one place sizes, durations and rates are parsed and printed.
//
//   sizes      "4096", "64KiB", "6TB", "512K" (K/M/G/T alone are binary, as
//              fio and nbdkit read them; "KB"/"MB"/... are decimal, "KiB"/
//              "MiB"/... binary)
//   durations  "500us", "4.17ms", "30s", "2min", "1h", "250ns"; a bare
//              number is rejected (say the unit)
//   rates      "117.7MB/s", "6Gb/s" (bits), "1.5GiB/s", "500MiB/s"
//   counts     "7200", "32"
//
// Errors say what was given and what was expected. Pure functions,
// thread-safe.
#ifndef STORLAB_SIM_PROFILE_UNITS_H_
#define STORLAB_SIM_PROFILE_UNITS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

// Bytes. Fractions are allowed where they land on a whole byte ("1.5KiB").
Result<uint64_t> ParseSize(std::string_view text);
Result<Nanos> ParseDuration(std::string_view text);
// Bytes per second.
Result<double> ParseRate(std::string_view text);

// "4.0 KiB", "6.0 TB"-style for messages and tables (binary units).
std::string FormatSize(uint64_t bytes);
// "4.17ms", "53us", "2s": exact, and ParseDuration reads it back.
std::string FormatDuration(Nanos d);
// "117.7MB/s" (decimal, as datasheets print rates); ParseRate reads it back.
std::string FormatRate(double bytes_per_s);

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_UNITS_H_
