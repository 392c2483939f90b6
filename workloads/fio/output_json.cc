#include <cstdio>
#include <ctime>

#include "sim/stats_json.h"
#include "workloads/fio/fio_json_print.h"
#include "workloads/fio/output.h"
#include "workloads/fio/steadystate.h"

namespace storlab::fio {
namespace {

using Json = nlohmann::ordered_json;

Json LatJson(const LatencyHistogram& h, bool percentiles, const ThreadStat& ts, bool plus) {
  Json j;
  j["min"] = h.min();
  j["max"] = h.max();
  j["mean"] = h.samples() ? h.mean() : 0.0;
  j["stddev"] = h.stddev();
  j["N"] = h.samples();
  if (percentiles && h.samples()) {
    const auto& list = ts.percentile_list;
    auto values = h.Percentiles(list);
    Json p = Json::object();
    for (size_t i = 0; i < list.size(); ++i) {
      char key[32];
      std::snprintf(key, sizeof key, "%f", list[i]);
      p[key] = values[i];
    }
    j["percentile"] = p;
    if (plus) {
      // stat.c add_ddir_lat_json(): every bucket that counted, by value.
      Json bins = Json::object();
      for (unsigned i = 0; i < LatencyHistogram::kBuckets; ++i) {
        if (h.bucket(i)) bins[std::to_string(LatencyHistogram::IndexToValue(i))] = h.bucket(i);
      }
      j["bins"] = bins;
    }
  }
  return j;
}

Json DirJson(const ThreadStat& ts, const GroupStat& rs, int ddir, bool plus) {
  const DirStat& d = ts.dir[ddir];
  Json j;
  uint64_t bw_bytes = 0, bw = 0;
  double iops = 0;
  if (d.runtime_ms) {
    bw_bytes = 1000 * d.io_bytes / d.runtime_ms;
    bw = bw_bytes / 1024;
    iops = 1000.0 * static_cast<double>(d.total_ios) / static_cast<double>(d.runtime_ms);
  }
  j["io_bytes"] = d.io_bytes;
  j["io_kbytes"] = d.io_bytes >> 10;
  j["bw_bytes"] = bw_bytes;
  j["bw"] = bw;
  j["iops"] = iops;
  j["runtime"] = d.runtime_ms;
  j["total_ios"] = d.total_ios;
  j["short_ios"] = d.short_ios;
  j["drop_ios"] = d.drop_ios;
  j["slat_ns"] = LatJson(d.slat, ts.slat_percentiles, ts, plus);
  j["clat_ns"] = LatJson(d.clat, ts.clat_percentiles, ts, plus);
  j["lat_ns"] = LatJson(d.lat, ts.lat_percentiles, ts, plus);
  // stat.c add_ddir_status_json(): per priority, when two have samples.
  if (d.prios_with_samples() >= 2) {
    Json prios = Json::array();
    for (const PrioStat& p : d.prios) {
      if (!p.lat.samples()) continue;
      Json o;
      o["prioclass"] = p.ioprio >> 13;
      o["prio"] = p.ioprio & 7;
      o[ts.lat_percentiles ? "lat_ns" : "clat_ns"] =
          LatJson(p.lat, ts.clat_percentiles || ts.lat_percentiles, ts, plus);
      prios.push_back(std::move(o));
    }
    j["prios"] = std::move(prios);
  }
  uint64_t mn = 0, mx = 0;
  double mean = 0, dev = 0, agg = 0;
  if (d.bw.samples) {
    mn = d.bw.min;
    mx = d.bw.max;
    mean = d.bw.mean;
    dev = d.bw.stddev();
    // fio's convert_agg_kbytes_percent() takes the mean as an int.
    agg = 100.0;
    if (rs.agg[ddir] > 1024) {
      agg = static_cast<int>(mean) * 100.0 / (static_cast<double>(rs.agg[ddir]) / 1024.0);
      if (agg > 100.0) agg = 100.0;
    }
  }
  j["bw_min"] = mn;
  j["bw_max"] = mx;
  j["bw_agg"] = agg;
  j["bw_mean"] = mean;
  j["bw_dev"] = dev;
  j["bw_samples"] = d.bw.samples;
  j["iops_min"] = d.iops.samples ? d.iops.min : 0;
  j["iops_max"] = d.iops.max;
  j["iops_mean"] = d.iops.samples ? d.iops.mean : 0.0;
  j["iops_stddev"] = d.iops.stddev();
  j["iops_samples"] = d.iops.samples;
  return j;
}

Json Echo(const std::vector<std::pair<std::string, std::string>>& echo) {
  Json j = Json::object();
  for (const auto& [k, v] : echo) j[k] = v;
  return j;
}

template <size_t N>
Json Buckets(const std::array<double, N>& v, const char* const* names) {
  Json j;
  for (size_t i = 0; i < N; ++i) j[names[i]] = v[i];
  return j;
}

// stat.c show_thread_status_json(): the "block" object of
// block_error_percentiles, when a block was trimmed (block_infos.h).
void BlockJson(const ThreadStat& ts, Json* j) {
  const BlockInfos::Summary s = ts.blocks.Summarize(ts.percentile_list);
  if (s.percentiles.empty()) return;
  Json p = Json::object();
  for (size_t i = 0; i < s.percentiles.size(); ++i) {
    char key[32];
    std::snprintf(key, sizeof key, "%f", ts.percentile_list[i]);
    p[key] = s.percentiles[i];
  }
  Json states = Json::object();
  for (uint32_t k = 0; k < BlockInfos::kStates; ++k) states[BlockInfos::StateName(k)] = s.states[k];
  (*j)["block"]["percentiles"] = p;
  (*j)["block"]["states"] = states;
}

// stat.c show_thread_status_json(): the "steadystate" object.
Json SteadyStateJson(const SteadyState& ss) {
  const SteadyStateCriterion& c = ss.criterion_spec();
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s%s:%f%s", c.iops ? "iops" : "bw", c.slope ? "_slope" : "",
                static_cast<double>(static_cast<float>(c.limit)), c.pct ? "%" : "");
  Json j;
  j["ss"] = buf;
  j["duration"] = ss.dur();
  j["attained"] = ss.attained() ? 1 : 0;
  std::snprintf(buf, sizeof(buf), "%f%s", static_cast<double>(static_cast<float>(ss.criterion())),
                c.pct ? "%" : "");
  j["criterion"] = buf;
  j["max_deviation"] = ss.deviation();
  j["slope"] = ss.slope();
  Json data;
  data["bw_mean"] = ss.bw_mean();
  data["iops_mean"] = ss.iops_mean();
  data["iops"] = ss.Ordered(false);
  data["bw"] = ss.Ordered(true);
  j["data"] = data;
  return j;
}

Json JobJson(const FioRun::Report& rep, const GroupStat& rs, uint64_t elapsed_s, bool plus) {
  const ThreadStat& ts = rep.ts;
  Json j;
  // fio's json leaves out an empty string: an empty slot (stats=0, see
  // FioRun::Reports()) has no jobname, and its group -1 prints unsigned.
  if (!ts.name.empty()) j["jobname"] = ts.name;
  if (ts.groupid < 0) {
    j["groupid"] = static_cast<uint32_t>(ts.groupid);
  } else {
    j["groupid"] = ts.groupid;
  }
  j["error"] = ts.error;
  j["eta"] = 0;
  j["elapsed"] = elapsed_s;
  if (rep.opts && !rep.opts->echo.empty()) j["job options"] = Echo(rep.opts->echo);
  // stat.c add_ddir_status_json(): unified_rw_reporting=mixed has one
  // "mixed" object and no others (not even sync); =both adds "mixed" after
  // them, the directions summed (add_mixed_ddir_status_json()).
  if (ts.unified_rw_rep == kUnifiedMixed) {
    j["mixed"] = DirJson(ts, rs, kRead, plus);
  } else {
    static const char* const kDirs[] = {"read", "write", "trim"};
    for (int d = 0; d < 3; ++d) j[kDirs[d]] = DirJson(ts, rs, d, plus);
    Json sync;
    sync["total_ios"] = ts.sync_total;
    sync["lat_ns"] = LatJson(ts.sync_lat, ts.lat_percentiles || ts.clat_percentiles, ts, plus);
    j["sync"] = sync;
    if (ts.unified_rw_rep == kUnifiedBoth) j["mixed"] = DirJson(ts.Mixed(), rs, kRead, plus);
  }
  double usr = 0, sys = 0;
  if (ts.total_run_time_ms) {
    usr = static_cast<double>(ts.usr_time_ms) * 100 / static_cast<double>(ts.total_run_time_ms);
    sys = static_cast<double>(ts.sys_time_ms) * 100 / static_cast<double>(ts.total_run_time_ms);
  }
  j["job_runtime"] = ts.total_run_time_ms;
  j["usr_cpu"] = usr;
  j["sys_cpu"] = sys;
  j["ctx"] = ts.ctx;
  j["majf"] = ts.majf;
  j["minf"] = ts.minf;
  uint64_t total = ts.dir[0].total_ios + ts.dir[1].total_ios + ts.dir[2].total_ios;
  static const char* const kDepth[] = {"1", "2", "4", "8", "16", "32", ">=64"};
  static const char* const kEntries[] = {"0", "4", "8", "16", "32", "64", ">=64"};
  j["iodepth_level"] = Buckets(CalcDist(ts.io_u_map, total), kDepth);
  j["iodepth_submit"] = Buckets(CalcDist(ts.io_u_submit, ts.total_submit), kEntries);
  j["iodepth_complete"] = Buckets(CalcDist(ts.io_u_complete, ts.total_complete), kEntries);
  static const char* const kLat[] = {"2",   "4",   "10",  "20",   "50",   "100",
                                     "250", "500", "750", "1000", "2000", ">=2000"};
  j["latency_ns"] = Buckets(CalcLat(ts.lat_n, total), kLat);
  j["latency_us"] = Buckets(CalcLat(ts.lat_u, total), kLat);
  j["latency_ms"] = Buckets(CalcLat(ts.lat_m, total), kLat);
  // continue_on_error: the errors the job went on after (and the last).
  if (ts.continue_on_error) {
    j["total_err"] = ts.total_err_count;
    j["first_error"] = ts.first_error;
  }
  if (ts.latency_depth) {
    j["latency_depth"] = ts.latency_depth;
    j["latency_target"] = ts.latency_target;
    j["latency_percentile"] = ts.latency_percentile;
    j["latency_window"] = ts.latency_window;
  }
  if (!ts.description.empty()) j["desc"] = ts.description;
  if (!ts.blocks.empty()) BlockJson(ts, &j);
  if (ts.ss) j["steadystate"] = SteadyStateJson(*ts.ss);
  return j;
}

}  // namespace

