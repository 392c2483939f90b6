#include "sim/profile/units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/quoted.h"

namespace storlab {
namespace {

struct Split {
  double number;
  std::string digits;  // the number as written: "1.5", "4.17", "1e9"
  std::string unit;
};

// Splits "  64 KiB " into 64 and "KiB". Rejects signs, empty numbers, junk.
Result<Split> SplitNumber(std::string_view text, std::string_view what) {
  std::string s(text);
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t");
  if (b == std::string::npos) {
    return Status::InvalidArgument("empty " + std::string(what));
  }
  s = s.substr(b, e - b + 1);
  size_t i = 0;
  bool digits = false, dot = false;
  while (i < s.size() &&
         (std::isdigit(static_cast<unsigned char>(s[i])) || (s[i] == '.' && !dot))) {
    if (s[i] == '.')
      dot = true;
    else
      digits = true;
    ++i;
  }
  if (!digits) {
    if (!s.empty() && s[0] == '-') {
      return Status::InvalidArgument(Quoted(s) + ": a " + std::string(what) +
                                     " cannot be negative");
    }
    return Status::InvalidArgument(Quoted(s) + ": expected a " + std::string(what) +
                                   " starting with a number");
  }
  // Exponents ("1e9") are accepted for numbers without units.
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E') && i + 1 < s.size() &&
      std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  }
  double v = std::strtod(s.substr(0, i).c_str(), nullptr);
  std::string unit = s.substr(i);
  size_t ub = unit.find_first_not_of(" \t");
  unit = ub == std::string::npos ? "" : unit.substr(ub);
  if (!std::isfinite(v)) {
    return Status::InvalidArgument(Quoted(s) + ": number out of range");
  }
  return Split{v, s.substr(0, i), unit};
}

// A decimal number times an integer, computed exactly (no double rounding),
// for sizes and durations that must come out to the byte and nanosecond.
struct Scaled {
  bool overflow = false;  // the result exceeds 2^64 - 1
  bool whole = true;      // digits * mult is an integer
  uint64_t value = 0;     // rounded to the nearest integer, halves up
};

// REQUIRES: `digits` is what SplitNumber accepted (digits, at most one dot,
// then optionally e/E and digits); 0 < mult <= 2^60. Digits past the 20th
// significant one only count towards `whole`: they cannot change a 64-bit
// result except in a rounding tie of a value with over 20 digits.
Scaled ScaleExact(std::string_view digits, uint64_t mult) {
  using U128 = unsigned __int128;
  Scaled out;
  U128 n = 0;
  int exp10 = 0, significant = 0;
  bool dot = false;
  size_t i = 0;
  for (; i < digits.size() && digits[i] != 'e' && digits[i] != 'E'; ++i) {
    if (digits[i] == '.') {
      dot = true;
      continue;
    }
    int d = digits[i] - '0';
    if (significant < 20) {
      n = n * 10 + static_cast<unsigned>(d);
      if (n != 0) ++significant;
      if (dot) --exp10;
    } else if (!dot) {
      ++exp10;  // an integer digit past the 20th: the value is >= 1e20
    } else if (d != 0) {
      out.whole = false;  // a fraction digit too small to keep
    }
  }
  if (i < digits.size()) {  // e/E and digits; a long exponent is capped
    int e = 0;
    for (++i; i < digits.size(); ++i) e = std::min(e * 10 + (digits[i] - '0'), 1000);
    exp10 += e;
  }
  if (n == 0) return out;
  U128 v = n * mult;  // < 1e20 * 2^60 < 2^128
  constexpr U128 kMax = ~uint64_t{0};
  for (; exp10 > 0; --exp10) {
    if (v > kMax) break;
    v *= 10;
  }
  if (exp10 < 0) {
    if (exp10 < -38) {  // v < 10^38: rounds to zero
      out.whole = false;
      return out;
    }
    U128 p = 1;
    for (; exp10 < 0; ++exp10) p *= 10;
    U128 rem = v % p;
    v /= p;
    if (rem != 0) out.whole = false;
    if (rem >= p - rem) ++v;  // rem >= p/2: halves up
  }
  if (v > kMax) {
    out.overflow = true;
    return out;
  }
  out.value = static_cast<uint64_t>(v);
  return out;
}

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Multiplier of a size unit (case-insensitive), 0 if unknown.
uint64_t SizeUnit(const std::string& unit) {
  std::string u = Lower(unit);
  if (u.empty() || u == "b" || u == "byte" || u == "bytes") return 1;
  static const char kPrefixes[] = "kmgtpe";
  uint64_t bin = 1, dec = 1;
  for (int i = 0; i < 6; ++i) {
    bin *= 1024;
    dec *= 1000;
    std::string p(1, kPrefixes[i]);
    if (u == p || u == p + "ib" || u == p + "i") return bin;
    if (u == p + "b") return dec;
  }
  return 0;
}

}  // namespace

Result<uint64_t> ParseSize(std::string_view text) {
  auto sp = SplitNumber(text, "size");
  if (!sp.ok()) return sp.status();
  uint64_t mult = SizeUnit(sp->unit);
  if (mult == 0) {
    return Status::InvalidArgument(Quoted(text) + ": unknown size unit " + Quoted(sp->unit) +
                                   " (expected B, KiB, MiB, GiB, TiB, KB, MB, GB, TB, or K/M/G/T)");
  }
  Scaled bytes = ScaleExact(sp->digits, mult);
  if (bytes.overflow) {
    return Status::InvalidArgument(Quoted(text) + ": size too large");
  }
  if (!bytes.whole) {
    return Status::InvalidArgument(Quoted(text) + ": not a whole number of bytes");
  }
  return bytes.value;
}

