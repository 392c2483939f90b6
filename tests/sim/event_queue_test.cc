// EventQueue: the radix heap pops exactly what a binary heap on (t, seq)
// would, under pushes at and after the time last popped (also below a
// minimum just peeked at), for entries due at one time, after a Clear, and
// at the extremes of the key (times near Nanos::Max(), sequence numbers
// near 2^64).
#include "sim/event_queue.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <queue>
#include <tuple>
#include <vector>

#include "sim/random.h"

namespace storlab {
namespace event_queue_test {

using Key = std::tuple<int64_t, uint64_t, uint32_t>;

// Pops everything; the slots in the order they came out.
std::vector<uint32_t> Drain(EventQueue& q) {
  std::vector<uint32_t> order;
  while (!q.empty()) {
    order.push_back(q.Top().slot);
    q.Pop();
  }
  return order;
}

struct Reference {
  std::priority_queue<Key, std::vector<Key>, std::greater<>> q;
};

TEST(EventQueue, PopsWhatABinaryHeapPopsUnderRandomMonotoneTraffic) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Random rng(seed);
    EventQueue q;
    Reference ref;
    int64_t now = 0;
    uint64_t seq = 1;
    for (int step = 0; step < 200000; ++step) {
      const uint64_t op = rng.Uniform(10);
      if (op == 9 && !ref.q.empty()) {
        // A peek, as the real-time driver's next_time() before it sleeps;
        // the pushes after it may fall below what it returned.
        const EventQueue::Entry& top = q.Top();
        ASSERT_EQ(Key(top.t, top.seq, top.slot), ref.q.top()) << "step " << step;
      } else if (op < 5 || ref.q.empty()) {
        // Now, soon, or far later (a timer seconds ahead).
        const uint64_t kind = rng.Uniform(4);
        const int64_t delay = kind == 0   ? 0
                              : kind == 1 ? static_cast<int64_t>(rng.Uniform(1000))
                              : kind == 2 ? static_cast<int64_t>(rng.Uniform(1000000))
                                          : static_cast<int64_t>(rng.Uniform(uint64_t{5} << 30));
        const auto slot = static_cast<uint32_t>(rng.Uniform(1000));
        q.Push({now + delay, seq, slot});
        ref.q.emplace(now + delay, seq, slot);
        ++seq;
      } else {
        const EventQueue::Entry& top = q.Top();
        ASSERT_EQ(Key(top.t, top.seq, top.slot), ref.q.top()) << "step " << step;
        now = top.t;
        q.Pop();
        ref.q.pop();
      }
      ASSERT_EQ(q.size(), ref.q.size());
    }
    while (!ref.q.empty()) {
      const EventQueue::Entry& top = q.Top();
      ASSERT_EQ(Key(top.t, top.seq, top.slot), ref.q.top());
      q.Pop();
      ref.q.pop();
    }
    EXPECT_TRUE(q.empty());
  }
}

// The real-time driver's pattern: it peeks at the next event (due later),
// a request arrives before it, and that one must come out first.
TEST(EventQueue, APushBelowAPeekedMinimumComesOutFirst) {
  EventQueue q;
  q.Push({1000, 1, 1});
  q.Push({5000, 2, 2});
  q.Push({1001, 3, 3});
  EXPECT_EQ(q.Top().slot, 1u);
  q.Pop();
  EXPECT_EQ(q.Top().slot, 3u);  // the peek centres the buckets on (1001, 3)
  q.Push({1000, 4, 4});         // at the time last popped, below the peek
  q.Push({1001, 5, 5});
  EXPECT_EQ(Drain(q), (std::vector<uint32_t>{4, 3, 5, 2}));
}

TEST(EventQueue, ClearLetsPushesStartOverAndTheKeyExtremesOrder) {
  EventQueue q;
  q.Push({500, 10, 1});
  q.Push({400, 11, 2});
  EXPECT_EQ(q.Top().slot, 2u);
  q.Pop();
  q.Clear();
  EXPECT_TRUE(q.empty());
  // Below the key popped before the Clear: allowed again.
  q.Push({10, 1, 3});
  const int64_t far = std::numeric_limits<int64_t>::max();
  const uint64_t big = std::numeric_limits<uint64_t>::max();
  q.Push({far, big, 4});
  q.Push({far, big - 1, 5});
  q.Push({10, 2, 6});
  EXPECT_EQ(Drain(q), (std::vector<uint32_t>{3, 6, 5, 4}));
}

// Entries due at one time come out by sequence, whichever order they were
// pushed in (a restored queue; the engine's own sequence only rises), both
// at the time last popped and later, once their bucket is reached.
TEST(EventQueue, EntriesDueAtOneTimeComeOutBySequence) {
  EventQueue q;
  q.Push({0, 7, 1});
  q.Push({0, 3, 2});  // due now, below an entry already waiting
  q.Push({0, 9, 3});
  q.Push({70000, 8, 4});
  q.Push({70000, 2, 5});
  q.Push({70000, 5, 6});
  q.Push({69999, 6, 7});
  EXPECT_EQ(Drain(q), (std::vector<uint32_t>{2, 1, 3, 7, 5, 6, 4}));
}

}  // namespace event_queue_test
}  // namespace storlab
