// The report's time series and their CSV (see report_series.h).
#include "workloads/report/report_series.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "sim/node.h"
#include "sim/node_kind.h"

namespace storlab::report {
namespace {

using Kind = RunSampler::Kind;
using Cols = std::vector<const RunSampler::Column*>;

// The nodes whose throughput the first chart shows: links, NFS mounts and
// the devices at the bottom.
bool IsCarrier(const Node& n) {
  return n.kind() == NodeKind::kLink || n.kind() == NodeKind::kNfs || n.children().empty();
}

// Nothing to draw: a gauge that stays 0, a count that never grows.
bool AllZero(const RunSampler::Column& c) {
  if (c.kind == Kind::kGauge || c.kind == Kind::kLimit || c.kind == Kind::kDepth) {
    return std::all_of(c.values.begin(), c.values.end(), [](double v) { return v == 0; });
  }
  for (size_t i = 1; i < c.values.size(); ++i) {
    if (c.values[i] > c.values[i - 1]) return false;
  }
  return true;
}

std::string Quoted(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

}  // namespace

std::string SeriesLabel(const RunSampler::Column& c) {
  if (c.figure.rfind("client_", 0) == 0) return c.node + " (fio, " + c.figure.substr(7) + ")";
  return c.node + " " + c.figure;
}

const char* SeriesUnit(const RunSampler::Column& c) {
  switch (c.kind) {
    case Kind::kRate:
      return "bytes/s";
    case Kind::kBusy:
      return "busy fraction";
    case Kind::kDepth:
      return "requests in flight";
    case Kind::kGauge:
    case Kind::kLimit:
      break;
  }
  return "bytes";
}

std::vector<ChartPlan> PlanCharts(fio::FioRun& run, const RunSampler& s) {
  const auto& nodes = run.host().stack().nodes();
  std::vector<ChartPlan> out;
  // Throughput: what fio saw against what crossed each link and reached
  // each device.
  Cols tp;
  for (const auto& c : s.columns()) {
    if (c.figure.rfind("client_", 0) == 0 && !AllZero(c)) tp.push_back(&c);
  }
  for (const auto& n : nodes) {
    const auto* c = s.Find(n->name(), "bytes");
    if (IsCarrier(*n) && c && !AllZero(*c)) tp.push_back(c);
  }
  out.push_back({.title = "Throughput: the jobs (fio) against links and devices",
                 .cols = tp,
                 .unit = "MB/s",
                 .factor = 1e-6,
                 .log_y = true});
  // Each volatile cache: what it holds and its limits.
  for (const auto& n : nodes) {
    Cols held, slc;
    for (const auto& c : s.columns()) {
      if (c.node != n->name() || c.kind == Kind::kRate) continue;
      if (c.figure.rfind("slc_", 0) == 0) {
        slc.push_back(&c);
      } else if (c.kind == Kind::kGauge || c.kind == Kind::kLimit) {
        held.push_back(&c);
      }
    }
    const bool holds = std::any_of(held.begin(), held.end(), [&](const auto* c) {
      return c->kind == Kind::kGauge && !AllZero(*c);
    });
    if (holds) {
      const bool limits = std::any_of(held.begin(), held.end(),
                                      [](const auto* c) { return c->kind == Kind::kLimit; });
      out.push_back({.title = "Held in '" + n->name() + "' (" + std::string(n->type()) + ")" +
                              (limits ? ", limits dashed" : ""),
                     .cols = held,
                     .unit = ""});
    }
    if (!slc.empty()) {
      out.push_back({.title = "SLC cache of '" + n->name() + "': fill and capacity (dashed)",
                     .cols = slc,
                     .unit = ""});
    }
    const auto* gc = s.Find(n->name(), "gc_copied_bytes");
    if (gc && !AllZero(*gc)) {
      out.push_back({.title = "Garbage collection in '" + n->name() + "': bytes copied",
                     .cols = {gc},
                     .unit = "/s"});
    }
  }
  Cols qd, busy;
  for (const auto& n : nodes) {
    if (!IsCarrier(*n)) continue;
    const auto* q = s.Find(n->name(), "depth");
    const auto* b = s.Find(n->name(), "busy");
    if (q && !AllZero(*q)) qd.push_back(q);
    if (b && !AllZero(*b)) busy.push_back(b);
  }
  if (!qd.empty()) {
    out.push_back({.title = "Queue depth (requests in flight at each sample)",
                   .cols = qd,
                   .unit = "depth",
                   .factor = 1});
  }
  if (!busy.empty()) {
    out.push_back({.title = "Busy (at least one request in flight)",
                   .cols = busy,
                   .unit = "%",
                   .factor = 100});
  }
  return out;
}

std::string ReportCsv(fio::FioRun& run, const RunSampler& sampler) {
  Cols cols;
  std::set<const RunSampler::Column*> seen;
  for (const ChartPlan& p : PlanCharts(run, sampler)) {
    for (const auto* c : p.cols) {
      if (seen.insert(c).second) cols.push_back(c);
    }
  }
  std::string out = "time_s";
  std::vector<std::vector<double>> figs;
  for (const auto* c : cols) {
    out += "," + Quoted(SeriesLabel(*c) + " [" + SeriesUnit(*c) + "]");
    figs.push_back(sampler.Figures(*c));
  }
  out += "\n";
  char buf[64];
  const auto& times = sampler.times();
  for (size_t i = 0; i < times.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.6f", times[i].seconds());
    out += buf;
    for (const auto& f : figs) {
      std::snprintf(buf, sizeof buf, ",%.6g", f[i]);
      out += buf;
    }
    out += "\n";
  }
  return out;
}

}  // namespace storlab::report
