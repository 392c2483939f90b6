// IozoneCycle: what one cycle of `storlab sim --iozone ... --repeat N` did
// on each node of the stack — the difference of the node's figures between
// the cycle's start and its end (the run's JSON "storlab" object keeps the
// totals over all cycles). Thread-compatible: call on the engine's thread.
#ifndef STORLAB_CLI_IOZONE_CYCLE_H_
#define STORLAB_CLI_IOZONE_CYCLE_H_

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/node_stats.h"
#include "sim/stack.h"

namespace storlab::cli {

// Every node's op counts and model figures at one moment.
struct StackSnapshot {
  struct NodeFigures {
    std::string name;
    std::array<uint64_t, kOpCount> ops{}, bytes{}, errors{};
    StatList model;
  };
  std::vector<NodeFigures> nodes;  // the stack's order
};

StackSnapshot TakeSnapshot(const Stack& stack);

// {"cycle": n, "time_ns": ..., "nodes": [{"name", "ops": {"read": {"ops",
// "bytes", "errors"}, ...}, "model": {figure: end - start, ...}}]}: a
// counter's difference is the cycle's count; a level's (dirty_bytes, a
// promote level) is its change over the cycle.
nlohmann::ordered_json CycleJson(int cycle, Nanos time, const StackSnapshot& start,
                                 const StackSnapshot& end);
// The normal output's block: each node with I/O in the cycle, its ops and
// bytes per op and its counted figures ("count" unit) that changed.
std::string CycleReport(int cycle, int cycles, const StackSnapshot& start,
                        const StackSnapshot& end);

}  // namespace storlab::cli

#endif  // STORLAB_CLI_IOZONE_CYCLE_H_
