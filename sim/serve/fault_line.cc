#include "sim/serve/fault_line.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "sim/quoted.h"
#include "sim/time_units.h"

namespace storlab {
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

// fio's time grammar (parse.c str_to_decimal with a time postfix, as
// fio's runtime= reads it): a decimal number, then an optional unit.
Result<Nanos> ParseTime(const std::string& s) {
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
  const std::string number = s.substr(0, i);
  std::string unit = Trim(std::string_view(s).substr(i));
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  char* end = nullptr;
  const double v = number.empty() ? -1 : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !(v >= 0)) {
    return Status::InvalidArgument(Quoted(s) + ": expected a time such as 2s, 500ms or 1.5");
  }
  const double ns_per_unit = unit.empty() ? 1e9 : TimeUnitNanos(unit);
  if (ns_per_unit == 0) {
    return Status::InvalidArgument(Quoted(s) + ": unknown time unit " + Quoted(unit) +
                                   " (use us, ms, s, m, h, d)");
  }
  const double ns = v * ns_per_unit;
  if (ns > 9.2e18) return Status::InvalidArgument(Quoted(s) + ": time out of range");
  return Nanos(std::llround(ns));
}

}  // namespace

Result<FaultLine> ParseFaultLine(const std::string& arg, const std::string& source) {
  const size_t colon = arg.find(':');
  if (colon == std::string::npos) {
    return Bad(source, arg, "expected 'TIME: COMMAND', like '2s: fail disk.1'");
  }
  std::string time = Trim(std::string_view(arg).substr(0, colon));
  if (time.size() > 3 && (time[0] == 'a' || time[0] == 'A') && (time[1] == 't' || time[1] == 'T') &&
      (time[2] == ' ' || time[2] == '\t')) {
    time = Trim(std::string_view(time).substr(3));
  }
  if (time.empty()) return Bad(source, arg, "no time before the ':' (seconds by default)");
  auto at = ParseTime(time);
  if (!at.ok()) return Bad(source, arg, "the time: " + at.status().message());
  FaultLine f{.arg = arg,
              .source = source,
              .at = *at,
              .cmd = {},
              .command = Trim(std::string_view(arg).substr(colon + 1))};
  auto cmd = ParseControl(f.command);
  if (!cmd.ok()) return Bad(source, arg, cmd.status().message());
  using K = ControlCommand::Kind;
  if (cmd->kind == K::kNone) return Bad(source, arg, "no command after the ':'");
  if (cmd->kind == K::kPowerCut) {
    return Bad(source, arg,
               "a power cut is --power-cut-at TIME's in storlab sim (the oracle checks what "
               "it kept), the control channel's power-cut for an export");
  }
  if (!cmd->names_node()) {
    return Bad(source, arg,
               std::string(cmd->verb()) +
                   " is not a fault: faults are the commands that act on a node (fail, "
                   "replace, detach, attach, delay, media-error, corrupt, ignore-fua)");
  }
  f.cmd = std::move(*cmd);
  return f;
}

std::string FaultTime(Nanos since_start) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3fs", static_cast<double>(since_start.count()) / 1e9);
  return buf;
}

}  // namespace storlab
