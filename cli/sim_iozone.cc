// storlab sim --iozone "ARGS" [--repeat N]: iozone's throughput mode in
// virtual time (workloads/iozone), with its report per phase.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/iozone_cycle.h"
#include "cli/progress.h"
#include "sim/stats_json.h"
#include "workloads/fio/fio_json_print.h"
#include "workloads/iozone/iozone_run.h"

namespace storlab::cli {

int RunIozoneCommand(const HostOptions& host_options, const std::string& command, int repeat,
                     bool json) {
  auto spec = iozone::ParseIozoneCommand(command);
  if (!spec.ok()) {
    std::fprintf(stderr, "storlab sim: %s\n", spec.status().message().c_str());
    return 1;
  }
  auto host = SimHost::Create(host_options);
  if (!host.ok()) {
    std::fprintf(stderr, "storlab sim: %s\n", host.status().message().c_str());
    return 1;
  }
  if (!(*host)->stack_faults().empty()) {
    std::fprintf(stderr, "storlab sim: %s: [stack] faults: for fio jobs (not --iozone)\n",
                 (*host)->stack_faults().front().where.c_str());
    return 1;
  }
  // iozone opens its files O_DIRECT or not for the whole run.
  (*host)->set_direct_bypasses_cache(spec->direct);
  iozone::IozoneRun run(**host, *spec);
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  // With --repeat, what each cycle did (the "storlab" object sums them).
  nlohmann::ordered_json cycles = nlohmann::ordered_json::array();
  for (int r = 0; r < repeat; ++r) {
    const StackSnapshot start = TakeSnapshot((*host)->stack());
    if (!json) {
      if (repeat > 1) std::printf("%s\tRun %d of %d\n", r ? "\n" : "", r + 1, repeat);
      std::fputs(iozone::IozoneHeader(*spec, host_options.stack).c_str(), stdout);
    }
    Result<std::vector<iozone::PhaseResult>> phases = [&] {
      const Nanos t0 = (*host)->engine().now();
      Progress progress(Nanos(0));
      return run.RunOnce([&](Nanos t) { progress(t - t0); });
    }();
    if (!phases.ok()) {
      std::fprintf(stderr, "storlab sim: %s\n", phases.status().message().c_str());
      return 1;
    }
    nlohmann::ordered_json jr = nlohmann::ordered_json::array();
    for (const auto& p : *phases) {
      if (!json) std::fputs(iozone::IozonePhaseReport(*spec, p).c_str(), stdout);
      nlohmann::ordered_json jp;
      jp["phase"] = p.name;
      double children = 0;
      for (const auto& c : p.children) children += c.throughput;
      jp["children_throughput"] = children;
      jp["parent_throughput"] = p.parent_throughput;
      jp["unit"] = spec->ops ? "ops/sec" : "kB/sec";
      jp["parent_time_ns"] = p.parent_time.count();
      jr.push_back(jp);
    }
    runs.push_back(jr);
    if (repeat > 1) {
      const StackSnapshot end = TakeSnapshot((*host)->stack());
      if (json) {
        cycles.push_back(CycleJson(r + 1, (*host)->engine().now(), start, end));
      } else {
        std::fputs(CycleReport(r + 1, repeat, start, end).c_str(), stdout);
      }
    }
    if (!json) std::printf("\n");
  }
  if (json) {
    nlohmann::ordered_json root;
    root["iozone"] = spec->command;
    root["runs"] = runs;
    if (repeat > 1) root["cycles"] = cycles;
    root["storlab"] = StackStatsJson((*host)->stack());
    std::fputs(fio::FioJsonDump(root).c_str(), stdout);
  }
  return 0;
}

}  // namespace storlab::cli
