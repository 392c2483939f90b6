#include "sim/profile/params.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "sim/edit_distance.h"
#include "sim/profile/units.h"
#include "sim/quoted.h"

namespace storlab {
namespace {

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

// A raw value for a message: strings quoted (and capped), the rest as the
// parser wrote it (numbers, "a table").
std::string Shown(const Params::Raw& r) {
  return r.kind == Params::Raw::Kind::kString ? Quoted(r.text) : r.text;
}

// Exact, as a stack file would write it: "256MiB", "16TB" (whichever unit
// leaves the smaller number), else bytes.
std::string ExactSize(uint64_t b) {
  static const char* kBinary[] = {"", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  static const char* kDecimal[] = {"", "KB", "MB", "GB", "TB", "PB", "EB"};
  if (b == 0) return "0";
  uint64_t bin = b, dec = b;
  int i = 0, k = 0;
  for (; i < 6 && bin % 1024 == 0; ++i) bin /= 1024;
  for (; k < 6 && dec % 1000 == 0; ++k) dec /= 1000;
  return dec < bin ? std::to_string(dec) + kDecimal[k] : std::to_string(bin) + kBinary[i];
}

std::string FormatDouble(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

Params Params::Describing(const std::string& type) {
  Params p(type, "", {});
  p.subject_ = "node type " + Quoted(type);
  p.describing_ = true;
  return p;
}

void Params::Describe(const Key& key, std::string type, std::string unit, std::string fallback,
                      std::string range) {
  for (const auto& d : described_)
    if (d.key == key.name) return;
  if (!defaults_from_.empty() && fallback != "not set") fallback = "per " + defaults_from_;
  if (std::find(required_.begin(), required_.end(), key.name) != required_.end()) {
    fallback = "required";
  }
  described_.push_back({key.name, std::move(type), std::move(unit), std::move(fallback),
                        std::move(range), key.meaning});
}

Params::Params(std::string node, std::string where, std::map<std::string, Raw> values)
    : node_(std::move(node)),
      subject_("node " + Quoted(node_)),
      where_(std::move(where)),
      values_(std::move(values)) {}

Params Params::ForTable(const std::string& table, std::string where,
                        std::map<std::string, Raw> values) {
  Params p(table, std::move(where), std::move(values));
  p.subject_ = "[" + table + "]";
  return p;
}

std::string Params::Where(std::string_view key) const {
  auto it = values_.find(std::string(key));
  const std::string& at = it == values_.end() ? where_ : it->second.where;
  return at + ": " + subject_ + ", key " + Quoted(key);
}

void Params::Fail(std::string_view key, std::string_view what) {
  if (!describing_ && first_error_.ok()) {
    first_error_ = Status::InvalidArgument(Where(key) + ": " + std::string(what));
  }
}

const Params::Raw* Params::Take(std::string_view key) {
  auto it = values_.find(std::string(key));
  if (it == values_.end()) return nullptr;
  read_[it->first] = true;
  return &it->second;
}

void Params::Log(std::string_view key, std::string value, const Raw* raw, std::string bytes) {
  used_.push_back({std::string(key), std::move(value), raw ? raw->where : "default",
                   /*comment=*/false, std::move(bytes)});
}

void Params::Require(std::string_view key) {
  if (describing_) {
    required_.emplace_back(key);
    for (auto& d : described_)
      if (d.key == key) d.fallback = "required";
    return;
  }
  if (!Has(key)) Fail(key, "is required");
}

void Params::Size(const Key& k, uint64_t* out, uint64_t min, uint64_t max) {
  const std::string_view key = k.name;
  if (describing_) {
    std::string range = max == std::numeric_limits<uint64_t>::max()
                            ? (min == 0 ? "" : ">= " + ExactSize(min))
                            : ExactSize(min) + " .. " + ExactSize(max);
    return Describe(k, "size", "bytes", ExactSize(*out), range);
  }
  const Raw* r = Take(key);
  if (r) {
    if (r->kind == Raw::Kind::kInteger) {
      long long v = std::strtoll(r->text.c_str(), nullptr, 10);
      if (v < 0) return Fail(key, "expected a size, got a negative number " + Shown(*r));
      *out = static_cast<uint64_t>(v);
    } else if (r->kind == Raw::Kind::kString) {
      auto v = ParseSize(r->text);
      if (!v.ok()) return Fail(key, "expected a size: " + v.status().message());
      *out = *v;
    } else {
      return Fail(key, "expected a size such as \"64KiB\" or \"6TB\", got " + Shown(*r));
    }
    if (*out < min || *out > max) {
      auto bytes = [](uint64_t b) { return FormatSize(b) + " (" + std::to_string(b) + " bytes)"; };
      return Fail(key, "size " + Shown(*r) +
                           (max == std::numeric_limits<uint64_t>::max()
                                ? " is less than the minimum, " + bytes(min)
                                : " is outside [" + bytes(min) + ", " + bytes(max) + "]"));
    }
  }
  const bool with_unit = r && r->kind == Raw::Kind::kString;
  Log(key, with_unit ? Quote(r->text) : std::to_string(*out), r,
      with_unit ? std::to_string(*out) : "");
}

void Params::Duration(const Key& k, Nanos* out, Bound bound) {
  const std::string_view key = k.name;
  if (describing_) {
    return Describe(k, "duration", "s", FormatDuration(*out),
                    bound == Bound::kPositive ? "> 0" : ">= 0");
  }
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kString) {
      return Fail(key, "expected a duration with a unit such as \"4.17ms\", got " + Shown(*r));
    }
    auto v = ParseDuration(r->text);
    if (!v.ok()) return Fail(key, "expected a duration: " + v.status().message());
    if (*v < Nanos(0)) return Fail(key, "a duration cannot be negative");
    if (bound == Bound::kPositive && *v == Nanos(0)) return Fail(key, "must be longer than 0");
    *out = *v;
  }
  Log(key, Quote(r ? r->text : FormatDuration(*out)), r);
}

void Params::Rate(const Key& k, double* out, Zero zero) {
  const std::string_view key = k.name;
  if (describing_) {
    const bool unset = *out == 0 && zero == Zero::kInvalid;
    return Describe(k, "rate", "B/s", unset ? "not set" : FormatRate(*out),
                    zero == Zero::kNoLimit ? ">= 0 (0: no limit)" : "> 0");
  }
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kString) {
      return Fail(key, "expected a rate with a unit such as \"117.7MB/s\", got " + Shown(*r));
    }
    auto v = ParseRate(r->text);
    if (!v.ok()) return Fail(key, "expected a rate: " + v.status().message());
    if (!(*v > 0) && !(zero == Zero::kNoLimit && *v == 0))
      return Fail(key, "must be positive (at a rate of 0 nothing gets through)");
    *out = *v;
  }
  if (!r && *out == 0 && zero == Zero::kInvalid) {
    used_.push_back({std::string(key), "not set", "default", /*comment=*/true, ""});
    return;
  }
  Log(key, Quote(r ? r->text : FormatRate(*out)), r);
}

