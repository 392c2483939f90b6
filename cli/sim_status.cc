// --status-interval's periodic reports (sim_status.h).
#include "cli/sim_status.h"

#include <string>
#include <vector>

#include "workloads/fio/fio_json_print.h"

namespace storlab::cli {
namespace {

// fio's runtime in milliseconds, rounded up as update_runtime() does.
uint64_t RuntimeMs(Nanos d) {
  const auto us = static_cast<uint64_t>(d.count()) / 1000;
  return (us + 999) / 1000;
}

void ShowRunning(const SimArgs& a, const fio::OutputOptions& opts, fio::FioRun& run, Nanos now,
                 FILE* out) {
  // __show_running_run_stats(): the running jobs' runtime up to now, for
  // the report only.
  struct Saved {
    fio::ThreadStat* ts;
    uint64_t runtime[2], total;
  };
  std::vector<Saved> saved;
  for (const auto& r : run.runners()) {
    if (!r->running()) continue;
    fio::ThreadStat& ts = r->stat();
    saved.push_back({&ts, {ts.dir[0].runtime_ms, ts.dir[1].runtime_ms}, ts.total_run_time_ms});
    const Nanos since = now - r->extras().epoch;
    for (int d = 0; d < 2; ++d) {
      if (ts.dir[d].io_bytes) ts.dir[d].runtime_ms = RuntimeMs(since);
    }
    ts.total_run_time_ms = static_cast<uint64_t>(since.count() / 1000000);
  }
  if (a.terse) std::fputs(fio::FioTerseReport(run, a.terse_version).c_str(), out);
  if (a.json) std::fputs(fio::FioJsonDump(fio::FioJson(run, opts)).c_str(), out);
  if (a.normal) std::fputs(fio::FioNormalReport(run, opts).c_str(), out);
  std::fflush(out);
  for (const Saved& s : saved) {
    s.ts->dir[0].runtime_ms = s.runtime[0];
    s.ts->dir[1].runtime_ms = s.runtime[1];
    s.ts->total_run_time_ms = s.total;
  }
}

}  // namespace

void SetStatusReports(const SimArgs& a, const fio::OutputOptions& opts, fio::FioRun& run, Nanos t0,
                      FILE* out) {
  if (a.status_interval <= Nanos(0)) return;
  run.SetStatusInterval(t0 + a.status_interval, a.status_interval,
                        [&a, opts, &run, out](Nanos now) { ShowRunning(a, opts, run, now, out); });
}

}  // namespace storlab::cli