// The device under the file system, as fio's disk_util shows a disk.
Json DiskUtilJson(const FioRun& run) {
  const SimHost& host = run.host();
  const Node& root = host.device();
  const NodeStats& s = root.stats();
  Nanos now = host.engine().now();
  auto ticks = [&](Op op) {
    const LatencyHistogram& h = s.op(op).latency_ns;
    return static_cast<uint64_t>(h.mean() * static_cast<double>(h.samples()) / 1e6);
  };
  Json d;
  d["name"] = root.name();
  d["read_ios"] = s.op(Op::kRead).ops;
  d["write_ios"] = s.op(Op::kWrite).ops;
  d["read_merges"] = 0;
  d["write_merges"] = 0;
  d["read_ticks"] = ticks(Op::kRead);
  d["write_ticks"] = ticks(Op::kWrite);
  d["in_queue"] = static_cast<uint64_t>(s.MeanQueueDepth(now) * now.millis());
  double util = now.count() ? s.BusyTime(now).seconds() * 100.0 / now.seconds() : 0.0;
  d["util"] = util > 100.0 ? 100.0 : util;
  Json a = Json::array();
  a.push_back(d);
  return a;
}

int64_t FioTimestamp(bool real_time) {
  return real_time ? static_cast<int64_t>(std::time(nullptr)) : 0;
}

