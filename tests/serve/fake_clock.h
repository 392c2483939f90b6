// Test doubles for the real-time driver: a clock that jumps to each
// deadline instead of sleeping, and a one-shot waiter.
#ifndef STORLAB_TESTS_SERVE_FAKE_CLOCK_H_
#define STORLAB_TESTS_SERVE_FAKE_CLOCK_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <mutex>

#include "sim/clock.h"

namespace storlab::testing {

// Jumps to each deadline (plus a fixed overshoot) instead of sleeping; with
// no deadline it waits for a notification like the real clock.
class FakeClock : public Clock {
 public:
  explicit FakeClock(int64_t overshoot_ns) : overshoot_(overshoot_ns) {}
  int64_t NowNanos() override { return now_.load(); }
  void WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                 int64_t deadline) override {
    if (deadline >= std::numeric_limits<int64_t>::max() / 4) {
      cv.wait(lock);
      return;
    }
    last_deadline_.store(deadline);
    int64_t target = deadline + overshoot_;
    if (target > now_.load()) now_.store(target);
  }
  // Each poll of a spinning thread moves time on by 1 us.
  void Relax() override {
    ++relaxes_;
    now_ += 1000;
  }
  void Advance(int64_t ns) { now_ += ns; }
  int64_t relaxes() const { return relaxes_.load(); }
  int64_t last_deadline() const { return last_deadline_.load(); }

 private:
  std::atomic<int64_t> now_{1'000'000'000};
  std::atomic<int64_t> relaxes_{0};
  std::atomic<int64_t> last_deadline_{0};
  int64_t overshoot_;
};

struct Waiter {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  void Set() {
    std::lock_guard<std::mutex> l(m);
    done = true;
    cv.notify_all();
  }
  void Wait() {
    std::unique_lock<std::mutex> l(m);
    cv.wait(l, [&] { return done; });
  }
};

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SERVE_FAKE_CLOCK_H_
