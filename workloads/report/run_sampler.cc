#include "workloads/report/run_sampler.h"

#include <algorithm>
#include <cstdio>

namespace storlab::report {
namespace {

using Kind = RunSampler::Kind;

// The model figures drawn over time (names as the models' AppendStats
// write them): what a volatile cache holds and its limits, an SSD's SLC
// cache and garbage collection.
struct Pick {
  const char* stat;
  Kind kind;
};
constexpr Pick kPicks[] = {
    {"dirty_bytes", Kind::kGauge},
    {"server_dirty_bytes", Kind::kGauge},
    {"writeback_bytes", Kind::kGauge},
    {"buffered_bytes", Kind::kGauge},
    {"dirty_background_bytes", Kind::kLimit},
    {"dirty_limit_bytes", Kind::kLimit},
    {"dirty_max_bytes", Kind::kLimit},
    {"cache_size_bytes", Kind::kLimit},
    {"server_cache_size_bytes", Kind::kLimit},
    {"slc_used_bytes", Kind::kGauge},
    {"slc_capacity_bytes", Kind::kLimit},
    {"gc_copied_bytes", Kind::kRate},
};

RunSampler::Counts CountsOf(const NodeStats& s) {
  return {.reads = s.op(Op::kRead).ops,
          .read_bytes = s.op(Op::kRead).bytes,
          .writes = s.op(Op::kWrite).ops,
          .write_bytes = s.op(Op::kWrite).bytes,
          .flushes = s.op(Op::kFlush).ops};
}

double StatNamed(const StatList& list, const std::string& name) {
  for (const auto& v : list) {
    if (v.name == name) return v.value;
  }
  return 0;
}

}  // namespace

RunSampler::RunSampler(fio::FioRun& run, Nanos start)
    : run_(run), start_(start), interval_(Nanos(100'000)), next_(start) {
  // Two columns per job section (fio's numjobs clones add up), in order.
  std::vector<int> sections;
  for (const auto& r : run.runners()) {
    const int s = r->spec().section;
    auto it = std::find(sections.begin(), sections.end(), s);
    if (it == sections.end()) {
      sections.push_back(s);
      columns_.push_back({r->spec().name, "client_read", Kind::kRate, {}});
      columns_.push_back({r->spec().name, "client_write", Kind::kRate, {}});
      it = sections.end() - 1;
    }
    runner_column_.push_back(static_cast<size_t>(it - sections.begin()) * 2);
  }
  for (const auto& n : run.host().stack().nodes()) {
    at_start_.emplace_back(n.get(), CountsOf(n->stats()));
    columns_.push_back({n->name(), "bytes", Kind::kRate, {}});
    columns_.push_back({n->name(), "busy", Kind::kBusy, {}});
    columns_.push_back({n->name(), "depth", Kind::kDepth, {}});
    StatList list;
    n->AppendStats(list);
    for (const Pick& p : kPicks) {
      for (const auto& v : list) {
        if (v.name == p.stat) columns_.push_back({n->name(), p.stat, p.kind, {}});
      }
    }
  }
}

void RunSampler::Observe(Nanos until) {
  while (next_ < until) {
    Sample(next_);
    next_ = start_ + interval_ * static_cast<int64_t>(times_.size());
  }
}

void RunSampler::Finish(Nanos end) {
  Observe(end);
  if (times_.empty() || times_.back() < end - start_) Sample(end);
}

void RunSampler::Sample(Nanos t) {
  times_.push_back(t - start_);
  size_t c = 0;
  const auto& runners = run_.runners();
  const size_t job_columns =
      runner_column_.empty() ? 0
                             : *std::max_element(runner_column_.begin(), runner_column_.end()) + 2;
  for (; c < job_columns; ++c) columns_[c].values.push_back(0);
  for (size_t i = 0; i < runners.size(); ++i) {
    const auto& dir = runners[i]->stat().dir;
    columns_[runner_column_[i]].values.back() += static_cast<double>(dir[fio::kRead].io_bytes);
    columns_[runner_column_[i] + 1].values.back() += static_cast<double>(dir[fio::kWrite].io_bytes);
  }
  for (const auto& n : run_.host().stack().nodes()) {
    const NodeStats& s = n->stats();
    columns_[c++].values.push_back(
        static_cast<double>(s.op(Op::kRead).bytes + s.op(Op::kWrite).bytes));
    columns_[c++].values.push_back(static_cast<double>(s.BusyTime(t).count()));
    columns_[c++].values.push_back(static_cast<double>(s.in_flight()));
    if (c == columns_.size() || columns_[c].node != n->name()) continue;
    StatList list;
    n->AppendStats(list);
    for (; c < columns_.size() && columns_[c].node == n->name(); ++c) {
      columns_[c].values.push_back(StatNamed(list, columns_[c].figure));
    }
  }
  if (times_.size() > kMaxPoints) Thin();
}

void RunSampler::Thin() {
  auto keep_even = [](auto& v) {
    size_t j = 0;
    for (size_t i = 0; i < v.size(); i += 2) v[j++] = v[i];
    v.resize(j);
  };
  keep_even(times_);
  for (auto& c : columns_) keep_even(c.values);
  interval_ = interval_ * 2;
}

RunSampler::Counts RunSampler::Since(const Node& node) const {
  Counts now = CountsOf(node.stats());
  for (const auto& [n, c] : at_start_) {
    if (n != &node) continue;
    // A count reset since (stats reset) counts from 0.
    auto sub = [](uint64_t a, uint64_t b) { return a >= b ? a - b : a; };
    now = {.reads = sub(now.reads, c.reads),
           .read_bytes = sub(now.read_bytes, c.read_bytes),
           .writes = sub(now.writes, c.writes),
           .write_bytes = sub(now.write_bytes, c.write_bytes),
           .flushes = sub(now.flushes, c.flushes)};
  }
  return now;
}

std::vector<double> RunSampler::Figures(const Column& c) const {
  std::vector<double> out(c.values.size());
  for (size_t i = 0; i < c.values.size(); ++i) {
    if (c.kind == Kind::kGauge || c.kind == Kind::kLimit || c.kind == Kind::kDepth) {
      out[i] = c.values[i];
      continue;
    }
    if (i == 0) continue;
    const double dt = static_cast<double>((times_[i] - times_[i - 1]).count());
    // A count reset at the end of ramp_time starts again from 0.
    const double dv = std::max(0.0, c.values[i] - c.values[i - 1]);
    if (dt <= 0) continue;
    out[i] = c.kind == Kind::kRate ? dv / dt * 1e9 : dv / dt;  // kBusy: ns per ns
  }
  return out;
}

const RunSampler::Column* RunSampler::Find(const std::string& node,
                                           const std::string& figure) const {
  for (const auto& c : columns_) {
    if (c.node == node && c.figure == figure) return &c;
  }
  return nullptr;
}

double RunSampler::Peak(const std::string& node, const std::string& figure) const {
  const Column* c = Find(node, figure);
  if (!c || c->values.empty()) return 0;
  return *std::max_element(c->values.begin(), c->values.end());
}

}  // namespace storlab::report
