#include "sim/clock.h"

#include <chrono>
#include <thread>

namespace storlab {
namespace {

class SteadyClock : public Clock {
 public:
  int64_t NowNanos() override {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                 int64_t deadline_ns) override {
    cv.wait_until(lock,
                  std::chrono::steady_clock::time_point(std::chrono::nanoseconds(deadline_ns)));
  }
  void Relax() override { std::this_thread::yield(); }
};

}  // namespace

Clock* Clock::Real() {
  static SteadyClock* clock = new SteadyClock();
  return clock;
}

}  // namespace storlab
