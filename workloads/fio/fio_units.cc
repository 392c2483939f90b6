#include "workloads/fio/fio_units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/quoted.h"
#include "sim/time_units.h"

namespace storlab::fio {
namespace {

std::string TrimBlanks(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Splits "4.5k" into 4.5 and "k". Fails without a leading number.
bool SplitNumber(const std::string& s, double* number, std::string* unit, bool* fractional) {
  size_t i = 0;
  bool digits = false, dot = false;
  while (i < s.size() &&
         (std::isdigit(static_cast<unsigned char>(s[i])) || (s[i] == '.' && !dot))) {
    if (s[i] == '.') {
      dot = true;
    } else {
      digits = true;
    }
    ++i;
  }
  if (!digits) return false;
  *number = std::strtod(s.substr(0, i).c_str(), nullptr);
  *unit = Lower(TrimBlanks(s.substr(i)));
  *fractional = dot;
  return std::isfinite(*number);
}

// parse.c __get_mult_bytes(): with kb_base=1024 (fio's compatibility
// mode) "k"/"kb" are binary and "kib" decimal; kb_base=1000 gives them
// their true meaning. 0 if the suffix is not a size.
double SizeMultiplier(const std::string& u, int kb_base = 1024) {
  if (u.empty() || u == "b") return 1;
  const double plain = kb_base == 1000 ? 1000.0 : 1024.0;
  const double iec = kb_base == 1000 ? 1024.0 : 1000.0;
  static const char kPrefixes[] = "kmgtpe";
  for (int i = 0; i < 6; ++i) {
    std::string p(1, kPrefixes[i]);
    if (u == p || u == p + "b") return std::pow(plain, i + 1);
    if (u == p + "ib" || u == p + "i") return std::pow(iec, i + 1);
  }
  return 0;
}

}  // namespace

Result<uint64_t> ParseFioSize(std::string_view text, int kb_base) {
  std::string s = TrimBlanks(text);
  double v;
  std::string unit;
  bool frac;
  if (s.empty() || !SplitNumber(s, &v, &unit, &frac)) {
    return Status::InvalidArgument(Quoted(s) + ": expected a size (4096, 4k, 64k, 1m, 4g)");
  }
  double mult = SizeMultiplier(unit, kb_base);
  if (mult == 0) {
    return Status::InvalidArgument(Quoted(s) + ": unknown size suffix " + Quoted(unit) +
                                   " (use k, m, g, t, p)");
  }
  double bytes = v * mult;
  if (bytes >= 18446744073709551615.0) {
    return Status::InvalidArgument(Quoted(s) + ": size out of range");
  }
  if (bytes != std::floor(bytes)) {
    return Status::InvalidArgument(Quoted(s) + ": not a whole number of bytes");
  }
  return static_cast<uint64_t>(bytes);
}

Result<Nanos> ParseFioTime(std::string_view text, TimeUnit default_unit) {
  std::string s = TrimBlanks(text);
  double v;
  std::string unit;
  bool frac;
  if (s.empty() || !SplitNumber(s, &v, &unit, &frac)) {
    return Status::InvalidArgument(Quoted(s) + ": expected a time (60, 60s, 500ms, 100us, 2m)");
  }
  double ns_per_unit;
  if (unit.empty()) {
    ns_per_unit = default_unit == TimeUnit::kSeconds        ? 1e9
                  : default_unit == TimeUnit::kMilliseconds ? 1e6
                                                            : 1e3;
  } else {
    ns_per_unit = TimeUnitNanos(unit);
    if (ns_per_unit == 0) {
      return Status::InvalidArgument(Quoted(s) + ": unknown time unit " + Quoted(unit) +
                                     " (use us, ms, s, m, h, d)");
    }
  }
  double ns = v * ns_per_unit;
  if (ns > 9.2e18) return Status::InvalidArgument(Quoted(s) + ": time out of range");
  return Nanos(std::llround(ns));
}

Result<bool> ParseFioBool(std::string_view text) {
  std::string s = Lower(TrimBlanks(text));
  if (s == "1" || s == "true" || s == "yes" || s == "on") return true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return false;
  return Status::InvalidArgument(Quoted(TrimBlanks(text)) + ": expected a boolean (0 or 1)");
}

Result<int64_t> ParseFioInt(std::string_view text) {
  std::string s = TrimBlanks(text);
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s = s.substr(1);
  double v;
  std::string unit;
  bool frac;
  if (s.empty() || !SplitNumber(s, &v, &unit, &frac) || frac) {
    return Status::InvalidArgument(Quoted(TrimBlanks(text)) + ": expected an integer");
  }
  double mult = SizeMultiplier(unit);
  if (mult == 0) {
    return Status::InvalidArgument(Quoted(TrimBlanks(text)) + ": expected an integer");
  }
  double r = v * mult;
  if (r > 9.2e18)
    return Status::InvalidArgument(Quoted(TrimBlanks(text)) + ": integer out of range");
  int64_t out = static_cast<int64_t>(r);
  return negative ? -out : out;
}

std::string Num2Str(uint64_t num, int maxlen, int base, bool pow2, std::string_view unit) {
  static const char* const kSi[] = {"", "k", "M", "G", "T", "P"};
  static const char* const kIec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
  const char* const* prefix = pow2 ? kIec : kSi;
  const unsigned thousand = pow2 ? 1024 : 1000;
  int post = 0;
  for (; base > 1; ++post) base /= static_cast<int>(thousand);
  unsigned modulo = ~0u;
  bool carry = false;
  char tmp[64];
  while (post < 6) {
    std::snprintf(tmp, sizeof(tmp), "%llu", static_cast<unsigned long long>(num));
    if (static_cast<int>(std::string_view(tmp).size()) <= maxlen) break;
    modulo = static_cast<unsigned>(num % thousand);
    num /= thousand;
    carry = modulo >= thousand / 2;
    ++post;
  }
  if (post >= 6) post = 0;
  auto plain = [&](uint64_t n) { return std::to_string(n) + prefix[post] + std::string(unit); };
  if (modulo == ~0u) return plain(num);
  int digits = static_cast<int>(std::to_string(num).size());
  if (maxlen - digits <= 1) return plain(carry ? num + 1 : num);
  std::snprintf(tmp, sizeof(tmp), "%.*f", maxlen - digits - 1,
                static_cast<double>(modulo) / static_cast<double>(thousand));
  if (tmp[0] == '1') ++num;
  return std::to_string(num) + "." + std::string(tmp + 2) + prefix[post] + std::string(unit);
}

}  // namespace storlab::fio
