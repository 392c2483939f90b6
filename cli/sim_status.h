// storlab sim --status-interval: the reports of the run so far, every
// interval of simulated time, as fio's show_running_run_stats() /
// __show_running_run_stats() print them (stat.c): each running job's
// runtime is the time since its start up to now, then the whole output in
// the chosen formats (terse lines, JSON documents one after another,
// normal blocks), then the final report at the end as usual.
// Not thread-safe.
#ifndef STORLAB_CLI_SIM_STATUS_H_
#define STORLAB_CLI_SIM_STATUS_H_

#include <cstdio>

#include "cli/sim_args.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/output.h"

namespace storlab::cli {

// From `t0` (the jobs' start): a report every a.status_interval to `out`,
// when one is set.
void SetStatusReports(const SimArgs& a, const fio::OutputOptions& opts, fio::FioRun& run, Nanos t0,
                      FILE* out);

}  // namespace storlab::cli

#endif  // STORLAB_CLI_SIM_STATUS_H_
