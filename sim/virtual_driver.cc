#include "sim/virtual_driver.h"

namespace storlab {

uint64_t VirtualDriver::RunUntilIdle() {
  uint64_t n = 0;
  while (engine_.Step()) ++n;
  return n;
}

uint64_t VirtualDriver::RunUntil(Nanos t) {
  uint64_t n = 0;
  while (!engine_.empty() && engine_.next_time() <= t) {
    engine_.Step();
    ++n;
  }
  if (t > engine_.now()) engine_.AdvanceTo(t);
  return n;
}

uint64_t VirtualDriver::RunWhile(const std::function<bool()>& keep_going) {
  uint64_t n = 0;
  while (keep_going() && engine_.Step()) ++n;
  return n;
}

Status VirtualDriver::RunWatched(const std::function<bool()>& keep_going, Watchdog& watchdog) {
  while (keep_going()) {
    if (!engine_.Step()) return watchdog.Deadlock(engine_);
    RETURN_IF_ERROR(watchdog.AfterEvent(engine_));
  }
  return Status();
}

}  // namespace storlab
