// Watchdog: notices a virtual-time run that has stopped getting anywhere,
// and names the node where the work is stuck.
//
// A model bug or an absurd profile can leave requests in flight forever
// while the engine keeps going (a transfer at a rate of 0, a layer that
// resubmits at the same instant), or leave the engine with nothing to do
// while the workload still waits (a writer blocked at a dirty limit of 0).
// A plain RunWhile() then spins at 100 % CPU forever, or returns as if the
// run had ended. VirtualDriver::RunWatched() consults a Watchdog after
// every event, and stops the run with an error when
//   - the clock has not moved for Limits::events_at_one_instant events, or
//   - requests are in flight but no request of any node has completed for
//     Limits::without_completion of simulated time, or
//   - no event is pending while the workload still waits (a deadlock).
// The error names the stuck node: of the nodes with requests in flight and
// none in flight below them, the one holding the oldest request.
//
// Not thread-safe: runs on the engine's thread.
#ifndef STORLAB_SIM_WATCHDOG_H_
#define STORLAB_SIM_WATCHDOG_H_

#include <cstdint>
#include <string>

#include "sim/engine.h"
#include "sim/stack.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class Watchdog {
 public:
  struct Limits {
    // A few seconds of wall time: no run has that many events at one
    // instant (they are separated by some cost in every model).
    uint64_t events_at_one_instant = uint64_t{1} << 25;
    // No real request takes a simulated day.
    Nanos without_completion = Nanos::FromSeconds(24 * 3600);
    // Events between two full checks (the check sums every node's counts).
    uint64_t check_every = uint64_t{1} << 16;
  };

  explicit Watchdog(const Stack& stack) : Watchdog(stack, Limits()) {}
  Watchdog(const Stack& stack, Limits limits);
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // After each event: OK while the run makes progress.
  Status AfterEvent(const Engine& engine) {
    if (++events_ < next_check_) return Status();
    return Check(engine);
  }
  // The engine ran dry while the workload still waits.
  Status Deadlock(const Engine& engine) const;
  // "node 'nfs' (nfs) holds 1 request, in flight since 0.000 s", or "" when
  // no node has a request in flight.
  std::string StuckNode() const;

 private:
  Status Check(const Engine& engine);
  uint64_t Completions() const;

  const Stack& stack_;
  Limits limits_;
  uint64_t events_ = 0;
  uint64_t next_check_;
  Nanos last_time_;
  uint64_t events_at_last_time_ = 0;  // events_ when the clock last moved
  uint64_t completions_ = 0;
  Nanos last_completion_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_WATCHDOG_H_