void Params::Double(const Key& k, double* out, double min, double max) {
  const std::string_view key = k.name;
  if (describing_) {
    return Describe(k, "number", "", FormatDouble(*out),
                    FormatDouble(min) + " .. " + FormatDouble(max));
  }
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kInteger && r->kind != Raw::Kind::kFloat) {
      return Fail(key, "expected a number, got " + Shown(*r));
    }
    double v = std::strtod(r->text.c_str(), nullptr);
    if (!(v >= min && v <= max)) {
      return Fail(key, "expected a number in [" + FormatDouble(min) + ", " + FormatDouble(max) +
                           "], got " + Shown(*r));
    }
    *out = v;
  }
  Log(key, FormatDouble(*out), r);
}

void Params::Fraction(const Key& k, double* out, Bound bound) {
  const std::string_view key = k.name;
  if (describing_) {
    return Describe(k, "fraction", "0..1 or %", FormatDouble(*out),
                    bound == Bound::kPositive ? "> 0 .. 1" : "0 .. 1");
  }
  const Raw* r = Take(key);
  if (r) {
    double v;
    if (r->kind == Raw::Kind::kString && !r->text.empty() && r->text.back() == '%') {
      char* end = nullptr;
      v = std::strtod(r->text.c_str(), &end) / 100.0;
      if (end != r->text.c_str() + r->text.size() - 1) {
        return Fail(key, "expected a percentage such as \"30%\", got " + Shown(*r));
      }
    } else if (r->kind == Raw::Kind::kInteger || r->kind == Raw::Kind::kFloat) {
      v = std::strtod(r->text.c_str(), nullptr);
    } else {
      return Fail(key, "expected a fraction (0.3) or a percentage (\"30%\"), got " + Shown(*r));
    }
    if (!(v >= 0 && v <= 1)) {
      return Fail(key, "expected a fraction in [0, 1], got " + Shown(*r));
    }
    if (bound == Bound::kPositive && v == 0) {
      return Fail(key, "must be more than 0 (a share of 0 lets nothing through)");
    }
    *out = v;
  }
  Log(key, FormatDouble(*out), r);
}

