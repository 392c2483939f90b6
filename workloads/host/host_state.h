// HostState: storlab sim --state DIR for a simulated host (sim_host.h) —
// the stack's nodes, the host's file system and the clock, saved when a
// run ends and restored when the next one starts, so that run B on A's
// state behaves as if A and B had been one run (docs/state.md).
//
// A run is saved once the stack is idle: the engine runs until no event is
// left (writeback, destaging, garbage collection finish), so the clock
// saved is when the stack went quiet, and the next run starts there.
// What a saved state is checked against is the host's identity: the
// resolved stack without the source comments, and the host's figures. Not
// thread-safe.
#ifndef STORLAB_WORKLOADS_HOST_HOST_STATE_H_
#define STORLAB_WORKLOADS_HOST_HOST_STATE_H_

#include <string>

#include "sim/env.h"
#include "sim/status.h"
#include "workloads/host/sim_host.h"

namespace storlab {

// One `key = value` a line: the stack as resolved (no comments), then the
// host's figures ([host] and --host-mem / --host-cores).
std::string HostIdentity(const SimHost& host);

// OK when every node of the host's stack can save its state, else the
// first refusal ("node NAME (type T) cannot save its state"). Call it
// before the run, so nothing is simulated or written for nothing.
Status CheckHostCanSave(const SimHost& host);

// Restores DIR into `host` just created (before any I/O): the clock, every
// node, the file system. Returns false when DIR holds no state yet (absent
// or empty: a first run). Refuses, naming DIR and the difference, a state
// of another format, another stack or host, or another data mode; a
// corrupt or truncated file is refused naming it.
Result<bool> RestoreHostState(SimHost& host, const std::string& dir, Env* env = nullptr);

// Runs the engine until the stack is idle, then saves the host to DIR
// atomically (sim/state_dir.h): on an error the previous state stays.
Status SaveHostState(SimHost& host, const std::string& dir, Env* env = nullptr);

}  // namespace storlab

#endif  // STORLAB_WORKLOADS_HOST_HOST_STATE_H_
