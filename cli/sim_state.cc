#include "cli/sim_state.h"

#include <cstdio>

#include "workloads/host/host_state.h"

namespace storlab::cli {
namespace {

// The prefilled file system, in a note on stderr.
void PrintPrefill(const SimHost& host) {
  if (host.prefill_percent() <= 0) return;
  const ExtentFs& fs = host.fs();
  std::fprintf(stderr,
               "storlab sim: note: the file system starts %.1f%% full (%llu of %llu bytes in "
               "%llu aged files; free space in %llu pieces)\n",
               100.0 * static_cast<double>(fs.used_bytes()) / static_cast<double>(fs.capacity()),
               static_cast<unsigned long long>(fs.used_bytes()),
               static_cast<unsigned long long>(fs.capacity()),
               static_cast<unsigned long long>(host.prefill().files),
               static_cast<unsigned long long>(host.prefill().free_extents));
}

}  // namespace

Status BeforeRun(const SimArgs& a, SimHost& host) {
  bool restored = false;
  if (!a.state.empty()) {
    // Every node must be able to save before anything runs.
    Status cs = CheckHostCanSave(host);
    if (!cs.ok()) return cs.WithContext("--state " + a.state);
    ASSIGN_OR_RETURN(restored, RestoreHostState(host, a.state));
    // A power cycle: the stack is idle, so only what is volatile goes.
    if (restored && a.reboot) host.stack().PowerCut();
    if (restored && a.host.prefill) {
      return Status::InvalidArgument("--prefill: state " + a.state +
                                     " already holds a file system (a restored one is not "
                                     "filled again)");
    }
  }
  if (!restored) PrintPrefill(host);
  return Status();
}

Status AfterRun(const SimArgs& a, SimHost& host) {
  if (a.state.empty()) return Status();
  return SaveHostState(host, a.state);
}

}  // namespace storlab::cli