void Params::Bool(const Key& k, bool* out) {
  const std::string_view key = k.name;
  if (describing_) return Describe(k, "bool", "", *out ? "true" : "false", "");
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kBool) {
      return Fail(key, "expected true or false, got " + Shown(*r));
    }
    *out = r->text == "true";
  }
  Log(key, *out ? "true" : "false", r);
}

void Params::String(const Key& k, std::string* out) {
  const std::string_view key = k.name;
  if (describing_) return Describe(k, "string", "", Quote(*out), "");
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kString) return Fail(key, "expected a string, got " + Shown(*r));
    *out = r->text;
  }
  Log(key, Quote(*out), r);
}

void Params::Enum(const Key& k, std::string* out, std::initializer_list<std::string_view> allowed) {
  const std::string_view key = k.name;
  if (describing_) {
    std::string range;
    for (auto a : allowed) range += (range.empty() ? "" : " | ") + Quote(std::string(a));
    return Describe(k, "enum", "", Quote(*out), range);
  }
  const Raw* r = Take(key);
  if (r) {
    std::string choices;
    bool ok = false;
    for (auto a : allowed) {
      if (!choices.empty()) choices += ", ";
      choices += "\"" + std::string(a) + "\"";
      if (r->kind == Raw::Kind::kString && r->text == a) ok = true;
    }
    if (!ok) return Fail(key, "expected one of " + choices + ", got " + Shown(*r));
    *out = r->text;
  }
  Log(key, Quote(*out), r);
}

void Params::StringList(const Key& k, std::vector<std::string>* out) {
  const std::string_view key = k.name;
  if (describing_) return Describe(k, "string list", "", "[]", "");
  const Raw* r = Take(key);
  if (r) {
    if (r->kind == Raw::Kind::kString) {
      *out = {r->text};
    } else if (r->kind == Raw::Kind::kArray) {
      *out = r->items;
    } else {
      return Fail(key, "expected a string or a list of strings, got " + Shown(*r));
    }
  }
  std::string v = "[";
  for (size_t i = 0; i < out->size(); ++i) v += (i ? ", " : "") + Quote((*out)[i]);
  Log(key, v + "]", r);
}

void Params::IntImpl(const Key& k, int64_t* out, int64_t min, int64_t max) {
  const std::string_view key = k.name;
  if (describing_) {
    return Describe(k, "integer", "", std::to_string(*out),
                    std::to_string(min) + " .. " + std::to_string(max));
  }
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kInteger) {
      return Fail(key, "expected an integer, got " + Shown(*r));
    }
    errno = 0;
    long long v = std::strtoll(r->text.c_str(), nullptr, 10);
    if (errno != 0 || v < min || v > max) {
      return Fail(key, "expected an integer in [" + std::to_string(min) + ", " +
                           std::to_string(max) + "], got " + Shown(*r));
    }
    *out = v;
  }
  Log(key, std::to_string(*out), r);
}

Status Params::Finish() const {
  // Describe mode: the factory has read its keys; stop it here.
  if (describing_) return Status::InvalidArgument(subject_ + ": described, not built");
  if (!first_error_.ok()) return first_error_;
  for (const auto& [k, v] : values_) {
    if (read_.count(k)) continue;
    std::string msg = v.where + ": " + subject_ + ": unknown key " + Quoted(k);
    std::string best;
    size_t best_d = 3;  // suggest only close matches
    std::string known;
    for (const auto& u : used_) {
      if (u.key.find('.') != std::string::npos) continue;
      known += (known.empty() ? "" : ", ") + u.key;
      size_t d = EditDistance(k, u.key);
      if (d < best_d) {
        best_d = d;
        best = u.key;
      }
    }
    if (!best.empty()) msg += " (did you mean '" + best + "'?)";
    if (!known.empty()) msg += "; this node type takes: " + known;
    return Status::InvalidArgument(msg);
  }
  return Status();
}

}  // namespace storlab