Result<Nanos> ParseDuration(std::string_view text) {
  auto sp = SplitNumber(text, "duration");
  if (!sp.ok()) return sp.status();
  std::string u = Lower(sp->unit);
  uint64_t mult;
  if (u == "ns")
    mult = 1;
  else if (u == "us" || u == "µs" || u == "usec")
    mult = 1000;
  else if (u == "ms" || u == "msec")
    mult = 1000000;
  else if (u == "s" || u == "sec")
    mult = 1000000000;
  else if (u == "m" || u == "min")
    mult = 60000000000;
  else if (u == "h" || u == "hr")
    mult = 3600000000000;
  else if (u.empty()) {
    return Status::InvalidArgument(Quoted(text) +
                                   ": a duration needs a unit (ns, us, ms, s, min, h)");
  } else {
    return Status::InvalidArgument(Quoted(text) + ": unknown duration unit " + Quoted(sp->unit) +
                                   " (expected ns, us, ms, s, min, h)");
  }
  // Exact to the nanosecond (rounded to the nearest), so FormatDuration's text
  // reads back as the same count.
  Scaled ns = ScaleExact(sp->digits, mult);
  if (ns.overflow || ns.value > 9'200'000'000'000'000'000u) {
    return Status::InvalidArgument(Quoted(text) + ": too long");
  }
  return Nanos(static_cast<int64_t>(ns.value));
}

Result<double> ParseRate(std::string_view text) {
  auto sp = SplitNumber(text, "rate");
  if (!sp.ok()) return sp.status();
  std::string unit = sp->unit;
  size_t slash = unit.find('/');
  std::string per = slash == std::string::npos ? "" : Lower(unit.substr(slash + 1));
  if (per != "s" && per != "sec") {
    return Status::InvalidArgument(Quoted(text) +
                                   ": a rate needs a unit per second (e.g. 117.7MB/s, 6Gb/s)");
  }
  std::string amount = unit.substr(0, slash);
  // A lower-case 'b' at the end means bits: "6Gb/s", "100Mb/s", "1Gib/s".
  bool bits = !amount.empty() && amount.back() == 'b';
  double mult;
  if (bits) {
    std::string prefix = amount.substr(0, amount.size() - 1);
    std::string lp = Lower(prefix);
    if (lp.empty())
      mult = 1;
    else if (lp == "k")
      mult = 1e3;
    else if (lp == "m")
      mult = 1e6;
    else if (lp == "g")
      mult = 1e9;
    else if (lp == "t")
      mult = 1e12;
    else if (lp == "ki")
      mult = 1024.0;
    else if (lp == "mi")
      mult = 1024.0 * 1024;
    else if (lp == "gi")
      mult = 1024.0 * 1024 * 1024;
    else
      mult = 0;
    mult /= 8;
  } else {
    mult = static_cast<double>(SizeUnit(amount));
  }
  if (mult == 0) {
    return Status::InvalidArgument(Quoted(text) + ": unknown rate unit " + Quoted(unit) +
                                   " (expected e.g. MB/s, MiB/s, GB/s, Gb/s)");
  }
  double r = sp->number * mult;
  if (r < 0) return Status::InvalidArgument(Quoted(text) + ": a rate cannot be negative");
  // No device moves an exabyte per second; beyond that FormatRate would need
  // more digits than a double has.
  if (!(r <= 1e18)) return Status::InvalidArgument(Quoted(text) + ": rate too large");
  return r;
}

std::string FormatSize(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int i = 0;
  while (v >= 1024 && i < 6) {
    v /= 1024;
    ++i;
  }
  char buf[32];
  if (i == 0)
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[i]);
  return buf;
}

namespace {

// "%.*f" with trailing zeros (and a trailing dot) removed. Any magnitude: a
// large double needs hundreds of digits.
std::string Trimmed(double v, int decimals) {
  std::string out(static_cast<size_t>(std::snprintf(nullptr, 0, "%.*f", decimals, v)), '\0');
  std::snprintf(out.data(), out.size() + 1, "%.*f", decimals, v);
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

}  // namespace

std::string FormatDuration(Nanos d) {
  // Exact: integer arithmetic, and a nanosecond count has at most 9 decimals
  // in seconds.
  const int64_t ns = d.count();
  const uint64_t mag = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  auto fixed = [&](uint64_t per_unit, int decimals, const char* unit) {
    std::string out = (ns < 0 ? "-" : "") + std::to_string(mag / per_unit);
    if (uint64_t frac = mag % per_unit; frac != 0) {
      std::string f = std::to_string(frac);
      f.insert(0, static_cast<size_t>(decimals) - f.size(), '0');
      while (f.back() == '0') f.pop_back();
      out += "." + f;
    }
    return out + unit;
  };
  if (mag >= 1'000'000'000) return fixed(1'000'000'000, 9, "s");
  if (mag >= 1'000'000) return fixed(1'000'000, 6, "ms");
  if (mag >= 1'000) return fixed(1'000, 3, "us");
  return std::to_string(ns) + "ns";
}

std::string FormatRate(double bps) {
  if (bps >= 1e9) return Trimmed(bps / 1e9, 6) + "GB/s";
  if (bps >= 1e6) return Trimmed(bps / 1e6, 6) + "MB/s";
  if (bps >= 1e3) return Trimmed(bps / 1e3, 6) + "KB/s";
  return Trimmed(bps, 6) + "B/s";
}

}  // namespace storlab
