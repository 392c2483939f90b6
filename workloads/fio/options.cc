// Applying fio options to a job (options.h): checks each value against its
// table entry, explains unknown and unsupported options, and prints
// `--cmdhelp`.
#include "workloads/fio/options.h"

#include <algorithm>
#include <cstdio>

namespace storlab::fio {
namespace {

// Options fio has that storlab sim deliberately does not model: named in the
// error so the user knows the job file is fine for fio.
constexpr std::string_view kKnownUnsupported[] = {"bsrange",
                                                  "bssplit",
                                                  "offset",
                                                  "offset_increment",
                                                  "zonesize",
                                                  "zonemode",
                                                  "verify_fatal",
                                                  "do_verify",
                                                  "unlink",
                                                  "fallocate",
                                                  "create_serialize",
                                                  "create_fsync",
                                                  "zero_buffers",
                                                  "refill_buffers",
                                                  "buffer_compress_percentage",
                                                  "buffer_pattern",
                                                  "percentile_list",
                                                  "lat_percentiles",
                                                  "clat_percentiles",
                                                  "unified_rw_reporting",
                                                  "iodepth_batch",
                                                  "iodepth_batch_complete",
                                                  "iodepth_low",
                                                  "cpus_allowed",
                                                  "cpumask",
                                                  "nice",
                                                  "prio",
                                                  "write_bw_log",
                                                  "write_lat_log",
                                                  "write_iops_log",
                                                  "log_avg_msec",
                                                  "kb_base",
                                                  "unit_base",
                                                  "exitall",
                                                  "continue_on_error",
                                                  "sync",
                                                  "fsync_on_close",
                                                  "end_syncfs",
                                                  "rate_min",
                                                  "rate_process",
                                                  "random_distribution",
                                                  "percentage_random",
                                                  "file_service_type",
                                                  "openfiles",
                                                  "lockfile",
                                                  "mem",
                                                  "iomem",
                                                  "hugepage-size",
                                                  "clocksource",
                                                  "gtod_reduce",
                                                  "disable_lat",
                                                  "disable_clat",
                                                  "disable_slat",
                                                  "disable_bw_measurement",
                                                  "steadystate",
                                                  "ss",
                                                  "ss_dur",
                                                  "ss_ramp",
                                                  "trim_percentage",
                                                  "experimental_verify",
                                                  "serialize_overlap",
                                                  "hipri",
                                                  "fixedbufs",
                                                  "registerfiles",
                                                  "sqthread_poll",
                                                  "userspace_reap",
                                                  "allow_file_create",
                                                  "pre_read",
                                                  "scramble_buffers",
                                                  "dedupe_percentage",
                                                  "readonly",
                                                  "rw_sequencer",
                                                  "ioscheduler",
                                                  "thinktime_spin",
                                                  "thinktime_blocks_type",
                                                  "exec_prerun",
                                                  "exec_postrun",
                                                  "flow",
                                                  "flow_id",
                                                  "cgroup",
                                                  "uid",
                                                  "gid",
                                                  "numa_cpu_nodes",
                                                  "latency_target",
                                                  "max_latency",
                                                  "create_on_open",
                                                  "size_percent"};

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

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
  return Status::InvalidArgument(std::string(where) + ": option " + Quote(d.name) + ": " +
                                 why.message());
}

Status ParseDirs(const OptionDef& d, std::string_view where, std::string_view value,
                 DirValues* out) {
  std::vector<std::string> parts = SplitCommas(value);
  if (parts.size() > 3) {
    return Status::InvalidArgument(std::string(where) + ": option " + Quote(d.name) + ": " +
                                   Quote(value) + ": at most three values (read,write,trim)");
  }
  DirValues def = *out;
  std::array<bool, 3> given = {false, false, false};
  DirValues v = def;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) continue;
    auto r = ParseFioSize(parts[i]);
    if (!r.ok()) return BadValue(d, where, value, r.status());
    if (static_cast<int64_t>(*r) < d.min || static_cast<int64_t>(*r) > d.max) {
      return Status::InvalidArgument(std::string(where) + ": option " + Quote(d.name) + ": " +
                                     Quote(parts[i]) + " out of range [" + std::to_string(d.min) +
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
    std::string msg = std::string(where) + ": unknown option " + Quote(name);
    for (auto u : kKnownUnsupported) {
      if (u == name) {
        return Status::InvalidArgument(std::string(where) + ": option " + Quote(name) +
                                       " is a fio option that storlab sim does not support");
      }
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
    if (!best.empty()) msg += " (did you mean " + Quote(best) + "?)";
    return Status::InvalidArgument(msg);
  }
  if (!has_value && d->type != OptType::kSet) {
    return Status::InvalidArgument(std::string(where) + ": option " + Quote(d->name) +
                                   " requires a value");
  }
  auto fail = [&](const Status& why) { return BadValue(*d, where, value, why); };
  auto range = [&](int64_t v) -> Status {
    if (v < d->min || v > d->max) {
      return Status::InvalidArgument(std::string(where) + ": option " + Quote(d->name) + ": " +
                                     Quote(value) + " out of range [" + std::to_string(d->min) +
                                     ", " + std::to_string(d->max) + "]");
    }
    return Status();
  };
  switch (d->type) {
    case OptType::kString:
      if (value.empty()) {
        return Status::InvalidArgument(std::string(where) + ": option " + Quote(d->name) +
                                       " requires a value");
      }
      opts->*std::get<std::string JobOptions::*>(d->target) = std::string(value);
      break;
    case OptType::kEnum: {
      const EnumValue* found = nullptr;
      for (const auto& ev : d->values) {
        if (ev.value == value) found = &ev;
      }
      if (!found) {
        std::string allowed;
        for (const auto& ev : d->values) {
          if (!ev.supported) continue;
          allowed += (allowed.empty() ? "" : ", ") + std::string(ev.value);
        }
        return Status::InvalidArgument(std::string(where) + ": option " + Quote(d->name) + ": " +
                                       Quote(value) + " is not one of " + allowed);
      }
      if (!found->supported) {
        return Status::InvalidArgument(std::string(where) + ": option " + Quote(d->name) + ": " +
                                       Quote(value) + " (" + std::string(found->help) +
                                       ") is not supported by storlab sim");
      }
      opts->*std::get<std::string JobOptions::*>(d->target) = std::string(value);
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
          return Status::InvalidArgument(std::string(where) + ": option 'size': " + Quote(value) +
                                         ": a percentage must be 1% to 100%");
        }
        opts->size_percent = *r;
        opts->size = 0;
        break;
      }
      auto r = ParseFioSize(value);
      if (!r.ok()) return fail(r.status());
      RETURN_IF_ERROR(range(static_cast<int64_t>(*r)));
      opts->*std::get<uint64_t JobOptions::*>(d->target) = *r;
      if (d->name == "size") opts->size_percent = 0;
      break;
    }
    case OptType::kSizeDirs:
      RETURN_IF_ERROR(
          ParseDirs(*d, where, value, &(opts->*std::get<DirValues JobOptions::*>(d->target))));
      break;
    case OptType::kTime: {
      auto r = ParseFioTime(value, d->unit);
      if (!r.ok()) return fail(r.status());
      opts->*std::get<Nanos JobOptions::*>(d->target) = *r;
      break;
    }
  }
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
    static const char* kTypes[] = {"string", "string (choice)",    "boolean", "flag", "integer",
                                   "size",   "size[,size][,size]", "time"};
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
  if (!d) return "No such option '" + std::string(name) + "'\n";
  return one(*d, true);
}

}  // namespace storlab::fio
