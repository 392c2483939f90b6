// The control commands that act on one node of a stack (control.h: fail,
// replace, detach, attach, delay, media-error, corrupt, ignore-fua), as the
// exports' service and `storlab sim --fault` both run them. Each is checked
// against the stack first (the node exists, the range is on it, the node
// can take the fault), so that `storlab sim` refuses a bad one before the
// run starts. Where the fault lives: fail/replace in Node (and a RAID above
// it, told through OnChildFailed/OnChildReplaced), media errors in a faults
// node (sim/layers/faults/faults_node.h), the others in any node
// (sim/node_faults.h). Not thread-safe: run on the engine's thread.
#ifndef STORLAB_SIM_SERVE_NODE_COMMANDS_H_
#define STORLAB_SIM_SERVE_NODE_COMMANDS_H_

#include <string>

#include "sim/serve/control.h"
#include "sim/stack.h"
#include "sim/status.h"

namespace storlab {

// The node `cmd` acts on, if the command can act on it now or later (its
// state, failed or not, is not checked: that is RunNodeCommand's).
// REQUIRES: cmd.names_node().
Result<Node*> CheckNodeCommand(const Stack& stack, const ControlCommand& cmd);

// Runs `cmd` now. The answer says what changed, without the command's name
// ("'disk.1' has failed: ..."); an error changes nothing.
// REQUIRES: cmd.names_node().
Result<std::string> RunNodeCommand(Stack& stack, const ControlCommand& cmd);

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_NODE_COMMANDS_H_
