// Fuzz target: the size, duration and rate parsers (sim/profile/units.h).
//
// Input: any text. Each parser must return a value or an error (quoting the
// text only short and printable), never crash or hit undefined behaviour,
// and what it accepts must satisfy:
//   sizes      the value re-parses from its decimal form;
//   durations  non-negative, and FormatDuration's text parses back to the
//              same nanosecond count (units.h promises exactness);
//   rates      finite and non-negative, and FormatRate's text parses back to
//              within its printed precision (6 significant decimals).
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/profile/units.h"
#include "tests/fuzz/fuzz_check.h"

namespace storlab {
namespace {

void CheckSize(std::string_view text) {
  auto v = ParseSize(text);
  if (!v.ok()) {
    FUZZ_CHECK(!v.status().message().empty(), "an error without a message");
    FUZZ_CHECK_MESSAGE(v.status().message());
    return;
  }
  auto again = ParseSize(std::to_string(*v));
  FUZZ_CHECK(again.ok() && *again == *v,
             "size '" + std::string(text) + "' = " + std::to_string(*v) + " does not re-parse");
  (void)FormatSize(*v);
}

void CheckDuration(std::string_view text) {
  auto d = ParseDuration(text);
  if (!d.ok()) {
    FUZZ_CHECK_MESSAGE(d.status().message());
    return;
  }
  FUZZ_CHECK(d->count() >= 0, "negative duration from '" + std::string(text) + "'");
  std::string printed = FormatDuration(*d);
  auto again = ParseDuration(printed);
  FUZZ_CHECK(again.ok() && *again == *d,
             "duration '" + std::string(text) + "' = " + std::to_string(d->count()) +
                 "ns prints as '" + printed + "', which reads back as " +
                 (again.ok() ? std::to_string(again->count()) + "ns" : again.status().message()));
}

void CheckRate(std::string_view text) {
  auto r = ParseRate(text);
  if (!r.ok()) {
    FUZZ_CHECK_MESSAGE(r.status().message());
    return;
  }
  FUZZ_CHECK(std::isfinite(*r) && *r >= 0,
             "rate '" + std::string(text) + "' = " + std::to_string(*r) + " B/s");
  std::string printed = FormatRate(*r);
  auto again = ParseRate(printed);
  // FormatRate prints 6 decimals of the largest unit <= the rate (B, KB, MB, GB).
  double unit = *r >= 1e9 ? 1e9 : *r >= 1e6 ? 1e6 : *r >= 1e3 ? 1e3 : 1;
  FUZZ_CHECK(again.ok() && std::fabs(*again - *r) <= unit * 0.5e-6 + *r * 1e-15,
             "rate '" + std::string(text) + "' = " + std::to_string(*r) + " B/s prints as '" +
                 printed + "', which reads back as " +
                 (again.ok() ? std::to_string(*again) : again.status().message()));
}

}  // namespace
}  // namespace storlab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  storlab::CheckSize(text);
  storlab::CheckDuration(text);
  storlab::CheckRate(text);
  return 0;
}
