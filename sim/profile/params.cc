#include "sim/profile/params.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "sim/profile/units.h"

namespace storlab {
namespace {

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string FormatDouble(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

Params::Params(std::string node, std::string where, std::map<std::string, Raw> values)
    : node_(std::move(node)), where_(std::move(where)), values_(std::move(values)) {}

std::string Params::Where(std::string_view key) const {
  auto it = values_.find(std::string(key));
  const std::string& at = it == values_.end() ? where_ : it->second.where;
  return at + ": node '" + node_ + "', key '" + std::string(key) + "'";
}

void Params::Fail(std::string_view key, std::string_view what) {
  if (first_error_.ok()) {
    first_error_ = Status::InvalidArgument(Where(key) + ": " + std::string(what));
  }
}

const Params::Raw* Params::Take(std::string_view key) {
  auto it = values_.find(std::string(key));
  if (it == values_.end()) return nullptr;
  read_[it->first] = true;
  return &it->second;
}

void Params::Log(std::string_view key, std::string value, const Raw* raw) {
  used_.push_back({std::string(key), std::move(value), raw ? raw->where : "default"});
}

void Params::Require(std::string_view key) {
  if (!Has(key)) Fail(key, "is required");
}

void Params::Size(std::string_view key, uint64_t* out, uint64_t min, uint64_t max) {
  const Raw* r = Take(key);
  if (r) {
    if (r->kind == Raw::Kind::kInteger) {
      long long v = std::strtoll(r->text.c_str(), nullptr, 10);
      if (v < 0) return Fail(key, "expected a size, got a negative number " + r->text);
      *out = static_cast<uint64_t>(v);
    } else if (r->kind == Raw::Kind::kString) {
      auto v = ParseSize(r->text);
      if (!v.ok()) return Fail(key, "expected a size: " + v.status().message());
      *out = *v;
    } else {
      return Fail(key, "expected a size such as \"64KiB\" or \"6TB\", got " + r->text);
    }
    if (*out < min || *out > max) {
      return Fail(key, "size " + r->text + " is outside [" + std::to_string(min) + ", " +
                           std::to_string(max) + "] bytes");
    }
  }
  Log(key, r && r->kind == Raw::Kind::kString ? Quote(r->text) : std::to_string(*out), r);
}

void Params::Duration(std::string_view key, Nanos* out) {
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kString) {
      return Fail(key, "expected a duration with a unit such as \"4.17ms\", got " + r->text);
    }
    auto v = ParseDuration(r->text);
    if (!v.ok()) return Fail(key, "expected a duration: " + v.status().message());
    if (*v < Nanos(0)) return Fail(key, "a duration cannot be negative");
    *out = *v;
  }
  Log(key, Quote(r ? r->text : FormatDuration(*out)), r);
}

void Params::Rate(std::string_view key, double* out) {
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kString) {
      return Fail(key, "expected a rate with a unit such as \"117.7MB/s\", got " + r->text);
    }
    auto v = ParseRate(r->text);
    if (!v.ok()) return Fail(key, "expected a rate: " + v.status().message());
    *out = *v;
  }
  Log(key, Quote(r ? r->text : FormatRate(*out)), r);
}

void Params::Double(std::string_view key, double* out, double min, double max) {
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kInteger && r->kind != Raw::Kind::kFloat) {
      return Fail(key, "expected a number, got " + r->text);
    }
    double v = std::strtod(r->text.c_str(), nullptr);
    if (!(v >= min && v <= max)) {
      return Fail(key, "expected a number in [" + FormatDouble(min) + ", " + FormatDouble(max) +
                           "], got " + r->text);
    }
    *out = v;
  }
  Log(key, FormatDouble(*out), r);
}

void Params::Fraction(std::string_view key, double* out) {
  const Raw* r = Take(key);
  if (r) {
    double v;
    if (r->kind == Raw::Kind::kString && !r->text.empty() && r->text.back() == '%') {
      char* end = nullptr;
      v = std::strtod(r->text.c_str(), &end) / 100.0;
      if (end != r->text.c_str() + r->text.size() - 1) {
        return Fail(key, "expected a percentage such as \"30%\", got \"" + r->text + "\"");
      }
    } else if (r->kind == Raw::Kind::kInteger || r->kind == Raw::Kind::kFloat) {
      v = std::strtod(r->text.c_str(), nullptr);
    } else {
      return Fail(key, "expected a fraction (0.3) or a percentage (\"30%\"), got " + r->text);
    }
    if (!(v >= 0 && v <= 1)) return Fail(key, "expected a fraction in [0, 1], got " + r->text);
    *out = v;
  }
  Log(key, FormatDouble(*out), r);
}

void Params::Bool(std::string_view key, bool* out) {
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kBool) return Fail(key, "expected true or false, got " + r->text);
    *out = r->text == "true";
  }
  Log(key, *out ? "true" : "false", r);
}

void Params::String(std::string_view key, std::string* out) {
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kString) return Fail(key, "expected a string, got " + r->text);
    *out = r->text;
  }
  Log(key, Quote(*out), r);
}

void Params::Enum(std::string_view key, std::string* out,
                  std::initializer_list<std::string_view> allowed) {
  const Raw* r = Take(key);
  if (r) {
    std::string choices;
    bool ok = false;
    for (auto a : allowed) {
      if (!choices.empty()) choices += ", ";
      choices += "\"" + std::string(a) + "\"";
      if (r->kind == Raw::Kind::kString && r->text == a) ok = true;
    }
    if (!ok) return Fail(key, "expected one of " + choices + ", got " + r->text);
    *out = r->text;
  }
  Log(key, Quote(*out), r);
}

void Params::StringList(std::string_view key, std::vector<std::string>* out) {
  const Raw* r = Take(key);
  if (r) {
    if (r->kind == Raw::Kind::kString) {
      *out = {r->text};
    } else if (r->kind == Raw::Kind::kArray) {
      *out = r->items;
    } else {
      return Fail(key, "expected a string or a list of strings, got " + r->text);
    }
  }
  std::string v = "[";
  for (size_t i = 0; i < out->size(); ++i) v += (i ? ", " : "") + Quote((*out)[i]);
  Log(key, v + "]", r);
}

void Params::IntImpl(std::string_view key, int64_t* out, int64_t min, int64_t max) {
  const Raw* r = Take(key);
  if (r) {
    if (r->kind != Raw::Kind::kInteger) {
      return Fail(key, "expected an integer, got " + r->text);
    }
    errno = 0;
    long long v = std::strtoll(r->text.c_str(), nullptr, 10);
    if (errno != 0 || v < min || v > max) {
      return Fail(key, "expected an integer in [" + std::to_string(min) + ", " +
                           std::to_string(max) + "], got " + r->text);
    }
    *out = v;
  }
  Log(key, std::to_string(*out), r);
}

Status Params::Finish() const {
  if (!first_error_.ok()) return first_error_;
  for (const auto& [k, v] : values_) {
    if (read_.count(k)) continue;
    std::string msg = v.where + ": node '" + node_ + "': unknown key '" + k + "'";
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
