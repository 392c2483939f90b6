// A fault line: "TIME: COMMAND" (or "at TIME: COMMAND") — a control command
// that acts on one node (fail, replace, detach, attach, delay, media-error,
// corrupt, ignore-fua; control.h) to run TIME after a start: storlab sim's
// --fault (after the jobs start, in simulated time) and a stack file's
// [stack] faults (there, and for the exports after the service starts, in
// real time). TIME is a number with an optional unit, fio's: ns, us, ms,
// s, m (minutes), h, d; seconds when none. Pure functions, thread-safe.
#ifndef STORLAB_SIM_SERVE_FAULT_LINE_H_
#define STORLAB_SIM_SERVE_FAULT_LINE_H_

#include <string>

#include "sim/serve/control.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

struct FaultLine {
  std::string arg;     // as given, for errors
  std::string source;  // where it was given: "--fault", or "FILE:LINE: [stack] faults"
  Nanos at;            // after the start
  ControlCommand cmd;
  std::string command;  // the command's text, trimmed, for notes
};

// Parses `arg`; errors are "SOURCE 'ARG': what is wrong".
Result<FaultLine> ParseFaultLine(const std::string& arg, const std::string& source);

// "2.000s": a time since the start, for notes.
std::string FaultTime(Nanos since_start);

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_FAULT_LINE_H_