std::string FioTimeString(bool real_time) {
  std::time_t t = static_cast<std::time_t>(FioTimestamp(real_time));
  std::tm tm;
  if (real_time) {
    localtime_r(&t, &tm);
  } else {
    gmtime_r(&t, &tm);
  }
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm);
  return buf;
}

Json StorlabJson(const FioRun& run) {
  const SimHost& host = run.host();
  Json j;
  j["stack"] = host.options().stack;
  j["stack_description"] = host.stack().description;
  j["seed"] = host.options().seed;
  Json h;
  h["mem_bytes"] = host.host().mem_bytes;
  h["cores"] = host.host().cores;
  h["dirty_background_ratio"] = host.host().dirty_background_ratio;
  h["dirty_ratio"] = host.host().dirty_ratio;
  h["page_cache"] = host.page_cache() ? host.page_cache()->name()
                                      : "none: " + host.device().name() + " caches for itself";
  j["host"] = h;
  j["simulated_ns"] = host.engine().now().count();
  j["events"] = host.engine().events_run();
  Json fs;
  fs["capacity"] = host.fs().capacity();
  fs["used"] = host.fs().used_bytes();
  fs["layout_bytes_written"] = run.layout_bytes();
  fs["layout_ns"] = run.layout_time().count();
  j["file_system"] = fs;
  Json jobs = Json::array();
  for (const auto& r : run.runners()) {
    const auto& x = r->extras();
    Json e;
    e["jobname"] = r->spec().name;
    e["clone"] = r->spec().clone;
    e["start_ns"] = x.start.count();
    e["epoch_ns"] = x.epoch.count();
    e["io_end_ns"] = x.io_end.count();
    e["end_fsync_ns"] = x.end_fsync.count();
    e["end_ns"] = x.end.count();
    e["passes"] = x.passes;
    jobs.push_back(e);
  }
  j["jobs"] = jobs;
  j["nodes"] = StackStatsJson(host.stack())["nodes"];
  if (run.segments() > 1) {  // stonewalled: each segment's own figures
    std::vector<std::vector<std::string>> names(static_cast<size_t>(run.segments()));
    for (const auto& r : run.runners()) {
      names[static_cast<size_t>(r->spec().segment)].push_back(r->spec().name);
    }
    j["phases"] = run.phases().Json(host.stack(), host.engine().now(), names);
  }
  return j;
}

