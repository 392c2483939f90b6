// storlab sim --fault 'AT TIME: COMMAND': faults at chosen times of a run,
// in the control-command language of the exports (sim/serve/control.h).
// TIME is fio's (seconds by default) after the jobs start; the command runs
// on the engine's thread at that simulated time, between two events, and
// its answer goes to stderr ("storlab sim: at 2.000s: fail disk.1: ...").
// Only the commands that act on one node are faults (fail, replace, detach,
// attach, delay, media-error, corrupt, ignore-fua); a power cut is
// --power-cut-at's. Every --fault is checked before the run starts: its
// syntax when the command line is read, its node against the stack once
// the stack is built. Not thread-safe.
#ifndef STORLAB_CLI_SIM_FAULTS_H_
#define STORLAB_CLI_SIM_FAULTS_H_

#include <functional>
#include <string>
#include <vector>

#include "sim/profile/loader.h"
#include "sim/serve/control.h"
#include "sim/stack.h"
#include "sim/status.h"
#include "sim/time.h"
#include "workloads/fio/fio_run.h"

namespace storlab::cli {

struct SimFault {
  std::string arg;                 // as given, for errors
  std::string source = "--fault";  // where it was given, for errors
  Nanos at;                        // after the jobs start
  ControlCommand cmd;
  std::string command;  // the command's text, trimmed, for the note
  bool ran = false;     // set when it has run
};

// Parses one --fault argument: "2s: fail disk.1" or "at 2s: fail disk.1".
// Errors name the argument, after `source` ("--fault", or the file:line of
// a stack file's [stack] faults line).
Result<SimFault> ParseSimFault(const std::string& arg, const std::string& source = "--fault");

// The stack file's [stack] faults (LoadedStack::faults), parsed, in order.
Result<std::vector<SimFault>> ParseStackFaults(const std::vector<StackFault>& lines);

// Checks every fault's node against `stack` (before the run).
Status CheckSimFaults(const std::vector<SimFault>& faults, const Stack& stack);

// Adds the faults to `run`, for jobs that start at engine time `t0`; each
// gives `note` its line when it runs. `faults` must outlive the run.
void AddSimFaults(std::vector<SimFault>& faults, Nanos t0, Stack& stack, fio::FioRun& run,
                  const std::function<void(const std::string&)>& note);

// Notes for the faults that did not run: due after the last job exited
// (at engine time `end`).
void NoteFaultsNotRun(const std::vector<SimFault>& faults, Nanos t0, Nanos end);

}  // namespace storlab::cli

#endif  // STORLAB_CLI_SIM_FAULTS_H_
