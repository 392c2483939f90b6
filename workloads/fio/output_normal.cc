// fio's normal output (stat.c show_thread_status_normal, show_ddir_status,
// show_group_stats; init.c's job lines), format for format.
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "workloads/fio/append_printf.h"
#include "workloads/fio/output.h"
#include "workloads/fio/report_units.h"
#include "workloads/fio/steadystate.h"

namespace storlab::fio {
namespace {

std::string N2s(uint64_t v, bool pow2, const char* unit, int sig_figs = 4) {
  return Num2Str(v, sig_figs, 1, pow2, unit);
}

// stat.c show_ss_normal(): num2str(bw_mean / kb_base, sig_figs, kb_base, ...).
std::string SteadyBw(uint64_t bw_mean, const ThreadStat& ts, bool pow2) {
  const uint64_t v = bw_mean / static_cast<uint64_t>(ts.kb_base);
  if (ts.unit_base == kN2sBitPerSec) return Num2Str(v * 8, ts.sig_figs, ts.kb_base, pow2, "bit/s");
  return Num2Str(v, ts.sig_figs, ts.kb_base, pow2, "B/s");
}

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

// stat.c show_ddir_status(): sizes and rates in the units of kb_base
// (rs's), unit_base and significant_figures (ts's).
void DdirStatus(std::string* s, const ThreadStat& ts, const GroupStat& rs, int ddir) {
  const DirStat& d = ts.dir[ddir];
  if (!d.runtime_ms) return;
  uint64_t bw = 1000 * d.io_bytes / d.runtime_ms;
  uint64_t iops = 1000 * d.total_ios / d.runtime_ms;
  const bool i2p = KbPow2(rs.kb_base);
  const int sf = ts.sig_figs;
  AppendPrintf(s, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)%s\n",
               ts.unified_rw_rep == kUnifiedMixed ? "mixed"
               : ddir == kRead                    ? "read"
               : ddir == kWrite                   ? "write"
                                                  : "trim",
               Num2Str(iops, sf, 1, false, "").c_str(), RateStr(bw, sf, i2p, ts.unit_base).c_str(),
               RateStr(bw, sf, !i2p, ts.unit_base).c_str(), N2s(d.io_bytes, i2p, "B", sf).c_str(),
               d.runtime_ms, ddir == kWrite ? "; 0 zone resets" : "");
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
    // fio compares rs->unit_base with 1, which N2S_BITPERSEC never is:
    // the samples stay in bytes, "KiB" or "kB" as kb_base says, and above
    // kb_base² they are divided by kb_base and called "MiB" either way.
    const char* unit = i2p ? "KiB" : "kB";
    const double kb = rs.kb_base;
    if (mean > kb * kb) {
      mn = static_cast<uint64_t>(static_cast<double>(mn) / kb);
      mx = static_cast<uint64_t>(static_cast<double>(mx) / kb);
      mean /= kb;
      dev /= kb;
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
  if (ts.unified_rw_rep == kUnifiedBoth) DdirStatus(s, ts.Mixed(), rs, kRead);
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
  if (!ts.blocks.empty()) ts.blocks.AppendNormal(ts.percentile_list, s);
  if (ts.ss) {  // stat.c show_ss_normal()
    const SteadyState& ss = *ts.ss;
    const bool i2p = KbPow2(ts.kb_base);
    const SteadyStateCriterion& c = ss.criterion_spec();
    AppendPrintf(s, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
                 ss.attained() ? "yes" : "no", SteadyBw(ss.bw_mean(), ts, i2p).c_str(),
                 SteadyBw(ss.bw_mean(), ts, !i2p).c_str(),
                 Num2Str(ss.iops_mean(), ts.sig_figs, 1, false, "").c_str(), c.iops ? "iops" : "bw",
                 c.slope ? " slope" : " mean dev", ss.criterion(), c.pct ? "%" : "");
  }
}

// stat.c show_group_stats() and, with unified_rw_reporting=both,
// show_mixed_group_stats().
void GroupLine(std::string* s, const GroupStat& rs, const char* name, uint64_t agg, uint64_t min_bw,
               uint64_t max_bw, uint64_t io, uint64_t min_run, uint64_t max_run) {
  const bool i2p = KbPow2(rs.kb_base);
  const int sf = rs.sig_figs, u = rs.unit_base;
  AppendPrintf(s, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64 "msec\n",
               name, RateStr(agg, sf, i2p, u).c_str(), RateStr(agg, sf, !i2p, u).c_str(),
               RateStr(min_bw, sf, i2p, u).c_str(), RateStr(max_bw, sf, i2p, u).c_str(),
               RateStr(min_bw, sf, !i2p, u).c_str(), RateStr(max_bw, sf, !i2p, u).c_str(),
               N2s(io, i2p, "B", sf).c_str(), N2s(io, !i2p, "B", sf).c_str(), min_run, max_run);
}

void GroupStatus(std::string* s, const GroupStat& rs) {
  AppendPrintf(s, "\nRun status group %d (all jobs):\n", rs.groupid);
  static const char* const kNames[] = {"   READ", "  WRITE", "   TRIM"};
  uint64_t io = 0, agg = 0, min_bw = UINT64_MAX, max_bw = 0, min_run = UINT64_MAX, max_run = 0;
  for (int i = 0; i < 3; ++i) {
    if (!rs.max_run[i]) continue;
    GroupLine(s, rs, rs.unified_rw_rep == kUnifiedMixed ? "  MIXED" : kNames[i], rs.agg[i],
              rs.min_bw[i], rs.max_bw[i], rs.iobytes[i], rs.min_run[i], rs.max_run[i]);
    io += rs.iobytes[i];
    agg += rs.agg[i];
    min_bw = std::min(min_bw, rs.min_bw[i]);
    max_bw = std::max(max_bw, rs.max_bw[i]);
    min_run = std::min(min_run, rs.min_run[i]);
    max_run = std::max(max_run, rs.max_run[i]);
  }
  if (rs.unified_rw_rep == kUnifiedBoth) {
    GroupLine(s, rs, "  MIXED", agg, min_bw, max_bw, io, min_run, max_run);
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
      // init.c add_job(): in kb_base's units, significant_figures long.
      std::string lo[3], hi[3];
      const bool i2p = j.opts.kb_base != "1000";
      const int sf = static_cast<int>(j.opts.sig_figs);
      for (size_t d = 0; d < 3; ++d) {
        const DirBlockSizes& z = j.sizes[d];
        lo[d] = N2s(j.trace ? j.opts.bs[d] : z.min, i2p, "B", sf);
        hi[d] = N2s(j.trace ? j.opts.bs[d] : z.max, i2p, "B", sf);
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
    if (rep.ts.groupid < 0) continue;  // an empty slot (stats=0): no I/O, nothing shown
    ThreadStatus(&s, rep.ts, groups[static_cast<size_t>(rep.ts.groupid)], time);
  }
  for (const auto& g : groups) GroupStatus(&s, g);
  if (run.ShowsDiskUtil()) {
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
