// Scenarios: the seeds' failure stories as runs in virtual time that explain
// themselves from their own statistics (`storlab demo --list`, `storlab demo
// NAME`; issue 18, item 3). Each scenario runs one or more fio jobs on a
// catalog stack and prints what happened; no text in it is canned except
// the connecting words: every figure comes from the run.
// Thread-compatible.
#ifndef STORLAB_WORKLOADS_SCENARIOS_SCENARIO_H_
#define STORLAB_WORKLOADS_SCENARIOS_SCENARIO_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/oracle.h"
#include "sim/status.h"
#include "sim/time.h"
#include "workloads/fio/fio_run.h"
#include "workloads/host/sim_host.h"

namespace storlab::scenarios {

struct ScenarioOptions {
  uint64_t seed = 1;
};

struct Scenario {
  std::string_view name;
  std::string_view summary;  // one line, for --list
  Result<std::string> (*run)(const ScenarioOptions& options);
};

// Every scenario, in --list order.
const std::vector<Scenario>& Scenarios();
const Scenario* FindScenario(std::string_view name);

// --- Shared by the scenarios (scenario_run.cc) --------------------------

// fio's command-line jobs `args` run to the end on the stack `host` names.
struct FioOnStack {
  std::unique_ptr<SimHost> host;
  std::unique_ptr<fio::FioRun> run;
};
Result<FioOnStack> RunFio(const HostOptions& host, const std::vector<std::string>& args);

// What a fio job on a stack left behind when the power was cut `cut_after`
// after the job returned.
struct CutAfterJob {
  Nanos job_time;              // the job's runtime (start to its end, fsyncs included)
  uint64_t bytes_written = 0;  // acknowledged to the job
  uint64_t write_ios = 0;
  // At the cut, before the power went: what was still volatile.
  uint64_t page_cache_dirty = 0;    // dirty or under writeback in the host page cache
  uint64_t device_cache_dirty = 0;  // in the devices' volatile write caches
  OracleReport oracle;              // after the cut (blocks of oracle_block bytes)
  uint32_t oracle_block = 512;
};

// Runs fio's command-line job `args` on `stack` (one job), waits
// `cut_after`, cuts the power, verifies with the oracle.
Result<CutAfterJob> RunAndCut(const std::string& stack, const std::vector<std::string>& args,
                              Nanos cut_after, const ScenarioOptions& options);

// "1.5 MiB", "256 KiB", "12 B" — binary units, as the page cache counts.
std::string Bytes(uint64_t n);
// "3.20 ms", "1.500 s".
std::string Duration(Nanos t);

// raid-rebuild's measurement (raid_rebuild.cc): member 1 of the raid node
// 'array' of `stack_text` failed, replaced and rebuilt in `windows` windows
// of `window` each, spread over the member (md's recovery_start at each),
// idle or under the scenario's VM load; each window's rate stands for its
// slice of the member.
struct RebuildWindows {
  uint64_t member = 0;                // bytes per member
  std::vector<double> slice_hours;    // time to rebuild each slice
  double min_rate = 0, max_rate = 0;  // member bytes rebuilt per second
  double vm_read_ms = 0;              // the VMs' mean read latency, rebuilding
  double healthy_vm_read_ms = 0;      // and without a failure
  double hours() const;
};
Result<RebuildWindows> MeasureRebuildWindows(const std::string& stack_text, int windows,
                                             Nanos window, bool vms, uint64_t seed);

// The scenarios.
Result<std::string> RunFsync(const ScenarioOptions& options);
Result<std::string> RunUsbPull(const ScenarioOptions& options);
Result<std::string> RunWearout(const ScenarioOptions& options);
Result<std::string> RunNasInflation(const ScenarioOptions& options);
Result<std::string> RunThinFull(const ScenarioOptions& options);
Result<std::string> RunRaidRebuild(const ScenarioOptions& options);

}  // namespace storlab::scenarios

#endif  // STORLAB_WORKLOADS_SCENARIOS_SCENARIO_H_
