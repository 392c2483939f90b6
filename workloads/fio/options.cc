// Applying fio options to a job (options.h): checks each value against its
// table entry, explains unknown and unsupported options, and prints
// `--cmdhelp`.
#include "workloads/fio/options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "sim/edit_distance.h"
#include "sim/quoted.h"
#include "workloads/fio/fio_known_options.h"
#include "workloads/fio/fio_no_meaning.h"

namespace storlab::fio {
namespace {

// Splits "a,b,c" into at most three parts.
std::vector<std::string> SplitCommas(std::string_view v) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t c = v.find(',', start);
    parts.emplace_back(v.substr(start, c == std::string_view::npos ? c : c - start));
    if (c == std::string_view::npos) break;
    start = c + 1;
  }
  return parts;
}

Status BadValue(const OptionDef& d, std::string_view where, std::string_view value,
                const Status& why) {
  return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d.name) + ": " +
                                 why.message());
}

// fio's FIO_OPT_FLOAT_LIST (parse.c): values separated by ':', each a
// number in [0, 100], at most 20; *precision is the most decimals written.
Result<std::vector<double>> ParseFloatList(const OptionDef& d, std::string_view where,
                                           std::string_view value, int64_t* precision) {
  std::vector<double> out;
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d.name) + ": " +
                                   Quoted(value) + ": " + why);
  };
  size_t start = 0;
  while (start <= value.size()) {
    size_t colon = value.find(':', start);
    std::string part(value.substr(
        start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
    if (out.size() == 20) return bad("at most 20 values");
    char* end = nullptr;
    double v = part.empty() ? 0 : std::strtod(part.c_str(), &end);
    if (part.empty() || *end != '\0' || !(v == v)) {
      return bad(Quoted(part) + " is not a number (a list is separated by ':')");
    }
    if (v < 0 || v > 100) return bad(Quoted(part) + " is not in [0, 100]");
    size_t dot = part.find('.');
    if (dot != std::string::npos) {
      int64_t n = 0;
      for (size_t i = dot + 1; i < part.size() && part[i] >= '0' && part[i] <= '9'; ++i) ++n;
      *precision = std::max(*precision, n);
    }
    out.push_back(v);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return out;
}

// kb_base= as parse.c's fio_get_kb_base() reads it.
int KbBase(const JobOptions& o) { return o.kb_base == "1000" ? 1000 : 1024; }

Status ParseDirs(const OptionDef& d, std::string_view where, std::string_view value, DirValues* out,
                 int kb_base) {
  std::vector<std::string> parts = SplitCommas(value);
  if (parts.size() > 3) {
    return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d.name) + ": " +
                                   Quoted(value) + ": at most three values (read,write,trim)");
  }
  DirValues def = *out;
  std::array<bool, 3> given = {false, false, false};
  DirValues v = def;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) continue;
    // kTimeDirs: fio's check_str_time() in `unit` (parse.c FIO_OPT_ULL
    // with is_time), kept in ns.
    Result<uint64_t> r = uint64_t{0};
    if (d.type == OptType::kTimeDirs) {
      auto t = ParseFioTime(parts[i], d.unit);
      if (!t.ok()) return BadValue(d, where, value, t.status());
      if (t->count() < 0) {
        return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d.name) + ": " +
                                       Quoted(parts[i]) + ": a time must not be negative");
      }
      r = static_cast<uint64_t>(t->count());
    } else {
      r = ParseFioSize(parts[i], kb_base);
    }
    if (!r.ok()) return BadValue(d, where, value, r.status());
    if (static_cast<int64_t>(*r) < d.min || static_cast<int64_t>(*r) > d.max) {
      return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d.name) + ": " +
                                     Quoted(parts[i]) + " out of range [" + std::to_string(d.min) +
                                     ", " + std::to_string(d.max) + "]");
    }
    v[i] = *r;
    given[i] = true;
  }
  if (parts.size() == 1) {
    v = {v[0], v[0], v[0]};
  } else if (parts.size() == 2 && given[1]) {
    v[2] = v[1];  // "8k,32k": trims take the write size, as fio does
  }
  *out = v;
  return Status();
}

}  // namespace

