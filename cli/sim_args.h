// The command line of `storlab sim`: storlab's own options, fio's
// command-line options (--output, --eta, ...), and the fio job options and
// job files to pass on. Thread-compatible.
#ifndef STORLAB_CLI_SIM_ARGS_H_
#define STORLAB_CLI_SIM_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/sim_faults.h"
#include "workloads/host/sim_host.h"

namespace storlab::cli {

struct SimArgs {
  HostOptions host;
  // fio's --output-format (a comma list), --minimal, --append-terse: which
  // reports are printed, in fio's order: terse, JSON, normal.
  bool normal = true;
  bool json = false;
  bool json_plus = false;  // json+: JSON with the latency "bins"
  bool terse = false;
  int terse_version = 3;  // --terse-version (2 to 5)
  bool real_time = false;
  std::optional<std::string> iozone;  // --iozone ARGS (set, possibly empty)
  int repeat = 1;
  uint64_t seed_step = 0;    // --seed-step: run i of --repeat uses seed + i * step
  std::string output;        // --output FILE ("" : stdout)
  ProgressOptions progress;  // --eta, --eta-newline, --eta-interval
  // --status-interval: the reports every this much simulated time (0: none;
  // cli/sim_status.h).
  Nanos status_interval;
  // Power cuts (workloads/power_cuts.h): one at a time after the jobs
  // start, or N at seeded times over the jobs' run; 0: none.
  std::optional<Nanos> power_cut_at;
  uint64_t power_cuts = 0;
  // --fault 'TIME: COMMAND' (cli/sim_faults.h), in the order given.
  std::vector<SimFault> faults;
  // --trace FILE (sim/trace.h): "" none; at most trace_limit event lines.
  std::string trace;
  uint64_t trace_limit = 1'000'000;
  // --max-runtime DUR (workloads/fio/run_cap.h): each job's runtime and
  // ramp_time capped at DUR; the report says so.
  std::optional<Nanos> max_runtime;
  // --report FILE.html (workloads/report/html_report.h): "" none.
  std::string report;
  // --report-csv FILE (workloads/report/report_series.h): "" none.
  std::string report_csv;
  // --state DIR (workloads/host/host_state.h): "" none. --reboot: the
  // restored machine is power-cycled before the jobs.
  std::string state;
  bool reboot = false;
  // --profile NAME (fio's command-line option; workloads/fio/profiles.h):
  // "" none.
  std::string profile;
  std::vector<std::string> job_files;
  std::vector<std::string> fio_args;
};

extern const char kSimUsage[];

// Parses `args` into *out; returns -1 to go on, else an exit status (after
// printing help, or an error on stderr).
int ParseSimArgs(const Args& args, SimArgs* out);

// "storlab sim: MESSAGE" on stderr; returns 1.
int SimFail(const std::string& msg);

}  // namespace storlab::cli

#endif  // STORLAB_CLI_SIM_ARGS_H_
