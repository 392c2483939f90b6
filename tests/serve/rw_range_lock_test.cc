// RwRangeLock: shared writes overlap, an exclusive range waits for them, and
// waiters are granted in order among those that overlap.
#include "sim/serve/vfs/rw_range_lock.h"

#include <gtest/gtest.h>

#include <vector>

namespace storlab {
namespace rw_range_lock_test {

TEST(RwRangeLock, SharedOverlapExclusiveWaits) {
  RwRangeLock lock;
  std::vector<RwRangeLock::Held> held;
  std::vector<int> order;
  auto grant = [&](int tag) {
    return [&, tag](RwRangeLock::Held h) {
      held.push_back(h);
      order.push_back(tag);
    };
  };
  lock.Acquire(0, 100, false, grant(1));
  lock.Acquire(50, 150, false, grant(2));   // shared: overlaps freely
  lock.Acquire(90, 110, true, grant(3));    // waits for both
  lock.Acquire(200, 300, true, grant(4));   // elsewhere: at once
  lock.Acquire(100, 120, false, grant(5));  // behind the waiting exclusive
  EXPECT_EQ(order, (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(lock.waiting(), 2u);
  lock.Release(held[0]);
  EXPECT_EQ(order.size(), 3u);
  lock.Release(held[1]);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 4, 3}));
  lock.Release(held[3]);  // 3's
  EXPECT_EQ(order, (std::vector<int>{1, 2, 4, 3, 5}));
  lock.Release(held[2]);
  lock.Release(held[4]);
  EXPECT_EQ(lock.held(), 0u);
  EXPECT_EQ(lock.waiting(), 0u);
}

}  // namespace rw_range_lock_test
}  // namespace storlab
