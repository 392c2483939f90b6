#include "sim/engine.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/request.h"
#include "sim/virtual_driver.h"

namespace storlab {
namespace engine_test {

using namespace time_literals;

TEST(EngineTest, RunsEventsInTimeThenSubmissionOrder) {
  Engine e;
  std::vector<int> order;
  e.At(20_us, [&] { order.push_back(3); });
  e.At(10_us, [&] { order.push_back(1); });
  e.At(10_us, [&] { order.push_back(2); });  // same time: FIFO
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(e.now(), 20_us);
  EXPECT_EQ(e.events_run(), 3u);
}

// The real-time driver asks for the next event's time before it sleeps; a
// request that arrives meanwhile is scheduled before that event and runs
// first.
TEST(EngineTest, AnEventScheduledBeforeTheOnePeekedAtRunsFirst) {
  Engine e;
  std::vector<int> order;
  e.At(10_us, [&] { order.push_back(1); });
  e.At(50_us, [&] { order.push_back(3); });
  VirtualDriver(e).RunUntil(10_us);
  EXPECT_EQ(e.next_time(), 50_us);
  e.AdvanceTo(20_us);
  e.At(20_us, [&] { order.push_back(2); });
  EXPECT_EQ(e.next_time(), 20_us);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

// A layer's event that carries the request it serves, and one more word,
// must not allocate: one such event runs for every buffered I/O.
TEST(EngineTest, AnEventCarryingARequestFitsInline) {
  static_assert(sizeof(Request) == 96);
  Engine e;
  const Nanos since = e.now();
  Engine::Event one = [self = &e, r = Request{.done = [](Status) {}}]() mutable {
    (void)self;
    r.done(Status());
  };
  Engine::Event two = [self = &e, since, r = Request{.done = [](Status) {}}]() mutable {
    (void)self;
    (void)since;
    r.done(Status());
  };
  EXPECT_FALSE(one.allocated());
  EXPECT_FALSE(two.allocated());
}

TEST(EngineTest, CancelledEventsDoNotRun) {
  Engine e;
  int ran = 0;
  auto id = e.After(5_ms, [&] { ++ran; });
  e.After(6_ms, [&] { ++ran; });
  EXPECT_TRUE(e.Cancel(id));
  EXPECT_FALSE(e.Cancel(id));
  EXPECT_EQ(e.pending(), 1u);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(e.now(), 6_ms);
}

TEST(EngineTest, EventsMayScheduleEvents) {
  Engine e;
  int n = 0;
  std::function<void()> tick = [&] {
    if (++n < 100) e.After(1_us, tick);
  };
  e.After(0_ns, tick);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(n, 100);
  EXPECT_EQ(e.now(), 99_us);
}

TEST(EngineTest, RunUntilStopsAtTheGivenTime) {
  Engine e;
  int ran = 0;
  e.At(1_s, [&] { ++ran; });
  e.At(3_s, [&] { ++ran; });
  VirtualDriver d(e);
  d.RunUntil(2_s);
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(e.now(), 2_s);
  d.RunUntilIdle();
  EXPECT_EQ(ran, 2);
}

TEST(EngineTest, ClearDropsEverything) {
  Engine e;
  int ran = 0;
  for (int i = 0; i < 10; ++i) e.After(Nanos(i), [&] { ++ran; });
  e.Clear();
  EXPECT_TRUE(e.empty());
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(ran, 0);
  // The engine is usable afterwards.
  e.After(1_us, [&] { ++ran; });
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(ran, 1);
}

// An event runs in its slot: what it captured stays intact while it
// schedules enough events to add slot chunks, and while it clears the
// engine (a power cut from inside an event); the events it schedules after
// the Clear run, the ones before it do not.
TEST(EngineTest, AnEventKeepsItsCapturesWhileItSchedulesAndClears) {
  Engine e;
  int ran = 0;
  std::string seen_after_schedule, seen_after_clear;
  const std::string tag(64, 'x');  // on the heap: ASan sees a freed capture
  e.After(1_us, [&, tag] {
    for (int i = 0; i < 5000; ++i) e.After(Nanos(i), [&] { ++ran; });
    seen_after_schedule = tag;
    e.Clear();
    seen_after_clear = tag;
    e.After(1_us, [&, tag] { seen_after_schedule += tag; });
  });
  for (int i = 0; i < 3; ++i) e.After(2_us, [&] { ++ran; });
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(seen_after_clear, tag);
  EXPECT_EQ(seen_after_schedule, tag + tag);
  EXPECT_EQ(e.now(), 2_us);
  // The engine goes on: the freed slots take new events.
  for (int i = 0; i < 5000; ++i) e.After(Nanos(i), [&] { ++ran; });
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(ran, 5000);
}

TEST(EngineTest, LargeCapturesWork) {
  Engine e;
  std::array<uint64_t, 32> big{};
  big[31] = 7;
  uint64_t seen = 0;
  e.After(1_ns, [&seen, big] { seen = big[31]; });
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(seen, 7u);
}

}  // namespace engine_test
}  // namespace storlab
