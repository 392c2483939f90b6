// Node names as the service takes them from a user (an export list, a
// control command). Messages quote them with Quoted()/QuotedList()
// (sim/quoted.h), as every other message does. Thread-safe (pure).
#ifndef STORLAB_SIM_SERVE_NAMES_H_
#define STORLAB_SIM_SERVE_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

#include "sim/stack.h"
#include "sim/status.h"

namespace storlab {

// Each name as a node of `stack`: a node's own name, or the base name of
// copies ("disk" for disk.0 ... disk.3, a node with count = 4). `what`
// names the list in errors ("export"), which list a few of the stack's
// nodes. Duplicates are an error.
Result<std::vector<std::string>> ResolveNodeNames(const Stack& stack,
                                                  const std::vector<std::string>& names,
                                                  std::string_view what);

// "'a', 'b', 'c', 'd', 'e', 'f' and 7 more": the stack's nodes (not the
// service's own oracles) as QuotedList() names them.
std::string SomeNodeNames(const Stack& stack);

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_NAMES_H_