Json FioJson(const FioRun& run, const OutputOptions& options) {
  Json root;
  root["fio version"] = "fio-3.33";
  int64_t ts = FioTimestamp(options.real_time);
  root["timestamp"] = ts;
  root["timestamp_ms"] = ts * 1000;
  root["time"] = FioTimeString(options.real_time);
  if (!run.jobs().global_echo.empty()) root["global options"] = Echo(run.jobs().global_echo);
  auto reports = run.Reports();
  auto groups = run.Groups(reports);
  uint64_t elapsed_s = static_cast<uint64_t>((run.end_time().count() + 999999999) / 1000000000);
  Json jobs = Json::array();
  const GroupStat none;
  for (const auto& rep : reports) {
    const GroupStat& rs = rep.ts.groupid < 0 ? none : groups[static_cast<size_t>(rep.ts.groupid)];
    jobs.push_back(JobJson(rep, rs, elapsed_s, options.json_plus));
  }
  root["jobs"] = jobs;
  if (run.ShowsDiskUtil()) root["disk_util"] = DiskUtilJson(run);
  root["storlab"] = StorlabJson(run);
  return root;
}

std::string FioJsonText(const FioRun& run, const OutputOptions& options) {
  return FioJsonDump(FioJson(run, options));
}

}  // namespace storlab::fio
