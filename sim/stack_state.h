// The state of a stack's nodes as parts of a saved state (sim/state_dir.h):
// each node's part is a short header (what it is: format, type, name,
// whether it had failed) and then the node's own records (Node::SaveState).
// A stack is saved only when every node can save (CheckStackCanSave(), run
// before anything is written or simulated), so a state is never partial.
// Not thread-safe.
#ifndef STORLAB_SIM_STACK_STATE_H_
#define STORLAB_SIM_STACK_STATE_H_

#include <string>
#include <string_view>
#include <vector>

#include "sim/stack.h"
#include "sim/state_dir.h"
#include "sim/status.h"

namespace storlab {

// What a saved state is checked against: the stack as resolved (the
// loader's TOML with every parameter and its source), without comments,
// sources and the stack's name (a renamed copy of a stack file is the
// same stack). One `key = value` a line.
std::string StackIdentity(std::string_view resolved);

// The oracle (sim/oracle.h) watches a run and is no part of the stack's
// state: the functions below skip it.
// OK when every node of `stack` can save its state; else the first
// refusal, in the stack's order (children first): "node NAME (type T)
// cannot save its state".
Status CheckStackCanSave(const Stack& stack);

// Every node's part, in the stack's order. REQUIRES: the engine is idle.
Result<std::vector<StateImage::Part>> SaveStackNodes(const Stack& stack);

// Restores every node of `stack` (just built, before any request) from
// `image`'s node parts; `dir` names the files in errors. Every node must
// have its part and every part its node.
Status RestoreStackNodes(Stack& stack, const StateImage& image, const std::string& dir);

}  // namespace storlab

#endif  // STORLAB_SIM_STACK_STATE_H_