Status ApplyOption(JobOptions* opts, std::string_view name, std::string_view value, bool has_value,
                   std::string_view where) {
  const OptionDef* d = FindOption(name);
  if (!d) {
    std::string msg = std::string(where) + ": unknown option " + Quoted(name);
    if (std::string_view why = OptionNoMeaning(name); !why.empty()) {
      return Status::InvalidArgument(std::string(where) + ": option " + Quoted(name) +
                                     " has no meaning in storlab sim: " + std::string(why));
    }
    if (IsFioJobOption(name)) {
      // The job file is fine for fio: say so, rather than suggest a typo.
      return Status::InvalidArgument(std::string(where) + ": option " + Quoted(name) +
                                     " is a fio option that storlab sim does not support");
    }
    std::string best;
    size_t best_d = 3;
    for (const auto& o : OptionTable()) {
      size_t dist = EditDistance(name, o.name);
      if (dist < best_d) {
        best_d = dist;
        best = o.name;
      }
    }
    if (!best.empty()) msg += " (did you mean " + Quoted(best) + "?)";
    return Status::InvalidArgument(msg);
  }
  if (!has_value && d->type != OptType::kSet && d->type != OptType::kLog) {
    return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d->name) +
                                   " requires a value");
  }
  auto fail = [&](const Status& why) { return BadValue(*d, where, value, why); };
  auto range = [&](int64_t v) -> Status {
    if (v < d->min || v > d->max) {
      return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d->name) + ": " +
                                     Quoted(value) + " out of range [" + std::to_string(d->min) +
                                     ", " + std::to_string(d->max) + "]");
    }
    return Status();
  };
  switch (d->type) {
    case OptType::kString:
      if (value.empty()) {
        return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d->name) +
                                       " requires a value");
      }
      // A colon list that names nothing ("::::") would silently become
      // fio's default file names.
      if ((d->name == "filename" || d->name == "directory") &&
          value.find_first_not_of(':') == std::string_view::npos) {
        return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d->name) + ": " +
                                       Quoted(value) + " names no " +
                                       (d->name == "filename" ? "file" : "directory") +
                                       " (a list is separated by ':')");
      }
      if (d->check) {
        Status st = d->check(value);
        if (!st.ok()) return fail(st);
      }
      opts->*std::get<std::string JobOptions::*>(d->target) = std::string(value);
      break;
    case OptType::kEnum: {
      // rw=write:112k / rw=randread:8: the postfix is checked when the job
      // is built (job_spec.cc), where it is known whether rw is random.
      std::string_view choice = value, postfix;
      if (d->name == "rw") {
        if (size_t colon = value.find(':'); colon != std::string_view::npos) {
          postfix = value.substr(colon + 1);
          choice = value.substr(0, colon);
          if (postfix.empty()) {
            return Status::InvalidArgument(std::string(where) + ": option 'rw': " + Quoted(value) +
                                           ": nothing after ':' (e.g. write:64k, randread:8)");
          }
        }
      }
      const EnumValue* found = nullptr;
      for (const auto& ev : d->values) {
        if (ev.value == choice) found = &ev;
      }
      if (std::string_view why = ValueNoMeaning(d->name, choice); !why.empty()) {
        return Status::InvalidArgument(std::string(where) + ": option '" + std::string(d->name) +
                                       "': " + Quoted(value) +
                                       " has no meaning in storlab sim: " + std::string(why));
      }
      if (!found) {
        std::string allowed;
        for (const auto& ev : d->values) {
          if (!ev.supported) continue;
          allowed += (allowed.empty() ? "" : ", ") + std::string(ev.value);
        }
        return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d->name) + ": " +
                                       Quoted(value) + " is not one of " + allowed);
      }
      if (!found->supported) {
        return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d->name) + ": " +
                                       Quoted(value) + " (" + std::string(found->help) +
                                       ") is not supported by storlab sim");
      }
      opts->*std::get<std::string JobOptions::*>(d->target) = std::string(choice);
      if (d->name == "rw") opts->rw_postfix = std::string(postfix);
      break;
    }
    case OptType::kBool:
    case OptType::kSet: {
      bool v = true;
      if (has_value) {
        auto r = ParseFioBool(value);
        if (!r.ok()) return fail(r.status());
        v = *r;
      }
      opts->*std::get<bool JobOptions::*>(d->target) = d->inverse ? !v : v;
      break;
    }
    case OptType::kInt: {
      auto r = ParseFioInt(value);
      if (!r.ok()) return fail(r.status());
      RETURN_IF_ERROR(range(*r));
      opts->*std::get<int64_t JobOptions::*>(d->target) = d->inverse ? d->max - *r : *r;
      break;
    }
    case OptType::kSize: {
      if (d->name == "size" && !value.empty() && value.back() == '%') {
        auto r = ParseFioInt(value.substr(0, value.size() - 1));
        if (!r.ok() || *r < 1 || *r > 100) {
          return Status::InvalidArgument(std::string(where) + ": option 'size': " + Quoted(value) +
                                         ": a percentage must be 1% to 100%");
        }
        opts->size_percent = *r;
        opts->size = 0;
        break;
      }
      const bool offset = d->name == "offset" || d->name == "offset_increment";
      int64_t* percent =
          d->name == "offset" ? &opts->offset_percent : &opts->offset_increment_percent;
      if (offset && !value.empty() && value.back() == '%') {
        auto r = ParseFioInt(value.substr(0, value.size() - 1));
        if (!r.ok() || *r < 0 || *r > 100) {
          return Status::InvalidArgument(std::string(where) + ": option " + Quoted(d->name) + ": " +
                                         Quoted(value) + ": a percentage must be 0% to 100%");
        }
        *percent = *r;
        opts->*std::get<uint64_t JobOptions::*>(d->target) = 0;
        break;
      }
      auto r = ParseFioSize(value, KbBase(*opts));
      if (!r.ok()) return fail(r.status());
      RETURN_IF_ERROR(range(static_cast<int64_t>(*r)));
      opts->*std::get<uint64_t JobOptions::*>(d->target) = *r;
      if (d->name == "size") opts->size_percent = 0;
      if (offset) *percent = -1;
      break;
    }
    case OptType::kSizeDirs:
    case OptType::kTimeDirs:
      RETURN_IF_ERROR(ParseDirs(
          *d, where, value, &(opts->*std::get<DirValues JobOptions::*>(d->target)), KbBase(*opts)));
      break;
    case OptType::kTime: {
      auto r = ParseFioTime(value, d->unit);
      if (!r.ok()) return fail(r.status());
      opts->*std::get<Nanos JobOptions::*>(d->target) = *r;
      break;
    }
    case OptType::kLog: {
      LogFile& log = opts->*std::get<LogFile JobOptions::*>(d->target);
      log.on = true;
      log.prefix = std::string(value);
      break;
    }
    case OptType::kFloatList: {
      int64_t precision = 0;
      auto r = ParseFloatList(*d, where, value, &precision);
      if (!r.ok()) return r.status();
      if (d->name == "latency_percentile" && r->size() != 1) {
        return Status::InvalidArgument(std::string(where) + ": option 'latency_percentile': " +
                                       Quoted(value) + ": one value in [0, 100]");
      }
      opts->*std::get<std::vector<double> JobOptions::*>(d->target) = *r;
      if (d->name == "percentile_list") opts->percentile_precision = precision;
      break;
    }
  }
  if (d->then) d->then(opts, value);
  if (has_value) opts->echo.emplace_back(std::string(name), std::string(value));
  return Status();
}

