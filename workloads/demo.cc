#include "workloads/demo.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <thread>

#include "workloads/demo_explain.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/job_file.h"
#include "workloads/report/html_report.h"
#include "workloads/report/report_series.h"
#include "workloads/report/run_sampler.h"
#include "workloads/text_format.h"

namespace storlab::demo {
namespace {

CellResult RunCell(const Cell& cell, const DemoOptions& o) {
  auto wall0 = std::chrono::steady_clock::now();
  CellResult r;
  r.cell = cell;
  HostOptions ho;
  // A bare file name (the seed's NVMe node) lives beside the job files.
  const bool beside_jobs =
      cell.stack.ends_with(".toml") && cell.stack.find('/') == std::string::npos;
  ho.stack = beside_jobs ? o.jobs_dir + "/" + cell.stack : cell.stack;
  ho.seed = o.seed;
  ho.mem_bytes = o.host_mem;
  ho.cores = o.host_cores;
  auto host = SimHost::Create(ho);
  if (!host.ok()) {
    r.status = host.status();
    return r;
  }
  std::string path =
      o.jobs_dir + "/seed-" + std::string(1, static_cast<char>(cell.test - 'A' + 'a')) + ".fio";
  auto sections = fio::ParseJobFile(path, fio::ProcessEnv());
  if (!sections.ok()) {
    r.status = sections.status();
    return r;
  }
  if (o.runtime) {
    for (auto& s : *sections) {
      if (s.name == "global") continue;
      s.entries.push_back({"runtime", std::to_string(o.runtime->count() / 1000000) + "ms", true,
                           "storlab demo (runtime override)"});
    }
  }
  for (auto& s : *sections) {
    if (s.name == "global") continue;
    for (const auto& [k, v] : o.job_overrides) {
      s.entries.push_back({k, v, true, "storlab demo (" + k + " override)"});
    }
  }
  auto jobs = fio::BuildJobs(*sections, o.seed);
  if (!jobs.ok()) {
    r.status = jobs.status();
    return r;
  }
  fio::FioRun run(**host, std::move(*jobs));
  r.status = run.Prepare();
  if (!r.status.ok()) return r;
  std::optional<report::RunSampler> sampler;
  if (!o.report_dir.empty()) {
    sampler.emplace(run, (*host)->engine().now());
    run.SetObserver([&sampler](Nanos until) { sampler->Observe(until); });
  }
  r.status = run.Run(nullptr);
  if (!r.status.ok()) return r;
  if (sampler) sampler->Finish(run.end_time());
  auto reports = run.Reports();
  auto groups = run.Groups(reports);
  r.simulated_mbps = static_cast<double>(groups[0].agg[fio::kWrite]) / 1e6;
  r.ratio = cell.published_mbps > 0 ? r.simulated_mbps / cell.published_mbps : 0;
  Limit limit = StackLimit(run);
  r.limit_mbps = limit.mbps;
  r.limit_what = limit.what;
  r.flagged = limit.mbps > 0 && r.simulated_mbps > 2 * limit.mbps;
  if (r.flagged) r.explanation = ExplainRun(run, r.simulated_mbps, limit);
  for (const auto& rr : run.runners()) {
    if (rr->stat().error && r.status.ok()) {
      r.status = Status::IoError("job error " + std::to_string(rr->stat().error) + ": " +
                                 rr->stat().verror);
    }
  }
  if (sampler) {
    r.report = o.report_dir + "/test-" + std::string(1, cell.test) + "-" + cell.option + ".html";
    report::ReportText text{.title = "storlab demo: test " + std::string(1, cell.test) + " on " +
                                     cell.option + " (" + cell.stack + "), published " +
                                     Fmt("%.1f MB/s", cell.published_mbps) + ", simulated " +
                                     Fmt("%.1f MB/s", r.simulated_mbps),
                            .explanation = r.explanation,
                            .power_cuts = "",
                            .cut_timeline = ""};
    Status st = report::WriteReport(r.report, report::HtmlReport(run, *sampler, text),
                                    report::ReportCsv(run, *sampler));
    if (!st.ok() && r.status.ok()) r.status = st;
  }
  for (const auto& rr : run.runners()) {
    r.end_fsync_s = std::max(r.end_fsync_s, rr->extras().end_fsync.seconds());
  }
  for (const auto& n : (*host)->stack().nodes()) r.nfs |= n->kind() == NodeKind::kNfs;
  r.events = (*host)->engine().events_run();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return r;
}

}  // namespace

// seed-results.md §1 (MB/s as published).
const std::vector<Cell>& SeedCells() {
  static const std::vector<Cell> kCells = {
      {'A', "nvme", "seed-nvme-node.toml", 430},  {'A', "nas", "nas-1gbe-raid5", 17.9},
      {'A', "ssd-zfs", "ssd-zfs", 80.6},          {'A', "usb-zfs", "usb-nvme-zfs-mirror", 75.7},
      {'B', "nvme", "seed-nvme-node.toml", 2328}, {'B', "nas", "nas-1gbe-raid5", 4897},
      {'B', "ssd-zfs", "ssd-zfs", 267},           {'B', "usb-zfs", "usb-nvme-zfs-mirror", 135},
      {'C', "nvme", "seed-nvme-node.toml", 651},  {'C', "nas", "nas-1gbe-raid5", 70.7},
      {'C', "ssd-zfs", "ssd-zfs", 379},           {'C', "usb-zfs", "usb-nvme-zfs-mirror", 195},
  };
  return kCells;
}

std::vector<CellResult> RunDemo(const DemoOptions& options,
                                const std::function<void(const CellResult&)>& progress) {
  std::vector<CellResult> results(options.cells.size());
  std::atomic<size_t> next{0};
  std::mutex mu;
  unsigned n =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  n = std::min<unsigned>(n, static_cast<unsigned>(options.cells.size()));
  // The longest cells (test B) first, so the threads finish together.
  std::vector<size_t> order(options.cells.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return (options.cells[a].test == 'B') > (options.cells[b].test == 'B');
  });
  auto worker = [&] {
    for (;;) {
      size_t k = next.fetch_add(1);
      if (k >= order.size()) return;
      size_t i = order[k];
      results[i] = RunCell(options.cells[i], options);
      if (progress) {
        std::lock_guard<std::mutex> lock(mu);
        progress(results[i]);
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  return results;
}

std::string DemoReport(const std::vector<CellResult>& results, std::optional<Nanos> runtime) {
  char buf[256];
  std::string each = "60 s";
  if (runtime) {
    std::snprintf(buf, sizeof buf, "%g s (--runtime; the seed's are 60 s)", runtime->seconds());
    each = buf;
  }
  std::string s = "The seed table (shared/reference/seed-results.md §1): three fio tests, each " +
                  each +
                  " time_based\nwith end_fsync=1 in virtual time, on four storage options.\n\n";
  std::snprintf(buf, sizeof buf, "%-4s %-8s %-20s %11s %11s %7s\n", "test", "option", "stack",
                "published", "simulated", "ratio");
  s += buf;
  int within = 0, ran = 0;
  for (const auto& r : results) {
    if (!r.status.ok()) {
      std::snprintf(buf, sizeof buf, "%-4c %-8s %-20s %11.1f %11s %7s   (%s)\n", r.cell.test,
                    r.cell.option.c_str(), r.cell.stack.c_str(), r.cell.published_mbps, "-", "-",
                    r.status.message().c_str());
      s += buf;
      continue;
    }
    ++ran;
    if (r.ratio >= 1 / 1.5 && r.ratio <= 1.5) ++within;
    std::snprintf(buf, sizeof buf, "%-4c %-8s %-20s %11.1f %11.1f %7.2f%s\n", r.cell.test,
                  r.cell.option.c_str(), r.cell.stack.c_str(), r.cell.published_mbps,
                  r.simulated_mbps, r.ratio, r.flagged ? "  *" : "");
    s += buf;
  }
  s += "\n(MB/s = 10^6 bytes/s, fio's group bandwidth: all jobs' bytes over the slowest job's "
       "runtime)\n";
  s += std::to_string(within) + " of " + std::to_string(ran) +
       " cells run are within 1.5× of "
       "the published figure";
  if (ran < static_cast<int>(results.size())) {
    s += "; " + std::to_string(results.size() - static_cast<size_t>(ran)) + " did not run";
  }
  s += ".\n";
  // The seed's author: every NAS test "hung on the very last piece of
  // output for minutes" (seed-results.md §1).
  std::string tails;
  for (const auto& r : results) {
    if (!r.status.ok() || !r.nfs) continue;
    std::snprintf(buf, sizeof buf, "%s%c/%s %.1f s", tails.empty() ? "" : ", ", r.cell.test,
                  r.cell.option.c_str(), r.end_fsync_s);
    tails += buf;
  }
  if (!tails.empty()) {
    s += "end_fsync on the NFS mount (published: \"hung on the very last piece of output for "
         "minutes\"): " +
         tails + ".\n";
  }
  bool any = false;
  for (const auto& r : results) {
    if (!r.flagged) continue;
    if (!any) s += "\n* more than 2× the stack's limit — where the bytes went:\n";
    any = true;
    s += "\n" + std::string(1, r.cell.test) + "/" + r.cell.option + ": " + r.explanation + "\n";
  }
  return s;
}

std::string DemoCsv(const std::vector<CellResult>& results) {
  std::string s = "test,option,published_mbps,simulated_mbps,ratio\n";
  for (const auto& r : results) {
    s += std::string(1, r.cell.test) + "," + r.cell.option + "," +
         Fmt("%g", r.cell.published_mbps) + ",";
    if (r.status.ok())
      s += Fmt("%.1f", r.simulated_mbps) + "," + Fmt("%.3f", r.ratio);
    else
      s += ",";
    s += "\n";
  }
  return s;
}

}  // namespace storlab::demo
