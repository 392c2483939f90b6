// fio's terse output (stat.c show_thread_status_terse_all and
// show_ddir_status_terse, versions 2 to 5): one line of ';'-separated fields
// per job (or group with group_reporting), field for field as fio 3.33
// prints them.
#include <cstdarg>
#include <cstdio>

#include "workloads/fio/append_printf.h"
#include "workloads/fio/fio_known_options.h"
#include "workloads/fio/output.h"

namespace storlab::fio {
namespace {

constexpr size_t kListMax = 20;  // fio's FIO_IO_U_LIST_MAX_LEN

using ULL = unsigned long long;

// fio's calc_lat() then ";min;max;mean;dev" in microseconds.
void LatUsec(std::string* s, const LatencyHistogram& h) {
  if (h.samples()) {
    AppendPrintf(s, ";%llu;%llu;%f;%f", static_cast<ULL>(h.min() / 1000),
                 static_cast<ULL>(h.max() / 1000), h.mean() / 1000, h.stddev() / 1000);
  } else {
    AppendPrintf(s, ";%llu;%llu;%f;%f", 0ULL, 0ULL, 0.0, 0.0);
  }
}

void DirTerse(std::string* s, const ThreadStat& ts, const GroupStat& rs, int ddir, int ver) {
  const DirStat& d = ts.dir[ddir];
  uint64_t bw = 0, iops = 0;
  if (d.runtime_ms) {
    bw = (1000 * d.io_bytes / d.runtime_ms) / 1024;
    iops = (1000 * d.total_ios) / d.runtime_ms;
  }
  AppendPrintf(s, ";%llu;%llu;%llu;%llu", static_cast<ULL>(d.io_bytes >> 10), static_cast<ULL>(bw),
               static_cast<ULL>(iops), static_cast<ULL>(d.runtime_ms));
  LatUsec(s, d.slat);
  LatUsec(s, d.clat);
  const LatencyHistogram* ph = ts.lat_percentiles    ? &d.lat
                               : ts.clat_percentiles ? &d.clat
                                                     : nullptr;
  const std::vector<double>& list = ts.percentile_list;
  std::vector<uint64_t> vals;
  if (ph) vals = ph->Percentiles(list);
  for (size_t i = 0; i < kListMax; ++i) {
    if (i >= vals.size()) {
      AppendPrintf(s, ";0%%=0");
      continue;
    }
    AppendPrintf(s, ";%f%%=%llu", list[i], static_cast<ULL>(vals[i] / 1000));
  }
  LatUsec(s, d.lat);
  const bool bw_stat = d.bw.samples != 0;
  if (bw_stat) {
    double p_of_agg = 100.0;
    if (rs.agg[ddir]) {
      // fio's convert_agg_kbytes_percent() divides the aggregate in integers.
      p_of_agg = d.bw.mean * 100 /
                 static_cast<double>(rs.agg[ddir] / 1024);  // NOLINT(bugprone-integer-division)
      if (p_of_agg > 100.0) p_of_agg = 100.0;
    }
    AppendPrintf(s, ";%llu;%llu;%f%%;%f;%f", static_cast<ULL>(d.bw.min), static_cast<ULL>(d.bw.max),
                 p_of_agg, d.bw.mean, d.bw.stddev());
  } else {
    AppendPrintf(s, ";%llu;%llu;%f%%;%f;%f", 0ULL, 0ULL, 0.0, 0.0, 0.0);
  }
  if (ver == 5) {
    AppendPrintf(s, ";%llu", static_cast<ULL>(bw_stat ? d.bw.samples : 0));
    if (d.iops.samples) {
      AppendPrintf(s, ";%llu;%llu;%f;%f;%llu", static_cast<ULL>(d.iops.min),
                   static_cast<ULL>(d.iops.max), d.iops.mean, d.iops.stddev(),
                   static_cast<ULL>(d.iops.samples));
    } else {
      AppendPrintf(s, ";%llu;%llu;%f;%f;%lu", 0ULL, 0ULL, 0.0, 0.0, 0UL);
    }
  }
}

std::string JobTerse(const FioRun& run, const FioRun::Report& rep, const GroupStat& rs, int ver,
                     bool disk_util) {
  const ThreadStat& ts = rep.ts;
  std::string s;
  if (ver == 2) {
    AppendPrintf(&s, "2;%s;%d;%d", ts.name.c_str(), ts.groupid, ts.error);
  } else {
    AppendPrintf(&s, "%d;%s;%s;%d;%d", ver, std::string(FioVersion()).c_str(), ts.name.c_str(),
                 ts.groupid, ts.error);
  }
  // unified_rw_reporting: mixed's line has one status, the sum; both's
  // adds it after the others (stat.c show_mixed_ddir_status_terse()).
  DirTerse(&s, ts, rs, kRead, ver);
  if (ts.unified_rw_rep != kUnifiedMixed) {
    DirTerse(&s, ts, rs, kWrite, ver);
    if (ver == 2 || ver == 4 || ver == 5) DirTerse(&s, ts, rs, kTrim, ver);
  }
  if (ts.unified_rw_rep == kUnifiedBoth) DirTerse(&s, ts.Mixed(), rs, kRead, ver);
  double usr = 0, sys = 0;
  if (ts.total_run_time_ms) {
    const double runt = static_cast<double>(ts.total_run_time_ms);
    usr = static_cast<double>(ts.usr_time_ms) * 100 / runt;
    sys = static_cast<double>(ts.sys_time_ms) * 100 / runt;
  }
  AppendPrintf(&s, ";%f%%;%f%%;%llu;%llu;%llu", usr, sys, static_cast<ULL>(ts.ctx),
               static_cast<ULL>(ts.majf), static_cast<ULL>(ts.minf));
  const uint64_t total = ts.dir[0].total_ios + ts.dir[1].total_ios + ts.dir[2].total_ios;
  for (double v : CalcDist(ts.io_u_map, total)) AppendPrintf(&s, ";%3.1f%%", v);
  // fio's stat_calc_lat_nu(): the nanosecond buckets go into the first
  // microsecond one, "to keep the terse format unaltered".
  auto lat_u = CalcLat(ts.lat_u, total);
  uint64_t ntotal = 0;
  for (uint64_t n : ts.lat_n) ntotal += n;
  lat_u[0] += 100.0 * static_cast<double>(ntotal) / static_cast<double>(total);
  for (double v : lat_u) AppendPrintf(&s, ";%3.2f%%", v);
  for (double v : CalcLat(ts.lat_m, total)) AppendPrintf(&s, ";%3.2f%%", v);
  if (ver >= 3 && disk_util) {
    for (const auto& d : DiskUtilJson(run)) {
      AppendPrintf(&s, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
                   d["name"].get<std::string>().c_str(), d["read_ios"].get<ULL>(),
                   d["write_ios"].get<ULL>(), d["read_merges"].get<ULL>(),
                   d["write_merges"].get<ULL>(), d["read_ticks"].get<ULL>(),
                   d["write_ticks"].get<ULL>(), d["in_queue"].get<ULL>(), d["util"].get<double>());
    }
  }
  if (ts.continue_on_error) {
    AppendPrintf(&s, ";%llu;%d", static_cast<ULL>(ts.total_err_count), ts.first_error);
  }
  if (!ts.description.empty()) {
    if (ver == 2) s += "\n";
    s += ";" + ts.description;
  }
  s += "\n";
  return s;
}

}  // namespace

std::string FioTerseReport(const FioRun& run, int version) {
  auto reports = run.Reports();
  auto groups = run.Groups(reports);
  const bool disk_util = run.ShowsDiskUtil();
  const GroupStat none;
  std::string s;
  for (const auto& rep : reports) {
    const GroupStat& rs = rep.ts.groupid < 0 ? none : groups[static_cast<size_t>(rep.ts.groupid)];
    s += JobTerse(run, rep, rs, version, disk_util);
  }
  return s;
}

}  // namespace storlab::fio
