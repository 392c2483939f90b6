// The real-time driver run from its callers' threads: RunHere() (waiting
// for the engine or not), the counters of its wake-ups, and AfterRelease().
// A fake clock, as in realtime_driver_test.cc.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "sim/realtime_driver.h"
#include "tests/serve/fake_clock.h"

namespace storlab {
namespace realtime_driver_run_here_test {

using namespace time_literals;
using testing::FakeClock;
using testing::Waiter;

TEST(RealtimeDriverTest, RunHereRunsOnTheCallerAndWakesTheDriverForWhatItScheduled) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  RealtimeDriver::Work never = [] {};
  EXPECT_FALSE(driver.RunHere(never));  // not started
  driver.Start();
  driver.Call([] {});  // the driver is now idle, asleep without a deadline
  std::thread::id ran_on;
  Nanos seen;
  Waiter fired;
  RealtimeDriver::Work w = [&] {
    ran_on = std::this_thread::get_id();
    seen = engine.now();
    // Something due later: the driver must wake up for it.
    engine.After(2_ms, [&] { fired.Set(); });
  };
  // The driver may still hold the engine for a moment after Call returns.
  while (!driver.RunHere(w, 1_ms)) std::this_thread::yield();
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  fired.Wait();
  EXPECT_EQ(engine.now(), seen + 2_ms);
  driver.Stop();
  RealtimeDriver::Work after = [] {};
  EXPECT_FALSE(driver.RunHere(after));
}

TEST(RealtimeDriverTest, RunHereCanWaitForTheEngineAndRefusesFromInsideItsOwnBatch) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
  // The driver's thread holds the engine in a posted function until told.
  std::atomic<bool> entered{false}, release{false}, finished{false};
  bool nested_refused = false;
  ASSERT_TRUE(driver
                  .Post([&] {
                    RealtimeDriver::Work inner = [] {};
                    nested_refused = !driver.RunHere(inner, Nanos(0), true);  // itself
                    entered = true;
                    while (!release) std::this_thread::yield();
                    finished = true;
                  })
                  .ok());
  while (!entered) std::this_thread::yield();
  RealtimeDriver::Work probe = [] {};
  EXPECT_FALSE(driver.RunHere(probe));  // busy, and not asked to wait
  bool ran = false, saw_finished = false;
  std::thread other([&] {
    RealtimeDriver::Work w = [&] { saw_finished = finished.load(); };
    ran = driver.RunHere(w, Nanos(0), /*wait=*/true);  // waits instead of giving up
  });
  release = true;
  other.join();
  EXPECT_TRUE(nested_refused);
  EXPECT_TRUE(ran);
  EXPECT_TRUE(saw_finished);  // it ran once the posted function let go
  // The same from inside RunHere's own function.
  bool inner_refused = false;
  RealtimeDriver::Work outer = [&] {
    RealtimeDriver::Work inner = [] {};
    inner_refused = !driver.RunHere(inner, Nanos(0), true);
  };
  EXPECT_TRUE(driver.RunHere(outer));
  EXPECT_TRUE(inner_refused);
  driver.Stop();
}

TEST(RealtimeDriverTest, RunHereRunsWhatIsDueAtOnce) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
  driver.Call([] {});
  bool done = false;
  RealtimeDriver::Work w = [&] { engine.After(Nanos(0), [&] { done = true; }); };
  while (!driver.RunHere(w)) std::this_thread::yield();
  EXPECT_TRUE(done);  // before RunHere returned, on this thread
  driver.Stop();
}

TEST(RealtimeDriverTest, CountsEventsPostsAndItsOwnWakeUps) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
  Waiter fired;
  // One posted function that schedules one event 1 ms later: the driver
  // sleeps until it is due (the fake clock jumps there), then runs it.
  ASSERT_TRUE(driver.Call([&] { engine.After(1_ms, [&] { fired.Set(); }); }).ok());
  fired.Wait();
  RealtimeDriver::Counters c = driver.counters();
  EXPECT_EQ(c.events, 1u);
  EXPECT_EQ(c.posted, 1u);
  EXPECT_EQ(c.run_here, 0u);
  EXPECT_GE(c.sleeps, 1u);  // at least the timed one
  EXPECT_LE(c.woken_early, c.sleeps);
  // A function run on its caller's thread is counted as such, not as posted;
  // an event it makes that is due at once runs there too.
  bool done = false;
  RealtimeDriver::Work w = [&] { engine.After(Nanos(0), [&] { done = true; }); };
  while (!driver.RunHere(w)) std::this_thread::yield();
  EXPECT_TRUE(done);
  c = driver.counters();
  EXPECT_EQ(c.run_here, 1u);
  EXPECT_EQ(c.posted, 1u);
  EXPECT_EQ(c.events, 2u);
  EXPECT_EQ(c.run_here_wakes, 0u);  // nothing left for the driver to wake for
  driver.ResetLateness();
  c = driver.counters();
  EXPECT_EQ(c.events + c.posted + c.run_here + c.run_here_wakes, 0u);
  driver.Stop();
}

TEST(RealtimeDriverTest, AfterReleaseRunsOnceTheBatchHasLetGoOfTheEngine) {
  Engine engine;
  FakeClock clock(0);
  RealtimeDriver driver(engine, {&clock, Nanos(0)});
  driver.Start();
  bool second_ran = false, second_ran_before = false, engine_free = false;
  Waiter done;
  // Two events due at once: the first hands something back, which runs
  // only after the second (the whole batch), with the engine released (so
  // RunHere, from this very thread, gets it).
  ASSERT_TRUE(driver
                  .Call([&] {
                    engine.After(1_ms, [&] {
                      driver.AfterRelease([&] {
                        second_ran_before = second_ran;
                        RealtimeDriver::Work probe = [] {};
                        engine_free = driver.RunHere(probe);
                        done.Set();
                      });
                    });
                    engine.After(1_ms, [&] { second_ran = true; });
                  })
                  .ok());
  done.Wait();
  EXPECT_TRUE(second_ran_before);
  EXPECT_TRUE(engine_free);
  // The same from RunHere: handed back before RunHere returns.
  bool handed = false;
  RealtimeDriver::Work w = [&] {
    engine.After(Nanos(0), [&] { driver.AfterRelease([&] { handed = true; }); });
  };
  while (!driver.RunHere(w)) std::this_thread::yield();
  EXPECT_TRUE(handed);
  driver.Stop();
  // With no driver running the engine, at once.
  bool now = false;
  driver.AfterRelease([&] { now = true; });
  EXPECT_TRUE(now);
}

}  // namespace realtime_driver_run_here_test
}  // namespace storlab
