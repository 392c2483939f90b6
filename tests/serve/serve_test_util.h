// Helpers for the real-time service's tests: a wall clock the test moves by
// hand (so nothing sleeps for simulated time), and stack files.
#ifndef STORLAB_TESTS_SERVE_SERVE_TEST_UTIL_H_
#define STORLAB_TESTS_SERVE_SERVE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "sim/clock.h"
#include "sim/serve/service.h"

namespace storlab::testing {

// Time moves only when the test says so (Advance) — or, with `auto_jump`,
// whenever the driver waits for a deadline (it then jumps there, like a
// virtual clock). Waiting without a jump polls every 200 us of real time.
class ManualClock : public Clock {
 public:
  explicit ManualClock(bool auto_jump) : auto_jump_(auto_jump) {}
  void set_auto_jump(bool on) { auto_jump_.store(on); }
  int64_t NowNanos() override { return now_.load(); }
  void WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                 int64_t deadline) override {
    if (auto_jump_.load() && deadline < std::numeric_limits<int64_t>::max() / 4) {
      if (deadline > now_.load()) now_.store(deadline);
      return;
    }
    if (deadline <= now_.load()) return;
    cv.wait_for(lock, std::chrono::microseconds(200));
  }
  void Relax() override { std::this_thread::yield(); }
  void Advance(int64_t ns) { now_ += ns; }

 private:
  std::atomic<bool> auto_jump_;
  std::atomic<int64_t> now_{1'000'000'000};
};

inline std::string ServeStack(const std::string& name) {
  const char* d = std::getenv("STORLAB_SOURCE_DIR");
#ifdef STORLAB_SOURCE_DIR_DEFAULT
  std::string dir = d ? d : STORLAB_SOURCE_DIR_DEFAULT;
#else
  std::string dir = d ? d : ".";
#endif
  return dir + "/tests/serve/stacks/" + name;
}

// Polls `pred` (real time, up to 10 s): for a request to be in flight.
template <typename P>
bool Eventually(P pred) {
  for (int i = 0; i < 10000; ++i) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// A started service, or nullptr after a test failure.
inline std::unique_ptr<Service> Start(const ServiceOptions& o) {
  auto s = Service::Create(o);
  if (!s.ok()) {
    ADD_FAILURE() << s.status().ToString();
    return nullptr;
  }
  EXPECT_TRUE((*s)->Start().ok());
  return std::move(s).value();
}

// An export request without a completion.
inline ExportRequest Io(Op op, uint64_t off, uint64_t len, uint8_t* data, uint32_t flags = 0) {
  ExportRequest r;
  r.op = op;
  r.offset = off;
  r.length = len;
  r.data = data;
  r.flags = flags;
  return r;
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SERVE_SERVE_TEST_UTIL_H_
