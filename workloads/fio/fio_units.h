// fio's value syntax, read the way fio 3.33 reads it (parse.c).
//
//   sizes     "4096", "4k", "64K", "1m", "4g", "16G": K/M/G/T/P are powers of
//             1024, with or without a trailing "b"/"B" ("4kb" = 4096); "KiB",
//             "MiB"... are powers of 1000. This is fio's default kb_base=1024
//             "compatibility mode", which reverses the SI/IEC meaning so that
//             old job files keep working.
//   times     "60", "60s", "500ms", "100us", "2m" (minutes), "1h", "1d"; a bare
//             number is in the option's own default unit (seconds for
//             runtime, microseconds for thinktime).
//   booleans  "1"/"0", "true"/"false", "yes"/"no", "on"/"off".
//   integers  decimal, optionally with a size suffix ("1k" = 1024), as fio's
//             str_to_decimal accepts.
//
// Errors say what was given and what was expected. Pure functions,
// thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_FIO_UNITS_H_
#define STORLAB_WORKLOADS_FIO_FIO_UNITS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab::fio {

enum class TimeUnit { kMicroseconds, kMilliseconds, kSeconds };

// kb_base (fio's kb_base= option): 1024, fio's default, or 1000, where
// "k" is 1000 and "KiB" 1024.
Result<uint64_t> ParseFioSize(std::string_view text, int kb_base = 1024);
Result<Nanos> ParseFioTime(std::string_view text, TimeUnit default_unit);
Result<bool> ParseFioBool(std::string_view text);
Result<int64_t> ParseFioInt(std::string_view text);

// "4096B", "64.0KiB", "1024KiB": fio's num2str as used in its headers and
// reports (sig_figs digits, binary or decimal units). `units` is the unit
// suffix appended after the prefix ("B", "B/s", ""), as fio's N2S_* do.
std::string Num2Str(uint64_t num, int maxlen, int base, bool pow2, std::string_view unit);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FIO_UNITS_H_
