// The keys of a node type, for `storlab stacks types TYPE`: every key its
// factory reads, with type, unit, default, range and meaning, taken from
// the factory itself run on a describe-mode Params (sim/profile/params.h) —
// there is no second list of keys to drift from the parser.
//
// The factory runs over stand-in children (default RAM disks) once for its
// fewest children and, where the type takes a bounded larger number, once
// for the most (a cache with and without a cache device); a key whose
// default differs between the two says so. Thread-compatible.
#ifndef STORLAB_SIM_PROFILE_NODE_KEYS_H_
#define STORLAB_SIM_PROFILE_NODE_KEYS_H_

#include <string>
#include <string_view>
#include <vector>

#include "sim/profile/params.h"
#include "sim/status.h"

namespace storlab {

// Every key of node type `type`, in the order its factory reads them. An
// unknown type is an error naming it and the known types.
Result<std::vector<Params::Described>> DescribeNodeType(std::string_view type);

// The keys as a table: a header line, then one line per key.
std::string FormatNodeKeys(const std::vector<Params::Described>& keys);

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_NODE_KEYS_H_
