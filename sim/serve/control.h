// The control language of the exports: one command per line, one line of
// answer. The NBD plugin's control socket, the FUSE mount's .storlab/control
// file and `storlab sim --fault` all speak it.
//
//   power-cut        cut the power now: volatile caches lose what they hold,
//                    requests in flight are answered with EIO, the stack
//                    powers up with what its media hold, the oracle verifies
//   flush            flush every export (what `sync` asks of a disk)
//   fail NAME        node NAME dies: every request to it fails (EIO); a RAID
//                    above it drops it (mdadm --fail)
//   replace NAME     node NAME is back in its slot (a RAID above it rebuilds)
//   reset-stats      zero every counter, histogram and the driver's lateness
//   stats            the stats as one line of JSON (and the stats file, if set)
//   help             the list of commands
//
// Blank lines and lines starting with '#' are not commands (ParseControl
// returns kNone). Parsing is separate from running (sim/serve/service.h) so
// that it can be tested and fuzzed without a stack. Thread-safe (pure).
#ifndef STORLAB_SIM_SERVE_CONTROL_H_
#define STORLAB_SIM_SERVE_CONTROL_H_

#include <string>
#include <string_view>

#include "sim/status.h"

namespace storlab {

struct ControlCommand {
  enum class Kind { kNone, kPowerCut, kFlush, kFail, kReplace, kResetStats, kStats, kHelp };
  Kind kind = Kind::kNone;
  std::string node;  // kFail, kReplace
};

// Longest command line accepted (a node name is at most a few hundred bytes).
constexpr size_t kMaxControlLine = 4096;

// Parses one line (without or with its trailing newline). Errors name the
// command and say what was expected; an offending word is quoted only up to
// a short, printable prefix.
Result<ControlCommand> ParseControl(std::string_view line);

// The command list, one line (the answer to `help` and to an unknown command).
const char* ControlHelp();

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_CONTROL_H_
