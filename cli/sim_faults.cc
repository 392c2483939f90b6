#include "cli/sim_faults.h"

#include <cstdio>

#include "sim/quoted.h"
#include "sim/serve/node_commands.h"
#include "workloads/fio/fio_units.h"

namespace storlab::cli {
namespace {

std::string Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  const size_t e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

Status Bad(const std::string& source, const std::string& arg, const std::string& what) {
  return Status::InvalidArgument(source + " " + Quoted(arg) + ": " + what);
}

// "2.000s" from the jobs' start.
std::string At(Nanos since_start) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3fs", static_cast<double>(since_start.count()) / 1e9);
  return buf;
}

}  // namespace

Result<SimFault> ParseSimFault(const std::string& arg, const std::string& source) {
  const size_t colon = arg.find(':');
  if (colon == std::string::npos) {
    return Bad(source, arg, "expected 'TIME: COMMAND', like '2s: fail disk.1'");
  }
  std::string time = Trim(std::string_view(arg).substr(0, colon));
  if (time.size() > 3 && (time[0] == 'a' || time[0] == 'A') && (time[1] == 't' || time[1] == 'T') &&
      (time[2] == ' ' || time[2] == '\t')) {
    time = Trim(std::string_view(time).substr(3));
  }
  if (time.empty())
    return Bad(source, arg, "no time before the ':' (fio's units, seconds by default)");
  auto at = fio::ParseFioTime(time, fio::TimeUnit::kSeconds);
  if (!at.ok()) return Bad(source, arg, "the time: " + at.status().message());
  SimFault f{.arg = arg,
             .source = source,
             .at = *at,
             .command = Trim(std::string_view(arg).substr(colon + 1))};
  auto cmd = ParseControl(f.command);
  if (!cmd.ok()) return Bad(source, arg, cmd.status().message());
  using K = ControlCommand::Kind;
  if (cmd->kind == K::kNone) return Bad(source, arg, "no command after the ':'");
  if (cmd->kind == K::kPowerCut) {
    return Bad(source, arg,
               "a power cut is --power-cut-at TIME's (the oracle checks what it kept)");
  }
  if (!cmd->names_node()) {
    return Bad(source, arg,
               std::string(cmd->verb()) +
                   " is not a fault: --fault takes the commands that act on a node (fail, "
                   "replace, detach, attach, delay, media-error, corrupt, ignore-fua)");
  }
  f.cmd = std::move(*cmd);
  return f;
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
      note("storlab sim: at " + At(stack.engine().now() - t0) + ": " + f.command + ": " + answer);
      return Status();
    });
  }
}

void NoteFaultsNotRun(const std::vector<SimFault>& faults, Nanos t0, Nanos end) {
  for (const SimFault& f : faults) {
    if (f.ran) continue;
    std::fprintf(stderr, "storlab sim: note: --fault %s did not run: the jobs ended at %s\n",
                 Quoted(f.arg).c_str(), At(end - t0).c_str());
  }
}

}  // namespace storlab::cli
