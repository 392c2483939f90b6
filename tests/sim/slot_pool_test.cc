// SlotPool: indices reused last released first, entries kept as left.
#include "sim/slot_pool.h"

#include <gtest/gtest.h>

namespace storlab {
namespace slot_pool_test {

TEST(SlotPoolTest, ReusesTheLastReleasedSlotFirst) {
  SlotPool<int> pool;
  EXPECT_EQ(pool.Acquire(), 0u);
  EXPECT_EQ(pool.Acquire(), 1u);
  EXPECT_EQ(pool.Acquire(), 2u);
  pool[1] = 11;
  pool.Release(0);
  pool.Release(1);
  EXPECT_EQ(pool.Acquire(), 1u);
  EXPECT_EQ(pool[1], 11);  // as Release() left it
  EXPECT_EQ(pool.Acquire(), 0u);
  EXPECT_EQ(pool.Acquire(), 3u);
  EXPECT_EQ(pool.size(), 4u);
}

TEST(SlotPoolTest, ClearForgetsEverySlot) {
  SlotPool<int> pool;
  pool.Acquire();
  pool.Release(pool.Acquire());
  pool.Clear();
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(pool.Acquire(), 0u);
  EXPECT_EQ(pool[0], 0);
}

}  // namespace slot_pool_test
}  // namespace storlab
