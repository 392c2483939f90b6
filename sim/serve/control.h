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
//   detach NAME      node NAME disappears (a pulled cable): every new request
//                    to it fails with EIO; the layer above is not told
//   attach NAME      node NAME is back, with the contents it had
//   delay NAME DURATION for DURATION
//                    a latency spike: requests that reach NAME in the next
//                    DURATION (the second) wait DURATION (the first) first
//   media-error NAME OFFSET+LENGTH
//                    reads of the range fail with EIO until it is rewritten
//                    (dm-dust); NAME is a faults node (type = "faults")
//   corrupt NAME OFFSET
//                    the logical block at OFFSET silently reads back wrong
//                    (its first byte inverted) until it is rewritten
//   ignore-fua NAME  NAME drops the FUA flag of writes from now on (a USB
//                    bridge with broken FUA)
//   reset-stats      zero every counter, histogram and the driver's lateness
//   stats            the stats as one line of JSON (and the stats file, if set)
//   help             the list of commands
//
// Blank lines and lines starting with '#' are not commands (ParseControl
// returns kNone). Sizes and durations are read as stack files read them
// (sim/profile/units.h: "1MiB", "200ms"). Parsing is separate from running
// (sim/serve/node_commands.h, sim/serve/service.h) so that it can be tested
// and fuzzed without a stack. Thread-safe (pure).
#ifndef STORLAB_SIM_SERVE_CONTROL_H_
#define STORLAB_SIM_SERVE_CONTROL_H_

#include <string>
#include <string_view>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

struct ControlCommand {
  enum class Kind {
    kNone,
    kPowerCut,
    kFlush,
    kFail,
    kReplace,
    kResetStats,
    kStats,
    kHelp,
    kDetach,
    kAttach,
    kDelay,
    kMediaError,
    kCorrupt,
    kIgnoreFua,
  };
  Kind kind = Kind::kNone;
  std::string node;     // every command that names a node
  uint64_t offset = 0;  // kMediaError, kCorrupt
  uint64_t length = 0;  // kMediaError
  Nanos delay;          // kDelay: how long each request waits ...
  Nanos window;         // ... if it arrives within this time from now
  // The command's name ("fail", "media-error"), for answers.
  const char* verb() const;
  // Whether it acts on one node of the stack (node_commands.h runs these).
  bool names_node() const { return !node.empty(); }
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
