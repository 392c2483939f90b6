#include "sim/serve/control.h"

#include <vector>

#include "sim/profile/units.h"
#include "sim/quoted.h"

namespace storlab {
namespace {

using K = ControlCommand::Kind;

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

// What a command takes after its name.
enum class Args { kNone, kNode, kDelay, kRange, kOffset };

struct Entry {
  std::string_view name;
  K kind;
  Args args;
  std::string_view usage;  // the whole command, for errors
};

constexpr Entry kCommands[] = {
    {"power-cut", K::kPowerCut, Args::kNone, "power-cut"},
    {"flush", K::kFlush, Args::kNone, "flush"},
    {"fail", K::kFail, Args::kNode, "fail NAME"},
    {"replace", K::kReplace, Args::kNode, "replace NAME"},
    {"reset-stats", K::kResetStats, Args::kNone, "reset-stats"},
    {"stats", K::kStats, Args::kNone, "stats"},
    {"help", K::kHelp, Args::kNone, "help"},
    {"detach", K::kDetach, Args::kNode, "detach NAME"},
    {"attach", K::kAttach, Args::kNode, "attach NAME"},
    {"delay", K::kDelay, Args::kDelay, "delay NAME DURATION for DURATION"},
    {"media-error", K::kMediaError, Args::kRange, "media-error NAME OFFSET+LENGTH"},
    {"corrupt", K::kCorrupt, Args::kOffset, "corrupt NAME OFFSET"},
    {"ignore-fua", K::kIgnoreFua, Args::kNode, "ignore-fua NAME"},
};

size_t WordsOf(Args a) {
  switch (a) {
    case Args::kNone:
      return 1;
    case Args::kNode:
      return 2;
    case Args::kRange:
    case Args::kOffset:
      return 3;
    case Args::kDelay:
      return 5;
  }
  return 1;
}

Status Bad(const Entry& e, const std::string& what) {
  return Status::InvalidArgument("control: " + std::string(e.name) + ": " + what + " (" +
                                 std::string(e.usage) + ")");
}

// A positive duration, or an error naming what it is for.
Result<Nanos> Duration(const Entry& e, std::string_view word, const char* what) {
  auto d = ParseDuration(word);
  if (!d.ok()) return Bad(e, std::string(what) + ": " + d.status().message());
  if (*d <= Nanos(0)) return Bad(e, std::string(what) + " must be more than 0");
  return *d;
}

Status ParseArgs(const Entry& e, const std::vector<std::string_view>& w, ControlCommand* cmd) {
  const size_t want = WordsOf(e.args);
  if (w.size() != want) {
    const std::string name(e.name), got = std::to_string(w.size() - 1);
    if (e.args == Args::kNone) {
      return Status::InvalidArgument("control: " + name + " takes no argument, got " +
                                     Quoted(w[1]));
    }
    if (e.args == Args::kNode) {
      return Status::InvalidArgument("control: " + name + ": expected one node name (" +
                                     std::string(e.usage) + "), got " + got + " words");
    }
    return Bad(e, "expected " + std::to_string(want - 1) + " words, got " + got);
  }
  if (e.args == Args::kNone) return Status();
  cmd->node = std::string(w[1]);
  switch (e.args) {
    case Args::kNone:
    case Args::kNode:
      return Status();
    case Args::kDelay: {
      if (w[3] != "for") return Bad(e, "expected 'for' after the delay, got " + Quoted(w[3]));
      ASSIGN_OR_RETURN(cmd->delay, Duration(e, w[2], "the delay"));
      ASSIGN_OR_RETURN(cmd->window, Duration(e, w[4], "the time it lasts"));
      return Status();
    }
    case Args::kRange: {
      const size_t plus = w[2].find('+');
      if (plus == std::string_view::npos) {
        return Bad(e, "expected OFFSET+LENGTH, like 1MiB+4KiB, got " + Quoted(w[2]));
      }
      auto off = ParseSize(w[2].substr(0, plus));
      auto len = ParseSize(w[2].substr(plus + 1));
      if (!off.ok()) return Bad(e, "the offset: " + off.status().message());
      if (!len.ok()) return Bad(e, "the length: " + len.status().message());
      if (*len == 0) return Bad(e, "the range " + Quoted(w[2]) + " is empty");
      cmd->offset = *off;
      cmd->length = *len;
      return Status();
    }
    case Args::kOffset: {
      auto off = ParseSize(w[2]);
      if (!off.ok()) return Bad(e, "the offset: " + off.status().message());
      cmd->offset = *off;
      return Status();
    }
  }
  return Status();
}

}  // namespace

const char* ControlCommand::verb() const {
  for (const Entry& e : kCommands) {
    if (e.kind == kind) return e.name.data();
  }
  return "none";
}

const char* ControlHelp() {
  return "commands: power-cut, flush, fail NAME, replace NAME, detach NAME, attach NAME, "
         "delay NAME DURATION for DURATION, media-error NAME OFFSET+LENGTH, "
         "corrupt NAME OFFSET, ignore-fua NAME, reset-stats, stats, help";
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
  for (const Entry& e : kCommands) {
    if (w[0] != e.name) continue;
    RETURN_IF_ERROR(ParseArgs(e, w, &cmd));
    cmd.kind = e.kind;
    return cmd;
  }
  return Status::InvalidArgument("control: unknown command " + Quoted(w[0]) + " (" + ControlHelp() +
                                 ")");
}

}  // namespace storlab
