#include "workloads/fio/thread_stat.h"

#include <algorithm>
#include <cmath>

namespace storlab::fio {

void IoStat::Add(uint64_t v) {
  if (v > max) max = v;
  if (v < min) min = v;
  double val = static_cast<double>(v);
  double delta = val - mean;
  if (delta != 0) {
    mean += delta / (static_cast<double>(samples) + 1.0);
    s += delta * (val - mean);
  }
  ++samples;
}

void IoStat::Sum(const IoStat& o) {
  if (o.samples == 0) return;
  if (samples == 0) {
    *this = o;
    return;
  }
  min += o.min;
  max += o.max;
  samples += o.samples;
  mean += o.mean;
  s += o.s;
}

double IoStat::stddev() const {
  if (samples < 2) return 0;
  return std::sqrt(s / (static_cast<double>(samples) - 1.0));
}

void ThreadStat::MarkDepth(uint32_t d) {
  int idx = d >= 64 ? 6 : d >= 32 ? 5 : d >= 16 ? 4 : d >= 8 ? 3 : d >= 4 ? 2 : d >= 2 ? 1 : 0;
  ++io_u_map[idx];
}

namespace {
int EntryIndex(uint32_t nr) {
  if (nr == 0) return 0;
  if (nr <= 4) return 1;
  if (nr <= 8) return 2;
  if (nr <= 16) return 3;
  if (nr <= 32) return 4;
  if (nr <= 64) return 5;
  return 6;
}
}  // namespace

void ThreadStat::MarkSubmit(uint32_t nr) {
  ++io_u_submit[EntryIndex(nr)];
  ++total_submit;
}

void ThreadStat::MarkComplete(uint32_t nr) {
  ++io_u_complete[EntryIndex(nr)];
  ++total_complete;
}

void ThreadStat::MarkLatency(uint64_t nsec) {
  // fio's io_u_mark_lat_{nsec,usec,msec}: buckets named by their upper
  // bound ("20" holds 10..19).
  auto small = [](uint64_t v) {
    return v >= 750   ? 9
           : v >= 500 ? 8
           : v >= 250 ? 7
           : v >= 100 ? 6
           : v >= 50  ? 5
           : v >= 20  ? 4
           : v >= 10  ? 3
           : v >= 4   ? 2
           : v >= 2   ? 1
                      : 0;
  };
  if (nsec < 1000) {
    ++lat_n[small(nsec)];
  } else if (nsec < 1000000) {
    ++lat_u[small(nsec / 1000)];
  } else {
    uint64_t ms = nsec / 1000000;
    ++lat_m[ms >= 2000 ? 11 : ms >= 1000 ? 10 : small(ms)];
  }
}

void DirStat::AddPrio(uint32_t ioprio, uint64_t nsec) {
  for (PrioStat& p : prios) {
    if (p.ioprio == ioprio) {
      p.lat.Add(nsec);
      return;
    }
  }
}

// stat.c get_nr_prios_with_samples().
size_t DirStat::prios_with_samples() const {
  size_t n = 0;
  for (const PrioStat& p : prios) n += p.lat.samples() > 0;
  return n;
}

void ThreadStat::ResetIo() {
  for (auto& d : dir) {
    for (PrioStat& p : d.prios) p.lat.Reset();
    d.slat.Reset();
    d.clat.Reset();
    d.lat.Reset();
    d.bw = IoStat();
    d.iops = IoStat();
    d.io_bytes = d.total_ios = d.short_ios = d.drop_ios = d.runtime_ms = 0;
  }
  sync_total = 0;
  sync_lat.Reset();
  io_u_map = {};
  io_u_submit = {};
  io_u_complete = {};
  total_submit = total_complete = 0;
  lat_n = {};
  lat_u = {};
  lat_m = {};
}

void ThreadStat::Merge(const ThreadStat& src) {
  for (int l = 0; l < 3; ++l) {
    DirStat& d = dir[unified_rw_rep == kUnifiedMixed ? kRead : l];
    const DirStat& s = src.dir[l];
    d.clat.Merge(s.clat);
    d.slat.Merge(s.slat);
    d.lat.Merge(s.lat);
    d.bw.Sum(s.bw);
    d.iops.Sum(s.iops);
    d.io_bytes += s.io_bytes;
    d.runtime_ms = std::max(d.runtime_ms, s.runtime_ms);
    d.total_ios += s.total_ios;
    d.short_ios += s.short_ios;
    d.drop_ios += s.drop_ios;
    // stat.c sum_clat_prio_stats(): by priority value, a new one appended.
    for (const PrioStat& sp : s.prios) {
      auto it = std::find_if(d.prios.begin(), d.prios.end(),
                             [&](const PrioStat& p) { return p.ioprio == sp.ioprio; });
      if (it == d.prios.end()) {
        d.prios.push_back({.ioprio = sp.ioprio});
        it = d.prios.end() - 1;
      }
      it->lat.Merge(sp.lat);
    }
  }
  sync_lat.Merge(src.sync_lat);
  usr_time_ms += src.usr_time_ms;
  sys_time_ms += src.sys_time_ms;
  ctx += src.ctx;
  majf += src.majf;
  minf += src.minf;
  for (int k = 0; k < 7; ++k) {
    io_u_map[k] += src.io_u_map[k];
    io_u_submit[k] += src.io_u_submit[k];
    io_u_complete[k] += src.io_u_complete[k];
  }
  for (size_t k = 0; k < lat_n.size(); ++k) lat_n[k] += src.lat_n[k];
  for (size_t k = 0; k < lat_u.size(); ++k) lat_u[k] += src.lat_u[k];
  for (size_t k = 0; k < lat_m.size(); ++k) lat_m[k] += src.lat_m[k];
  sync_total += src.sync_total;
  total_run_time_ms += src.total_run_time_ms;
  total_submit += src.total_submit;
  total_complete += src.total_complete;
}

ThreadStat ThreadStat::Mixed() const {
  ThreadStat m;
  m.unified_rw_rep = kUnifiedMixed;
  m.kb_base = m.unit_base = m.sig_figs = 0;
  m.percentile_list = percentile_list;
  m.percentile_precision = percentile_precision;
  m.clat_percentiles = clat_percentiles;
  m.lat_percentiles = lat_percentiles;
  m.slat_percentiles = slat_percentiles;
  m.Merge(*this);
  return m;
}

void GroupStat::Add(const ThreadStat& ts) {
  kb_base = ts.kb_base;
  unit_base = ts.unit_base;
  sig_figs = ts.sig_figs;
  unified_rw_rep |= ts.unified_rw_rep;
  for (int j = 0; j < 3; ++j) {
    const DirStat& d = ts.dir[j];
    if (!d.runtime_ms) continue;
    if (d.runtime_ms < min_run[j] || !min_run[j]) min_run[j] = d.runtime_ms;
    if (d.runtime_ms > max_run[j]) max_run[j] = d.runtime_ms;
    uint64_t bw = d.io_bytes * 1000 / d.runtime_ms;
    if (bw < min_bw[j] || !min_bw[j]) min_bw[j] = bw;
    if (bw > max_bw[j]) max_bw[j] = bw;
    iobytes[j] += d.io_bytes;
  }
}

void GroupStat::Finish() {
  for (int j = 0; j < 3; ++j) {
    if (max_run[j]) agg[j] = iobytes[j] * 1000 / max_run[j];
  }
}

std::array<double, 7> CalcDist(const std::array<uint64_t, 7>& map, uint64_t total) {
  std::array<double, 7> out{};
  for (int i = 0; i < 7; ++i) {
    if (!total) continue;
    out[i] = static_cast<double>(map[i]) / static_cast<double>(total) * 100.0;
    if (out[i] < 0.1 && map[i]) out[i] = 0.1;
  }
  return out;
}

}  // namespace storlab::fio
