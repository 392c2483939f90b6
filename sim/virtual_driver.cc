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

}  // namespace storlab
