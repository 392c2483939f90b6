#include "sim/serve/control.h"

#include <vector>

#include "sim/quoted.h"

namespace storlab {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && IsSpace(s[i])) ++i;
    size_t j = i;
    while (j < s.size() && !IsSpace(s[j])) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

const char* ControlHelp() {
  return "commands: power-cut, flush, fail NAME, replace NAME, reset-stats, stats, help";
}

Result<ControlCommand> ParseControl(std::string_view line) {
  if (line.size() > kMaxControlLine) {
    return Status::InvalidArgument("control: line of " + std::to_string(line.size()) +
                                   " bytes is too long (at most " +
                                   std::to_string(kMaxControlLine) + ")");
  }
  for (char c : line) {
    if (c == '\0') return Status::InvalidArgument("control: a NUL byte in the command line");
  }
  std::vector<std::string_view> w = Words(line);
  ControlCommand cmd;
  if (w.empty() || w[0][0] == '#') return cmd;
  using K = ControlCommand::Kind;
  struct Entry {
    std::string_view name;
    K kind;
    bool takes_node;
  };
  static constexpr Entry kCommands[] = {
      {"power-cut", K::kPowerCut, false},
      {"flush", K::kFlush, false},
      {"fail", K::kFail, true},
      {"replace", K::kReplace, true},
      {"reset-stats", K::kResetStats, false},
      {"stats", K::kStats, false},
      {"help", K::kHelp, false},
  };
  for (const Entry& e : kCommands) {
    if (w[0] != e.name) continue;
    if (e.takes_node) {
      if (w.size() != 2) {
        return Status::InvalidArgument("control: " + std::string(e.name) +
                                       ": expected one node name (" + std::string(e.name) +
                                       " NAME), got " + std::to_string(w.size() - 1) + " words");
      }
      cmd.node = std::string(w[1]);
    } else if (w.size() != 1) {
      return Status::InvalidArgument("control: " + std::string(e.name) +
                                     " takes no argument, got " + Quoted(w[1]));
    }
    cmd.kind = e.kind;
    return cmd;
  }
  return Status::InvalidArgument("control: unknown command " + Quoted(w[0]) + " (" + ControlHelp() +
                                 ")");
}

}  // namespace storlab
