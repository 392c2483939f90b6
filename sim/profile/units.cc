#include "sim/profile/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace storlab {
namespace {

struct Split {
  double number;
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
      return Status::InvalidArgument("'" + s + "': a " + std::string(what) + " cannot be negative");
    }
    return Status::InvalidArgument("'" + s + "': expected a " + std::string(what) +
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
    return Status::InvalidArgument("'" + s + "': number out of range");
  }
  return Split{v, unit};
}

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Multiplier of a size unit (case-insensitive), 0 if unknown.
double SizeUnit(const std::string& unit) {
  std::string u = Lower(unit);
  if (u.empty() || u == "b" || u == "byte" || u == "bytes") return 1;
  static const char kPrefixes[] = "kmgtpe";
  for (int i = 0; i < 6; ++i) {
    double bin = std::pow(1024.0, i + 1), dec = std::pow(1000.0, i + 1);
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
  double mult = SizeUnit(sp->unit);
  if (mult == 0) {
    return Status::InvalidArgument(
        "'" + std::string(text) + "': unknown size unit '" + sp->unit +
        "' (expected B, KiB, MiB, GiB, TiB, KB, MB, GB, TB, or K/M/G/T)");
  }
  double bytes = sp->number * mult;
  if (bytes >= 1.8e19) {
    return Status::InvalidArgument("'" + std::string(text) + "': size too large");
  }
  if (bytes != std::floor(bytes)) {
    return Status::InvalidArgument("'" + std::string(text) + "': not a whole number of bytes");
  }
  return static_cast<uint64_t>(bytes);
}

Result<Nanos> ParseDuration(std::string_view text) {
  auto sp = SplitNumber(text, "duration");
  if (!sp.ok()) return sp.status();
  std::string u = Lower(sp->unit);
  double mult;
  if (u == "ns")
    mult = 1;
  else if (u == "us" || u == "µs" || u == "usec")
    mult = 1e3;
  else if (u == "ms" || u == "msec")
    mult = 1e6;
  else if (u == "s" || u == "sec")
    mult = 1e9;
  else if (u == "m" || u == "min")
    mult = 60e9;
  else if (u == "h" || u == "hr")
    mult = 3600e9;
  else if (u.empty()) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "': a duration needs a unit (ns, us, ms, s, min, h)");
  } else {
    return Status::InvalidArgument("'" + std::string(text) + "': unknown duration unit '" +
                                   sp->unit + "' (expected ns, us, ms, s, min, h)");
  }
  double ns = sp->number * mult;
  if (ns > 9.2e18) return Status::InvalidArgument("'" + std::string(text) + "': too long");
  return Nanos(std::llround(ns));
}

Result<double> ParseRate(std::string_view text) {
  auto sp = SplitNumber(text, "rate");
  if (!sp.ok()) return sp.status();
  std::string unit = sp->unit;
  size_t slash = unit.find('/');
  std::string per = slash == std::string::npos ? "" : Lower(unit.substr(slash + 1));
  if (per != "s" && per != "sec") {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "': a rate needs a unit per second (e.g. 117.7MB/s, 6Gb/s)");
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
    mult = SizeUnit(amount);
  }
  if (mult == 0) {
    return Status::InvalidArgument("'" + std::string(text) + "': unknown rate unit '" + unit +
                                   "' (expected e.g. MB/s, MiB/s, GB/s, Gb/s)");
  }
  double r = sp->number * mult;
  if (r < 0)
    return Status::InvalidArgument("'" + std::string(text) + "': a rate cannot be negative");
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

// "%.*f" with trailing zeros (and a trailing dot) removed.
std::string Trimmed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string out = buf;
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

}  // namespace

std::string FormatDuration(Nanos d) {
  // Exact: a nanosecond count has at most 9 decimals in seconds.
  int64_t ns = d.count();
  int64_t mag = ns < 0 ? -ns : ns;
  if (mag >= 1'000'000'000) return Trimmed(static_cast<double>(ns) / 1e9, 9) + "s";
  if (mag >= 1'000'000) return Trimmed(static_cast<double>(ns) / 1e6, 6) + "ms";
  if (mag >= 1'000) return Trimmed(static_cast<double>(ns) / 1e3, 3) + "us";
  return std::to_string(ns) + "ns";
}

std::string FormatRate(double bps) {
  if (bps >= 1e9) return Trimmed(bps / 1e9, 6) + "GB/s";
  if (bps >= 1e6) return Trimmed(bps / 1e6, 6) + "MB/s";
  if (bps >= 1e3) return Trimmed(bps / 1e3, 6) + "KB/s";
  return Trimmed(bps, 6) + "B/s";
}

}  // namespace storlab
