#include "workloads/fio/options.h"

#include <algorithm>
#include <cstdio>

// The tables below use designated initializers and rely on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {
namespace {

using O = JobOptions;

// The help texts are fio's own (options.c), so `--cmdhelp` reads the same.
std::vector<OptionDef> MakeTable() {
  std::vector<OptionDef> t;
  auto add = [&](OptionDef d) { t.push_back(std::move(d)); };
  add({.name = "name", .type = OptType::kString, .target = &O::name, .help = "Name of this job"});
  add({.name = "description",
       .type = OptType::kString,
       .target = &O::description,
       .help = "Text job description"});
  add({.name = "rw",
       .alias = "readwrite",
       .type = OptType::kEnum,
       .target = &O::rw,
       .def = "read",
       .values = {{"read", "Sequential read"},
                  {"write", "Sequential write"},
                  {"trim", "Sequential trim", false},
                  {"randread", "Random read"},
                  {"randwrite", "Random write"},
                  {"randtrim", "Random trim", false},
                  {"rw", "Sequential read and write mix"},
                  {"readwrite", "Sequential read and write mix"},
                  {"randrw", "Random read and write mix"},
                  {"trimwrite", "Trim and write mix, trims preceding writes", false},
                  {"randtrimwrite", "Randomly trim and write", false}},
       .help = "IO direction"});
  add({.name = "rwmixread",
       .type = OptType::kInt,
       .target = &O::rwmixread,
       .def = "50",
       .min = 0,
       .max = 100,
       .help = "Percentage of mixed workload that is reads"});
  add({.name = "rwmixwrite",
       .type = OptType::kInt,
       .target = &O::rwmixread,
       .def = "50",
       .min = 0,
       .max = 100,
       .help = "Percentage of mixed workload that is writes",
       .inverse = true});
  add({.name = "bs",
       .alias = "blocksize",
       .type = OptType::kSizeDirs,
       .target = &O::bs,
       .def = "4096",
       .min = 1,
       .max = int64_t{1} << 30,
       .help = "Block size unit"});
  add({.name = "size",
       .type = OptType::kSize,
       .target = &O::size,
       .min = 1,
       .help = "Total size of device or files (N% of the file system also works)"});
  add({.name = "filesize",
       .type = OptType::kSize,
       .target = &O::filesize,
       .min = 1,
       .help = "Size of individual files"});
  add({.name = "nrfiles",
       .alias = "nr_files",
       .type = OptType::kInt,
       .target = &O::nrfiles,
       .def = "1",
       .min = 1,
       .max = 4096,
       .help = "Split job workload between this number of files"});
  add({.name = "numjobs",
       .type = OptType::kInt,
       .target = &O::numjobs,
       .def = "1",
       .min = 1,
       .max = 4096,
       .help = "Duplicate this job this many times"});
  add({.name = "iodepth",
       .type = OptType::kInt,
       .target = &O::iodepth,
       .def = "1",
       .min = 1,
       .max = 65536,
       .help = "Number of IO buffers to keep in flight"});
  add({.name = "ioengine",
       .type = OptType::kEnum,
       .target = &O::ioengine,
       .def = "psync",
       .values = {{"sync", "Use read/write"},
                  {"psync", "Use pread/pwrite"},
                  {"libaio", "Linux native asynchronous IO"},
                  {"io_uring", "Fast Linux native aio"},
                  {"posixaio", "POSIX asynchronous IO"},
                  {"null", "Testing engine (no I/O is done)"},
                  {"vsync", "Use readv/writev", false},
                  {"pvsync", "Use preadv/pwritev", false},
                  {"pvsync2", "Use preadv2/pwritev2", false},
                  {"mmap", "Memory mapped IO", false},
                  {"splice", "splice/vmsplice based IO", false},
                  {"sg", "SCSI generic v3 IO", false},
                  {"net", "Network IO", false},
                  {"nbd", "Network Block Device", false},
                  {"rbd", "Rados Block Device", false}},
       .help = "IO engine to use"});
  add({.name = "direct",
       .type = OptType::kBool,
       .target = &O::direct,
       .def = "0",
       .help = "Use O_DIRECT IO (negates buffered)"});
  add({.name = "buffered",
       .type = OptType::kBool,
       .target = &O::direct,
       .def = "1",
       .help = "Use buffered IO (negates direct)",
       .inverse = true});
  add({.name = "runtime",
       .alias = "timeout",
       .type = OptType::kTime,
       .target = &O::runtime,
       .def = "0",
       .unit = TimeUnit::kSeconds,
       .help = "Stop workload when this amount of time has passed"});
  add({.name = "time_based",
       .type = OptType::kSet,
       .target = &O::time_based,
       .help = "Keep running until runtime/timeout is met"});
  add({.name = "ramp_time",
       .type = OptType::kTime,
       .target = &O::ramp_time,
       .def = "0",
       .unit = TimeUnit::kSeconds,
       .help = "Ramp up time before measuring performance"});
  add({.name = "startdelay",
       .type = OptType::kTime,
       .target = &O::startdelay,
       .def = "0",
       .unit = TimeUnit::kSeconds,
       .help = "Only start job when this period has passed"});
  add({.name = "loops",
       .alias = "loop",
       .type = OptType::kInt,
       .target = &O::loops,
       .def = "1",
       .min = 1,
       .max = 1 << 30,
       .help = "Number of times to run the job"});
  add({.name = "end_fsync",
       .type = OptType::kBool,
       .target = &O::end_fsync,
       .def = "0",
       .help = "Include fsync at the end of job"});
  add({.name = "fsync",
       .type = OptType::kInt,
       .target = &O::fsync_blocks,
       .def = "0",
       .min = 0,
       .max = 1 << 30,
       .help = "Issue fsync for writes every given number of blocks"});
  add({.name = "fdatasync",
       .type = OptType::kInt,
       .target = &O::fdatasync_blocks,
       .def = "0",
       .min = 0,
       .max = 1 << 30,
       .help = "Issue fdatasync for writes every given number of blocks"});
  add({.name = "directory",
       .type = OptType::kString,
       .target = &O::directory,
       .help = "Directory to store files in"});
  add({.name = "filename",
       .type = OptType::kString,
       .target = &O::filename,
       .help = "File(s) to use for the workload"});
  add({.name = "overwrite",
       .type = OptType::kBool,
       .target = &O::overwrite,
       .def = "0",
       .help = "When writing, set whether to overwrite current data"});
  add({.name = "invalidate",
       .type = OptType::kBool,
       .target = &O::invalidate,
       .def = "1",
       .help = "Invalidate buffer/page cache prior to running job"});
  add({.name = "group_reporting",
       .type = OptType::kSet,
       .target = &O::group_reporting,
       .help = "Do reporting on a per-group basis"});
  add({.name = "randrepeat",
       .type = OptType::kBool,
       .target = &O::randrepeat,
       .def = "1",
       .help = "Use repeatable random IO pattern"});
  add({.name = "randseed",
       .type = OptType::kInt,
       .target = &O::randseed,
       .min = 1,
       .help = "Set the random generator seed value"});
  add({.name = "random_generator",
       .type = OptType::kEnum,
       .target = &O::random_generator,
       .def = "tausworthe",
       .values = {{"tausworthe", "Strong Tausworthe generator"},
                  {"lfsr", "Variable length LFSR"},
                  {"tausworthe64", "64-bit Tausworthe variant"}},
       .help = "Type of random number generator to use"});
  add({.name = "norandommap",
       .type = OptType::kSet,
       .target = &O::norandommap,
       .help = "Accept potential duplicate random blocks"});
  add({.name = "verify",
       .type = OptType::kEnum,
       .target = &O::verify,
       .def = "0",
       .values = {{"0", "Don't do IO verification"},
                  {"md5", "Use md5 checksums for verification", false},
                  {"crc32c", "Use crc32c checksums for verification", false},
                  {"crc32", "Use crc32 checksums for verification", false},
                  {"xxhash", "Use xxhash checksums for verification", false},
                  {"sha256", "Use sha256 checksums for verification", false},
                  {"meta", "Use io_u meta data for verification", false},
                  {"pattern", "Verify strict pattern", false},
                  {"null", "Pretend to verify", false}},
       .help = "Verify data written"});
  add({.name = "thinktime",
       .type = OptType::kTime,
       .target = &O::thinktime,
       .def = "0",
       .unit = TimeUnit::kMicroseconds,
       .help = "Idle time between IO buffers (usec)"});
  add({.name = "thinktime_blocks",
       .type = OptType::kInt,
       .target = &O::thinktime_blocks,
       .def = "1",
       .min = 1,
       .max = 1 << 30,
       .help = "IO buffer period between 'thinktime'"});
  add({.name = "rate",
       .type = OptType::kSizeDirs,
       .target = &O::rate,
       .def = "0",
       .help = "Set bandwidth rate"});
  add({.name = "rate_iops",
       .type = OptType::kSizeDirs,
       .target = &O::rate_iops,
       .def = "0",
       .help = "Limit IO used to this number of IO operations/sec"});
  add({.name = "stonewall",
       .alias = "wait_for_previous",
       .type = OptType::kSet,
       .target = &O::stonewall,
       .help = "Insert a hard barrier between this job and previous"});
  add({.name = "new_group",
       .type = OptType::kSet,
       .target = &O::new_group,
       .help = "Mark the start of a new group (for reporting)"});
  add({.name = "thread",
       .type = OptType::kSet,
       .target = &O::thread,
       .help = "Use threads instead of processes"});
  return t;
}

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

const std::vector<OptionDef>& OptionTable() {
  static const std::vector<OptionDef> kTable = MakeTable();
  return kTable;
}

const OptionDef* FindOption(std::string_view name) {
  for (const auto& d : OptionTable()) {
    if (d.name == name || (!d.alias.empty() && d.alias == name)) return &d;
  }
  return nullptr;
}

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
