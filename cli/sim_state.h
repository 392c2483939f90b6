// storlab sim's --state DIR, --reboot and --prefill around one run of fio
// jobs (workloads/host/host_state.h, workloads/host/fs_prefill.h,
// docs/state.md). Thread-compatible.
#ifndef STORLAB_CLI_SIM_STATE_H_
#define STORLAB_CLI_SIM_STATE_H_

#include "cli/sim_args.h"
#include "sim/status.h"
#include "workloads/host/sim_host.h"

namespace storlab::cli {

// Before the run, on a host just created: with --state, checks that every
// node can save (so nothing runs for nothing), restores DIR if it holds a
// state and, with --reboot, power-cycles the restored machine; a prefilled
// file system (not a restored one) gets a note on stderr. The error's
// message is ready for SimFail().
Status BeforeRun(const SimArgs& a, SimHost& host);

// After the run: with --state, saves the host to DIR once it is idle.
Status AfterRun(const SimArgs& a, SimHost& host);

}  // namespace storlab::cli

#endif  // STORLAB_CLI_SIM_STATE_H_
