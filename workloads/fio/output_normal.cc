// fio's normal output (stat.c show_thread_status_normal, show_ddir_status,
// show_group_stats; init.c's job lines), format for format.
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "workloads/fio/append_printf.h"
#include "workloads/fio/engines.h"
#include "workloads/fio/output.h"
#include "workloads/fio/steadystate.h"

namespace storlab::fio {
namespace {

std::string N2s(uint64_t v, bool pow2, const char* unit) { return Num2Str(v, 4, 1, pow2, unit); }

const char* RwName(const std::string& rw) { return rw == "readwrite" ? "rw" : rw.c_str(); }

// fio's nsec_to_usec / nsec_to_msec.
const char* ScaleLat(uint64_t* min, uint64_t* max, double* mean, double* dev) {
  if (*min > 2000000 && *max > 99999999ULL && *dev > 1000000.0) {
    *min /= 1000000;
    *max /= 1000000;
    *mean /= 1e6;
    *dev /= 1e6;
    return "(msec)";
  }
  if (*min > 2000 && *max > 99999 && *dev > 1000.0) {
    *min /= 1000;
    *max /= 1000;
    *mean /= 1e3;
    *dev /= 1e3;
    return "(usec)";
  }
  return "(nsec)";
}

void DisplayLat(std::string* s, const char* name, const LatencyHistogram& h) {
  uint64_t mn = h.min(), mx = h.max();
  double mean = h.mean(), dev = h.stddev();
  const char* base = ScaleLat(&mn, &mx, &mean, &dev);
  AppendPrintf(s, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base,
               Num2Str(mn, 6, 1, false, "").c_str(), Num2Str(mx, 6, 1, false, "").c_str(), mean,
               dev);
}

void Percentiles(std::string* s, const char* pre, const LatencyHistogram& h, const ThreadStat& ts) {
  const auto& list = ts.percentile_list;
  if (list.empty()) return;
  std::vector<uint64_t> v = h.Percentiles(list);
  uint64_t minv = UINT64_MAX, maxv = 0;
  for (uint64_t x : v) {
    minv = std::min(minv, x);
    maxv = std::max(maxv, x);
  }
  int scale = 0;
  uint64_t divisor = 1;
  if (minv > 2000000 && maxv > 99999999ULL) {
    scale = 2;
    divisor = 1000000;
    AppendPrintf(s, "    %s percentiles (msec):\n     |", pre);
  } else if (minv > 2000 && maxv > 99999) {
    scale = 1;
    divisor = 1000;
    AppendPrintf(s, "    %s percentiles (usec):\n     |", pre);
  } else {
    AppendPrintf(s, "    %s percentiles (nsec):\n     |", pre);
  }
  uint64_t scaled = maxv / divisor;
  int width =
      scaled ? std::max(5, static_cast<int>(std::log10(static_cast<double>(scaled)) + 1)) : 5;
  const int precision = ts.percentile_precision;
  int per_line = (80 - 7) / (precision + 10 + width);
  for (size_t j = 0; j < list.size(); ++j) {
    if (j != 0 && j % static_cast<size_t>(per_line) == 0) AppendPrintf(s, "     |");
    bool last = j == list.size() - 1;
    uint64_t val = v[j];
    for (int i = 0; i < scale; ++i) val = (val + 999) / 1000;
    AppendPrintf(s, " %*.*fth=[%*" PRIu64 "]%c", precision + 3, precision, list[j], width, val,
                 last ? '\n' : ',');
    if (last) break;
    if (j % static_cast<size_t>(per_line) == static_cast<size_t>(per_line) - 1)
      AppendPrintf(s, "\n");
  }
}

void DdirStatus(std::string* s, const ThreadStat& ts, const GroupStat& rs, int ddir) {
  const DirStat& d = ts.dir[ddir];
  if (!d.runtime_ms) return;
  uint64_t bw = 1000 * d.io_bytes / d.runtime_ms;
  uint64_t iops = 1000 * d.total_ios / d.runtime_ms;
  AppendPrintf(s, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)%s\n",
               ddir == kRead    ? "read"
               : ddir == kWrite ? "write"
                                : "trim",
               Num2Str(iops, 4, 1, false, "").c_str(), N2s(bw, true, "B/s").c_str(),
               N2s(bw, false, "B/s").c_str(), N2s(d.io_bytes, true, "B").c_str(), d.runtime_ms,
               ddir == kWrite ? "; 0 zone resets" : "");
  if (d.slat.samples()) DisplayLat(s, "slat", d.slat);
  if (d.clat.samples()) DisplayLat(s, "clat", d.clat);
  if (d.lat.samples()) DisplayLat(s, " lat", d.lat);
  // stat.c show_ddir_status(): per priority, when two have samples.
  const bool prios = d.prios_with_samples() >= 2;
  const char* clat_type = ts.lat_percentiles ? "lat" : "clat";
  char name[64];
  for (const PrioStat& p : d.prios) {
    if (!prios || !p.lat.samples()) continue;
    std::snprintf(name, sizeof(name), "%s prio %u/%u", clat_type, p.ioprio >> 13, p.ioprio & 7);
    DisplayLat(s, name, p.lat);
  }
  if (ts.slat_percentiles && d.slat.samples()) Percentiles(s, "slat", d.slat, ts);
  if (ts.clat_percentiles && d.clat.samples()) Percentiles(s, "clat", d.clat, ts);
  if (ts.lat_percentiles && d.lat.samples()) Percentiles(s, "lat", d.lat, ts);
  const uint64_t total = ts.lat_percentiles ? d.lat.samples() : d.clat.samples();
  for (const PrioStat& p : d.prios) {
    if (!prios || !p.lat.samples() || !(ts.clat_percentiles || ts.lat_percentiles)) continue;
    std::snprintf(name, sizeof(name), "%s prio %u/%u (%.2f%% of IOs)", clat_type, p.ioprio >> 13,
                  p.ioprio & 7,
                  100. * static_cast<double>(p.lat.samples()) / static_cast<double>(total));
    Percentiles(s, name, p.lat, ts);
  }
  if (d.bw.samples) {
    double mean = d.bw.mean, dev = d.bw.stddev();
    uint64_t mn = d.bw.min, mx = d.bw.max;
    double p = 100.0;
    if (rs.agg[ddir] > 1024) {
      p = static_cast<int>(mean) * 100.0 / (static_cast<double>(rs.agg[ddir]) / 1024.0);
      if (p > 100.0) p = 100.0;
    }
    const char* unit = "KiB";
    if (mean > 1024.0 * 1024.0) {
      mn = static_cast<uint64_t>(static_cast<double>(mn) / 1024.0);
      mx = static_cast<uint64_t>(static_cast<double>(mx) / 1024.0);
      mean /= 1024.0;
      dev /= 1024.0;
      unit = "MiB";
    }
    AppendPrintf(s,
                 "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64
                 ", per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
                 unit, mn, mx, p, mean, dev, d.bw.samples);
  }
  if (d.iops.samples) {
    AppendPrintf(s,
                 "   iops        : min=%5" PRIu64 ", max=%5" PRIu64
                 ", avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
                 d.iops.min, d.iops.max, d.iops.mean, d.iops.stddev(), d.iops.samples);
  }
}

template <size_t N>
void ShowLat(std::string* s, const std::array<double, N>& v, const char* const* ranges,
             const char* unit) {
  bool new_line = true, shown = false;
  int line = 0;
  for (size_t i = 0; i < N; ++i) {
    if (v[i] <= 0.0) continue;
    shown = true;
    if (new_line) {
      if (line) AppendPrintf(s, "\n");
      AppendPrintf(s, "  lat (%s)   : ", unit);
      new_line = false;
      line = 0;
    }
    if (line) AppendPrintf(s, ", ");
    AppendPrintf(s, "%s%3.2f%%", ranges[i], v[i]);
    if (++line == 5) new_line = true;
  }
  if (shown) AppendPrintf(s, "\n");
}

void ThreadStatus(std::string* s, const ThreadStat& ts, const GroupStat& rs,
                  const std::string& time) {
  uint64_t total = ts.dir[0].total_ios + ts.dir[1].total_ios + ts.dir[2].total_ios;
  if (!(ts.dir[0].io_bytes + ts.dir[1].io_bytes + ts.dir[2].io_bytes) && !total) return;
  if (!ts.error) {
    AppendPrintf(s, "%s: (groupid=%d, jobs=%d): err=%2d: pid=%d: %s\n", ts.name.c_str(), ts.groupid,
                 ts.members, ts.error, 0, time.c_str());
  } else {
    AppendPrintf(s, "%s: (groupid=%d, jobs=%d): err=%2d (%s): pid=%d: %s\n", ts.name.c_str(),
                 ts.groupid, ts.members, ts.error, ts.verror.c_str(), 0, time.c_str());
  }
  if (!ts.description.empty()) AppendPrintf(s, "  Description  : [%s]\n", ts.description.c_str());
  for (int d = 0; d < 3; ++d) {
    if (ts.dir[d].io_bytes) DdirStatus(s, ts, rs, d);
  }
  static const char* const kRanges[] = {
      "2=", "4=", "10=", "20=", "50=", "100=", "250=", "500=", "750=", "1000=", "2000=", ">=2000="};
  ShowLat(s, CalcLat(ts.lat_n, total), kRanges, "nsec");
  ShowLat(s, CalcLat(ts.lat_u, total), kRanges, "usec");
  ShowLat(s, CalcLat(ts.lat_m, total), kRanges, "msec");
  if (ts.sync_lat.samples()) {
    AppendPrintf(s, "  fsync/fdatasync/sync_file_range:\n");
    DisplayLat(s, "sync", ts.sync_lat);
    Percentiles(s, "sync", ts.sync_lat, ts);
  }
  double usr = 0, sys = 0;
  if (ts.total_run_time_ms) {
    usr = static_cast<double>(ts.usr_time_ms) * 100 / static_cast<double>(ts.total_run_time_ms);
    sys = static_cast<double>(ts.sys_time_ms) * 100 / static_cast<double>(ts.total_run_time_ms);
  }
  AppendPrintf(s,
               "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64
               ", minf=%" PRIu64 "\n",
               usr, sys, ts.ctx, ts.majf, ts.minf);
  auto d = CalcDist(ts.io_u_map, total);
  AppendPrintf(
      s,
      "  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, "
      ">=64=%3.1f%%\n",
      d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
  d = CalcDist(ts.io_u_submit, ts.total_submit);
  AppendPrintf(
      s,
      "     submit    : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, "
      ">=64=%3.1f%%\n",
      d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
  d = CalcDist(ts.io_u_complete, ts.total_complete);
  AppendPrintf(
      s,
      "     complete  : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, "
      ">=64=%3.1f%%\n",
      d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
  AppendPrintf(s,
               "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               " short=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 dropped=%" PRIu64 ",%" PRIu64
               ",%" PRIu64 ",0\n",
               ts.dir[0].total_ios, ts.dir[1].total_ios, ts.dir[2].total_ios, ts.sync_total,
               ts.dir[0].short_ios, ts.dir[1].short_ios, ts.dir[2].short_ios, ts.dir[0].drop_ios,
               ts.dir[1].drop_ios, ts.dir[2].drop_ios);
  if (ts.continue_on_error) {
    AppendPrintf(s, "     errors    : total=%" PRIu64 ", first_error=%d/<%s>\n", ts.total_err_count,
                 ts.first_error, std::strerror(ts.first_error));
  }
  AppendPrintf(
      s, "     latency   : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, depth=%u\n",
      ts.latency_target, ts.latency_window, ts.latency_percentile, ts.latency_depth);
  if (ts.ss) {  // stat.c show_ss_normal()
    const SteadyState& ss = *ts.ss;
    const SteadyStateCriterion& c = ss.criterion_spec();
    AppendPrintf(s, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
                 ss.attained() ? "yes" : "no",
                 Num2Str(ss.bw_mean() / 1024, 4, 1024, true, "B/s").c_str(),
                 Num2Str(ss.bw_mean() / 1024, 4, 1024, false, "B/s").c_str(),
                 Num2Str(ss.iops_mean(), 4, 1, false, "").c_str(), c.iops ? "iops" : "bw",
                 c.slope ? " slope" : " mean dev", ss.criterion(), c.pct ? "%" : "");
  }
}

void GroupStatus(std::string* s, const GroupStat& rs) {
  AppendPrintf(s, "\nRun status group %d (all jobs):\n", rs.groupid);
  static const char* const kNames[] = {"   READ", "  WRITE", "   TRIM"};
  for (int i = 0; i < 3; ++i) {
    if (!rs.max_run[i]) continue;
    AppendPrintf(s, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64 "msec\n",
                 kNames[i], N2s(rs.agg[i], true, "B/s").c_str(),
                 N2s(rs.agg[i], false, "B/s").c_str(), N2s(rs.min_bw[i], true, "B/s").c_str(),
                 N2s(rs.max_bw[i], true, "B/s").c_str(), N2s(rs.min_bw[i], false, "B/s").c_str(),
                 N2s(rs.max_bw[i], false, "B/s").c_str(), N2s(rs.iobytes[i], true, "B").c_str(),
                 N2s(rs.iobytes[i], false, "B").c_str(), rs.min_run[i], rs.max_run[i]);
  }
}

}  // namespace

std::string FioNormalHeader(const FioRun& run) {
  std::string s;
  int processes = 0, threads = 0;
  for (const JobSpec& j : run.jobs().jobs) {
    (j.opts.thread ? threads : processes)++;
    if (j.clone == 0) {
      // fio's min_bs-max_bs per direction (bsrange=, bssplit=); a replay
      // shows the options' sizes, not the trace's.
      std::string lo[3], hi[3];
      for (size_t d = 0; d < 3; ++d) {
        const DirBlockSizes& z = j.sizes[d];
        lo[d] = N2s(j.trace ? j.opts.bs[d] : z.min, true, "B");
        hi[d] = N2s(j.trace ? j.opts.bs[d] : z.max, true, "B");
      }
      AppendPrintf(
          &s, "%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%u\n",
          j.name.c_str(), j.groupid, RwName(j.opts.rw), lo[0].c_str(), hi[0].c_str(), lo[1].c_str(),
          hi[1].c_str(), lo[2].c_str(), hi[2].c_str(), j.opts.ioengine.c_str(),
          static_cast<unsigned>(j.opts.iodepth));
    } else if (j.clone == 1) {
      AppendPrintf(&s, "...\n");
    }
  }
  AppendPrintf(&s, "fio-3.33\nStarting ");
  if (processes) AppendPrintf(&s, "%d process%s", processes, processes > 1 ? "es" : "");
  if (processes && threads) AppendPrintf(&s, " and ");
  if (threads) AppendPrintf(&s, "%d thread%s", threads, threads > 1 ? "s" : "");
  AppendPrintf(&s, "\n");
  for (const auto& l : run.layout()) {
    AppendPrintf(&s, "%s: Laying out IO file%s (%u file%s / %s%" PRIu64 "MiB)\n", l.job.c_str(),
                 l.files > 1 ? "s" : "", l.files, l.files > 1 ? "s" : "",
                 l.files > 1 ? "total " : "", l.bytes >> 20);
  }
  return s;
}

std::string FioNormalReport(const FioRun& run, const OutputOptions& options) {
  std::string s = "\n";
  auto reports = run.Reports();
  auto groups = run.Groups(reports);
  std::string time = FioTimeString(options.real_time);
  for (const auto& rep : reports) {
    ThreadStatus(&s, rep.ts, groups[static_cast<size_t>(rep.ts.groupid)], time);
  }
  for (const auto& g : groups) GroupStatus(&s, g);
  bool any_io = false;
  for (const auto& r : run.runners()) any_io |= !GetEngineModel(r->spec().engine).diskless;
  if (any_io) {
    auto du = DiskUtilJson(run)[0];
    AppendPrintf(&s, "\nDisk stats (read/write):\n");
    AppendPrintf(&s,
                 "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=0/0, ticks=%" PRIu64 "/%" PRIu64
                 ", in_queue=%" PRIu64 ", util=%3.2f%%\n",
                 du["name"].get<std::string>().c_str(), du["read_ios"].get<uint64_t>(),
                 du["write_ios"].get<uint64_t>(), du["read_ticks"].get<uint64_t>(),
                 du["write_ticks"].get<uint64_t>(), du["in_queue"].get<uint64_t>(),
                 du["util"].get<double>());
  }
  return s;
}

}  // namespace storlab::fio
