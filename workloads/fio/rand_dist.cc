#include "workloads/fio/rand_dist.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include "sim/quoted.h"
#include "workloads/fio/fio_units.h"

namespace storlab::fio {
namespace {

// fio.h FIO_DEF_ZIPF, FIO_DEF_PARETO.
constexpr double kDefaultZipf = 1.1;
constexpr double kDefaultPareto = 0.2;

Status BadDist(std::string_view value, const std::string& why) {
  return Status::InvalidArgument(Quoted(value) + ": " + why);
}

bool ParseDouble(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return *end == '\0' && std::isfinite(*out);
}

// "50/5:30/15:20/" (fio's split_parse_ddir): PERC/SIZE entries separated by
// ':'; a missing part shares what the others leave of 100 (zone_split_ddir).
Status ParseZones(std::string_view value, std::string_view list, bool absolute, RandDist* d) {
  if (list.find(',') != std::string_view::npos) {
    return BadDist(value,
                   "a zoned split per data direction (',') is not supported by storlab sim yet");
  }
  unsigned perc = 0, perc_missing = 0, sperc_missing = 0;
  uint64_t sperc = 0;
  std::vector<bool> no_access, no_size;
  size_t start = 0;
  while (start <= list.size()) {
    size_t colon = list.find(':', start);
    std::string e(list.substr(start, colon == std::string_view::npos ? colon : colon - start));
    size_t slash = e.find('/');
    if (slash == std::string::npos) return BadDist(value, Quoted(e) + " is not PERCENT/SIZE");
    std::string a = e.substr(0, slash), s = e.substr(slash + 1);
    RandDist::Zone z{0, 0};
    no_access.push_back(a.empty());
    no_size.push_back(s.empty());
    if (!a.empty()) {
      auto r = ParseFioInt(a);
      if (!r.ok() || *r < 0 || *r > 100) return BadDist(value, Quoted(a) + " is not a percentage");
      z.access_perc = static_cast<unsigned>(*r);
      perc += z.access_perc;
    } else {
      ++perc_missing;
    }
    if (!s.empty()) {
      if (absolute) {
        auto r = ParseFioSize(s);
        if (!r.ok()) return BadDist(value, Quoted(s) + " is not a size");
        z.size = *r;
      } else {
        auto r = ParseFioInt(s);
        if (!r.ok() || *r < 0 || *r > 100)
          return BadDist(value, Quoted(s) + " is not a percentage");
        z.size = static_cast<uint64_t>(*r);
      }
      sperc += z.size;
    } else if (absolute) {
      return BadDist(value, Quoted(e) + ": zoned_abs needs a size for every zone");
    } else {
      ++sperc_missing;
    }
    d->zones.push_back(z);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (perc > 100 || (!absolute && sperc > 100)) {
    return BadDist(value, "zone_split percentages add to more than 100%");
  }
  // fio requires the access percentages to add up to 100 before it shares
  // out the missing ones: "20/" alone after 50 and 30 is fine, "/20" is not.
  if (perc < 100 && !(perc_missing == 1 && d->zones.size() == 1)) {
    return BadDist(value,
                   "access percentage don't add up to 100 for zoned random distribution (got=" +
                       std::to_string(perc) + ")");
  }
  for (size_t i = 0; i < d->zones.size(); ++i) {
    if (no_access[i]) d->zones[i].access_perc = perc_missing == 1 && d->zones.size() == 1 ? 100 : 0;
    if (no_size[i]) {
      d->zones[i].size =
          sperc_missing == 1 && d->zones.size() == 1 ? 100 : (100 - sperc) / sperc_missing;
    }
  }
  return Status();
}

}  // namespace

Result<RandDist> ParseRandDist(std::string_view value) {
  RandDist d;
  const size_t colon = value.find(':');
  const std::string_view kind = value.substr(0, colon);
  const std::string_view rest =
      colon == std::string_view::npos ? std::string_view() : value.substr(colon + 1);
  if (kind == "random") {
    if (colon != std::string_view::npos) return BadDist(value, "random takes no parameter");
    return d;
  }
  if (kind == "zoned" || kind == "zoned_abs") {
    d.kind = kind == "zoned" ? RandDist::Kind::kZoned : RandDist::Kind::kZonedAbs;
    if (rest.empty()) return BadDist(value, "expected " + std::string(kind) + ":PERCENT/SIZE:...");
    RETURN_IF_ERROR(ParseZones(value, rest, kind == "zoned_abs", &d));
    return d;
  }
  if (kind == "zipf") {
    d.kind = RandDist::Kind::kZipf;
    d.value = kDefaultZipf;
  } else if (kind == "pareto") {
    d.kind = RandDist::Kind::kPareto;
    d.value = kDefaultPareto;
  } else if (kind == "normal") {
    d.kind = RandDist::Kind::kNormal;
  } else {
    return BadDist(value,
                   "expected random, zipf[:THETA[:CENTER]], pareto[:H[:CENTER]], "
                   "normal[:DEV[:CENTER]], zoned:... or zoned_abs:...");
  }
  // get_opt_postfix + split_parse_distr: VALUE[:CENTER].
  if (!rest.empty()) {
    const size_t c2 = rest.find(':');
    std::string v(rest.substr(0, c2));
    if (!ParseDouble(v, &d.value)) return BadDist(value, Quoted(v) + " is not a number");
    if (c2 != std::string_view::npos) {
      std::string c(rest.substr(c2 + 1));
      if (!ParseDouble(c, &d.center)) return BadDist(value, Quoted(c) + " is not a number");
      if (d.center < 0 || d.center > 1) {
        return BadDist(value, "distribution center out of range (0 <= center <= 1.0)");
      }
    }
  }
  if (d.kind == RandDist::Kind::kZipf && d.value == 1.0) {
    return BadDist(value, "zipf theta must different than 1.0");
  }
  if (d.kind == RandDist::Kind::kPareto && (d.value <= 0 || d.value >= 1)) {
    return BadDist(value, "pareto input out of range (0 < input < 1.0)");
  }
  if (d.kind == RandDist::Kind::kNormal && (d.value < 0 || d.value >= 100)) {
    return BadDist(value, "normal deviation out of range (0 <= input < 100.0)");
  }
  return d;
}

Status CheckRandDist(std::string_view value) { return ParseRandDist(value).status(); }

}  // namespace storlab::fio
