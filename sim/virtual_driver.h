// VirtualDriver: runs an engine in simulated time, jumping from event to event.
//
// A minute of simulated I/O costs only the events it takes. Workloads run
// under a Watchdog (sim/watchdog.h), so a stuck run ends with an error that
// names the node instead of spinning forever. Not thread-safe; runs on the
// caller's thread.
#ifndef STORLAB_SIM_VIRTUAL_DRIVER_H_
#define STORLAB_SIM_VIRTUAL_DRIVER_H_

#include <cstdint>
#include <functional>

#include "sim/engine.h"
#include "sim/status.h"
#include "sim/watchdog.h"

namespace storlab {

class VirtualDriver {
 public:
  explicit VirtualDriver(Engine& engine) : engine_(engine) {}
  VirtualDriver(const VirtualDriver&) = delete;
  VirtualDriver& operator=(const VirtualDriver&) = delete;

  // Runs events until none is left. Returns the number of events run.
  uint64_t RunUntilIdle();
  // Runs every event due at or before `t`, then moves the clock to `t`.
  uint64_t RunUntil(Nanos t);
  // Runs events while `keep_going()` is true and events remain.
  uint64_t RunWhile(const std::function<bool()>& keep_going);
  // Runs events while `keep_going()` is true, consulting `watchdog` after
  // each (sim/watchdog.h): an error when the run is stuck, or when no
  // event remains while `keep_going()` still holds (a deadlock).
  Status RunWatched(const std::function<bool()>& keep_going, Watchdog& watchdog);

 private:
  Engine& engine_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_VIRTUAL_DRIVER_H_
