// The real-time driver's loop, run against a fake clock: the test never
// sleeps, and lateness is exact.
#include "sim/realtime_driver.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>

#include "sim/devices/ram_disk.h"
#include "sim/store/ram_store.h"

namespace storlab {
namespace {

using namespace time_literals;

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
    int64_t target = deadline + overshoot_;
    if (target > now_.load()) now_.store(target);
  }
  void Advance(int64_t ns) { now_ += ns; }

 private:
  std::atomic<int64_t> now_{1'000'000'000};
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

TEST(RealtimeDriverTest, RunsEventsAtTheirWallTimeAndMeasuresLateness) {
  Engine engine;
  RamDisk::Config cfg;
  cfg.latency = 1_ms;
  RamDisk disk(engine, "disk", cfg, std::make_unique<RamStore>());
  FakeClock clock(/*overshoot_ns=*/50'000);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();

  Waiter w;
  Nanos completed_at;
  std::vector<uint8_t> buf(4096, 7);
  driver.Call([&] {
    Request r;
    r.op = Op::kWrite;
    r.length = 4096;
    r.data = buf.data();
    r.done = [&](Status st) {
      EXPECT_TRUE(st.ok());
      completed_at = engine.now();
      w.Set();
    };
    disk.Submit(std::move(r));
  });
  w.Wait();
  EXPECT_EQ(completed_at, 1_ms);  // simulated time of the completion event
  LatencyHistogram late = driver.Lateness();
  ASSERT_GE(late.samples(), 1u);
  EXPECT_EQ(late.max(), 50'000u);  // exactly the clock's overshoot
  driver.Stop();
}

TEST(RealtimeDriverTest, OutsideRequestsArriveAtTheWallTimeTheyArePosted) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
  clock.Advance(3'000'000);  // 3 ms of wall time pass with nothing to do
  Nanos seen;
  driver.Call([&] { seen = engine.now(); });
  EXPECT_EQ(seen, 3_ms);
  driver.Stop();
  EXPECT_FALSE(driver.running());
}

TEST(RealtimeDriverTest, StopRunsWhatIsPostedAndKeepsFutureEvents) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
  int ran = 0;
  driver.Call([&] { engine.After(10_s, [&] { ++ran; }); });
  Waiter w;
  driver.Post([&] { w.Set(); });
  w.Wait();
  driver.Stop();
  // The 10 s event may or may not have run (the fake clock jumps); either
  // way the driver stopped cleanly and the engine is consistent.
  EXPECT_LE(ran, 1);
  EXPECT_EQ(engine.pending() + static_cast<size_t>(ran), 1u);
}

}  // namespace
}  // namespace storlab
