// The real-time driver's loop, run against a fake clock: the test never
// sleeps, and lateness is exact.
#include "sim/realtime_driver.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <thread>

#include "sim/devices/ram_disk.h"
#include "sim/store/ram_store.h"
#include "tests/serve/fake_clock.h"

namespace storlab {
namespace realtime_driver_test {

using namespace time_literals;
using testing::FakeClock;
using testing::Waiter;

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
    Request r{.op = Op::kWrite, .length = 4096, .data = buf.data(), .done = [&](Status st) {
                EXPECT_TRUE(st.ok());
                completed_at = engine.now();
                w.Set();
              }};
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

TEST(RealtimeDriverTest, SpinsTheLastStretchBeforeAnEvent) {
  Engine engine;
  FakeClock clock(/*overshoot_ns=*/0);
  RealtimeDriver driver(engine, {&clock, 100_us});
  driver.Start();
  Waiter w;
  Nanos ran_at;
  driver.Call([&] {
    engine.After(1_ms, [&] {
      ran_at = engine.now();
      w.Set();
    });
  });
  w.Wait();
  driver.Stop();
  EXPECT_EQ(ran_at, 1_ms);
  // It slept until 100 us before the event, then polled the clock (1 us a
  // poll on this clock) up to the due time.
  EXPECT_EQ(clock.last_deadline(), 1'000'000'000 + 900'000);
  EXPECT_GE(clock.relaxes(), 100);
  EXPECT_EQ(driver.Lateness().max(), 0u);
}

TEST(RealtimeDriverTest, ArrivalIsStampedWhenPostedNotWhenRun) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
  // The driver thread is busy for 5 ms of wall time (a slow event) while a
  // request waits in the inbox.
  std::mutex m;
  std::condition_variable cv;
  bool busy = false, release = false;
  driver.Post([&] {
    std::unique_lock<std::mutex> l(m);
    busy = true;
    cv.notify_all();
    cv.wait(l, [&] { return release; });
  });
  {
    std::unique_lock<std::mutex> l(m);
    cv.wait(l, [&] { return busy; });
  }
  clock.Advance(1'000'000);  // posted at 1 ms
  Nanos seen;
  Waiter w;
  driver.Post([&] {
    seen = engine.now();
    w.Set();
  });
  clock.Advance(4'000'000);  // runs at 5 ms
  {
    std::lock_guard<std::mutex> l(m);
    release = true;
    cv.notify_all();
  }
  w.Wait();
  EXPECT_EQ(seen, 1_ms);
  EXPECT_EQ(driver.InboxWait().max(), 4'000'000u);
  driver.Stop();
}

TEST(RealtimeDriverTest, BackdatedPostRunsEarlierButNeverBeforeNow) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
  clock.Advance(3'000'000);
  Nanos seen;
  Waiter w;
  ASSERT_TRUE(driver
                  .Post(
                      [&] {
                        seen = engine.now();
                        w.Set();
                      },
                      2_ms)
                  .ok());
  w.Wait();
  EXPECT_EQ(seen, 1_ms);  // posted at 3 ms, backdated 2 ms
  // Backdated beyond the engine's now (1 ms): clamped to it.
  Nanos again;
  Waiter w2;
  driver.Post(
      [&] {
        again = engine.now();
        w2.Set();
      },
      5_ms);
  w2.Wait();
  EXPECT_EQ(again, 1_ms);
  driver.Stop();
}

TEST(RealtimeDriverTest, AfterStopPostAndCallFailInsteadOfHanging) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  // Never started: refused.
  EXPECT_EQ(driver.Post([] {}).code(), Status::Code::kAborted);
  driver.Start();
  EXPECT_TRUE(driver.Call([] {}).ok());
  driver.Stop();
  bool ran = false;
  EXPECT_EQ(driver.Post([&] { ran = true; }).code(), Status::Code::kAborted);
  EXPECT_EQ(driver.Call([&] { ran = true; }).code(), Status::Code::kAborted);
  EXPECT_FALSE(ran);
  // It can be started again.
  driver.Start();
  EXPECT_TRUE(driver.Call([&] { ran = true; }).ok());
  EXPECT_TRUE(ran);
}

TEST(RealtimeDriverTest, StopFromTwoThreadsAndFromAPostedFunction) {
  Engine engine;
  FakeClock clock(0);
  {
    RealtimeDriver driver(engine, {&clock, Nanos(0)});
    driver.Start();
    std::thread a([&] { driver.Stop(); });
    std::thread b([&] { driver.Stop(); });
    a.join();
    b.join();
    EXPECT_FALSE(driver.running());
  }
  {
    RealtimeDriver driver(engine, {&clock, Nanos(0)});
    driver.Start();
    int after = 0;
    Waiter w;
    driver.Post([&] {
      driver.Stop();  // returns at once on the driver's thread
      w.Set();
    });
    w.Wait();
    // Posted before the stop took effect? Either way, never a hang.
    (void)driver.Post([&] { ++after; });
    driver.Stop();  // joins
    EXPECT_FALSE(driver.running());
    EXPECT_LE(after, 1);
  }
}

TEST(RealtimeDriverTest, CallFromTheDriverThreadIsRefused) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
#ifdef NDEBUG
  Status inner;
  driver.Call([&] { inner = driver.Call([] {}); });
  EXPECT_EQ(inner.code(), Status::Code::kInternal);
#else
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(driver.Call([&] { (void)driver.Call([] {}); }), "would deadlock");
#endif
  driver.Stop();
}

TEST(RealtimeDriverTest, AnEventAtTheEndOfTimeIsNotDueNow) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
  bool ran = false;
  driver.Call([&] { engine.At(Nanos::Max() - Nanos(1), [&] { ran = true; }); });
  driver.Call([] {});  // one more turn of the loop
  driver.Stop();
  EXPECT_FALSE(ran);  // WallOf saturates: the driver waits, it does not run it
}

TEST(RealtimeDriverTest, ARequestSizedClosureFitsInline) {
  Request r{.done = [](Status) {}};
  void* owner = nullptr;
  RealtimeDriver::Work w = [owner, r = std::move(r)]() mutable { (void)owner; };
  EXPECT_FALSE(w.allocated());
}

}  // namespace realtime_driver_test
}  // namespace storlab
