#include "cli/sim_faults.h"

#include <cstdio>

#include "sim/quoted.h"
#include "sim/serve/fault_line.h"
#include "sim/serve/node_commands.h"

namespace storlab::cli {
namespace {

Status Bad(const std::string& source, const std::string& arg, const std::string& what) {
  return Status::InvalidArgument(source + " " + Quoted(arg) + ": " + what);
}

}  // namespace

Result<SimFault> ParseSimFault(const std::string& arg, const std::string& source) {
  ASSIGN_OR_RETURN(FaultLine f, ParseFaultLine(arg, source));
  return SimFault{.arg = std::move(f.arg),
                  .source = std::move(f.source),
                  .at = f.at,
                  .cmd = std::move(f.cmd),
                  .command = std::move(f.command)};
}

Status CheckSimFaults(const std::vector<SimFault>& faults, const Stack& stack) {
  for (const SimFault& f : faults) {
    auto n = CheckNodeCommand(stack, f.cmd);
    if (!n.ok()) {
      return Bad(f.source, f.arg, std::string(f.cmd.verb()) + ": " + n.status().message());
    }
  }
  return Status();
}

Result<std::vector<SimFault>> ParseStackFaults(const std::vector<StackFault>& lines) {
  std::vector<SimFault> out;
  for (const StackFault& l : lines) {
    ASSIGN_OR_RETURN(auto f, ParseSimFault(l.text, l.where + ": [stack] faults"));
    out.push_back(std::move(f));
  }
  return out;
}

void AddSimFaults(std::vector<SimFault>& faults, Nanos t0, Stack& stack, fio::FioRun& run,
                  const std::function<void(const std::string&)>& note) {
  for (SimFault& f : faults) {
    run.AddFault(t0 + f.at, [&f, &stack, t0, note] {
      f.ran = true;
      auto r = RunNodeCommand(stack, f.cmd);
      const std::string answer = r.ok() ? *r : "error: " + r.status().message();
      note("storlab sim: at " + FaultTime(stack.engine().now() - t0) + ": " + f.command + ": " +
           answer);
      return Status();
    });
  }
}

void NoteFaultsNotRun(const std::vector<SimFault>& faults, Nanos t0, Nanos end) {
  for (const SimFault& f : faults) {
    if (f.ran) continue;
    std::fprintf(stderr, "storlab sim: note: --fault %s did not run: the jobs ended at %s\n",
                 Quoted(f.arg).c_str(), FaultTime(end - t0).c_str());
  }
}

}  // namespace storlab::cli
