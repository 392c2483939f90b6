// storlab demo: the seed table in virtual time (workloads/demo.h).
//
//   storlab demo [--csv FILE] [--plot DIR] [--seed N] [--host-mem SIZE]
//                [--host-cores N] [--threads N] [--runtime SECONDS]
//                [--report DIR]
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "sim/profile/host.h"
#include "sim/quoted.h"
#include "workloads/demo.h"
#include "workloads/demo_plot.h"
#include "workloads/report/html_report.h"
#include "workloads/scenarios/scenario.h"

namespace po = boost::program_options;

namespace storlab::cli {

int DemoCommand(const Args& args) {
  po::options_description desc(
      "usage: storlab demo [options]\n"
      "       storlab demo --list | NAME [--seed N]\n\n"
      "Runs the seed table (three fio tests on four storage options, 60 s each in virtual\n"
      "time), prints published vs simulated MB/s, and explains every cell that beats its\n"
      "stack's link or device limit by more than 2x from the run's own layer statistics.\n"
      "With NAME, runs one of the seeds' failure stories instead (--list shows them).\n\n"
      "Options");
  std::string csv, plot, mem, cores, scenario, report_dir;
  uint64_t seed = 1;
  unsigned threads = 0;
  double runtime = 0;
  desc.add_options()("help,h", "show this help")("csv", po::value(&csv),
                                                 "also write the table as CSV to FILE")(
      "plot", po::value(&plot), "also draw the table with gnuplot into DIR (PNG and SVG)")(
      "report", po::value(&report_dir),
      "also write each cell's run report into DIR: test-A-nvme.html (one self-contained "
      "page, inline SVG) and its series as test-A-nvme.csv")("seed", po::value(&seed),
                                                             "run seed (default 1)")(
      "host-mem", po::value(&mem),
      "the host's RAM for every cell (default: each stack's own [host], the seed's "
      "nodes as assumed)")("host-cores", po::value(&cores),
                           "the host's cores for every cell (default: each stack's own)")(
      "threads", po::value(&threads), "cells run in parallel (default: the machine's cores)")(
      "runtime", po::value(&runtime), "seconds per job instead of 60 (quick looks)")(
      "list", "list the scenarios (storlab demo NAME runs one)")(
      "scenario", po::value(&scenario), "a scenario to run (also as the first word)");
  po::positional_options_description pos;
  pos.add("scenario", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "storlab demo: %s\n", e.what());
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  auto fail = [](const std::string& msg) {
    std::fprintf(stderr, "storlab demo: %s\n", msg.c_str());
    return 2;
  };
  if (vm.count("list")) {
    for (const auto& s : scenarios::Scenarios()) {
      std::printf("%-10s %s\n", std::string(s.name).c_str(), std::string(s.summary).c_str());
    }
    return 0;
  }
  if (!scenario.empty()) {
    const scenarios::Scenario* s = scenarios::FindScenario(scenario);
    if (!s) {
      std::string names;
      for (const auto& x : scenarios::Scenarios())
        names += (names.empty() ? "" : ", ") + std::string(x.name);
      return fail("no scenario " + Quoted(scenario) + " (there are: " + names + "; --list)");
    }
    if (!csv.empty() || !plot.empty() || !mem.empty() || !cores.empty() || vm.count("runtime") ||
        !report_dir.empty()) {
      return fail(
          "a scenario takes only --seed (--csv, --plot, --report, --host-mem, --host-cores "
          "and --runtime are for the seed table)");
    }
    scenarios::ScenarioOptions so;
    so.seed = seed;
    auto out = s->run(so);
    if (!out.ok()) return fail(out.status().message());
    std::fputs(out->c_str(), stdout);
    return 0;
  }
  demo::DemoOptions o;
  o.seed = seed;
  o.threads = threads;
  o.jobs_dir = STORLAB_JOBS_DIR;
  // --host-mem and --host-cores are checked as a stack file's [host] keys.
  if (!mem.empty() && mem != "stack") {
    HostSpec h;
    Status st = OverrideHost("mem", mem, "--host-mem", &h);
    if (!st.ok()) return fail(st.message());
    o.host_mem = h.mem_bytes;
  }
  if (!cores.empty()) {
    HostSpec h;
    Status st = OverrideHost("cores", cores, "--host-cores", &h);
    if (!st.ok()) return fail(st.message());
    o.host_cores = h.cores;
  }
  if (vm.count("runtime")) {
    // fio takes its runtime in whole milliseconds; 0 would mean "no limit".
    if (!(runtime >= 0.001 && runtime <= 86400)) {
      char given[32];
      std::snprintf(given, sizeof given, "%g", runtime);
      return fail("--runtime: " + std::string(given) + " (expected seconds from 0.001 to 86400)");
    }
    o.runtime = Nanos::FromSeconds(runtime);
  }
  // Output paths are checked before the minutes of simulation, not after.
  std::ofstream csv_out;
  if (!csv.empty()) {
    csv_out.open(csv);
    if (!csv_out) return fail("--csv: cannot write " + Quoted(csv, 256));
  }
  if (!plot.empty()) {
    Status st = demo::PreparePlotDir(plot);
    if (!st.ok()) return fail("--plot: " + st.message());
  }
  if (!report_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(report_dir, ec);
    if (ec) return fail("--report: cannot create " + Quoted(report_dir, 256) + ": " + ec.message());
    Status st = report::CheckReportPath(report_dir + "/test-A-nvme.html");
    if (!st.ok()) return fail(st.message());
    o.report_dir = report_dir;
  }
  auto start = std::chrono::steady_clock::now();
  auto results = demo::RunDemo(o, [](const demo::CellResult& r) {
    std::fprintf(stderr, "storlab demo: %c/%-8s %s (%.1f s wall, %.1f M events)\n", r.cell.test,
                 r.cell.option.c_str(), r.status.ok() ? "done" : "did not run", r.wall_seconds,
                 static_cast<double>(r.events) / 1e6);
  });
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fputs(demo::DemoReport(results, o.runtime).c_str(), stdout);
  std::printf("\n(%.1f s of wall time)\n", wall);
  int rc = 0;
  if (!csv.empty()) {
    csv_out << demo::DemoCsv(results);
    csv_out.close();
    if (!csv_out) {
      std::fprintf(stderr, "storlab demo: cannot write %s\n", Quoted(csv, 256).c_str());
      rc = 1;
    }
  }
  if (!plot.empty()) {
    Status st = demo::WritePlot(plot, results);
    if (!st.ok()) {
      std::fprintf(stderr, "storlab demo: %s\n", st.message().c_str());
      rc = 1;
    }
  }
  return rc;
}

}  // namespace storlab::cli