std::string OptionHelp(std::string_view name) {
  auto one = [](const OptionDef& d, bool full) {
    std::string s;
    char buf[256];
    std::snprintf(buf, sizeof(buf), "%-20s: %s\n", std::string(d.name).c_str(),
                  std::string(d.help).c_str());
    s += buf;
    if (!full) return s;
    if (!d.alias.empty()) s += "alias                : " + std::string(d.alias) + "\n";
    static const char* kTypes[] = {"string",
                                   "string (choice)",
                                   "boolean",
                                   "flag",
                                   "integer",
                                   "size",
                                   "size[,size][,size]",
                                   "time",
                                   "flag or file name prefix",
                                   "list of floating point values separated by ':'",
                                   "time[,time][,time]"};
    s += "type                 : " + std::string(kTypes[static_cast<int>(d.type)]) + "\n";
    if (!d.def.empty()) s += "default              : " + std::string(d.def) + "\n";
    if (d.type == OptType::kInt) {
      s += "range                : " + std::to_string(d.min) + " - " + std::to_string(d.max) + "\n";
    }
    for (const auto& ev : d.values) {
      std::snprintf(buf, sizeof(buf), "                     : %-12s %s%s\n",
                    std::string(ev.value).c_str(), std::string(ev.help).c_str(),
                    ev.supported ? "" : " (not supported by storlab sim)");
      s += buf;
    }
    return s;
  };
  if (name.empty() || name == "all") {
    std::string s;
    for (const auto& d : OptionTable()) s += one(d, false);
    return s;
  }
  const OptionDef* d = FindOption(name);
  if (!d) return "No such option " + Quoted(name) + "\n";
  return one(*d, true);
}

}  // namespace storlab::fio
