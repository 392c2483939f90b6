// SsdMapCache: LRU order, dirty write-back, counters.
#include "sim/devices/ssd_map_cache.h"

#include <gtest/gtest.h>

namespace storlab {
namespace ssd_map_cache_test {

TEST(SsdMapCache, KeepsTheMostRecentlyUsedSegments) {
  SsdMapCache c(100, 2);
  EXPECT_FALSE(c.Access(0, false).hit);
  EXPECT_FALSE(c.Access(1, false).hit);
  EXPECT_TRUE(c.Access(0, false).hit);   // 0 is now the most recent
  EXPECT_FALSE(c.Access(2, false).hit);  // evicts 1
  EXPECT_TRUE(c.Access(0, false).hit);
  EXPECT_FALSE(c.Access(1, false).hit);  // evicts 2
  EXPECT_EQ(c.hits(), 2u);
  EXPECT_EQ(c.misses(), 4u);
}

TEST(SsdMapCache, EvictingADirtySegmentWritesItBack) {
  SsdMapCache c(100, 2);
  c.Access(5, true);
  c.Access(6, false);
  SsdMapCache::Outcome o = c.Access(7, false);  // evicts 5, dirty
  EXPECT_FALSE(o.hit);
  EXPECT_TRUE(o.evicted_dirty);
  EXPECT_EQ(o.evicted, 5u);
  o = c.Access(8, false);  // evicts 6, clean
  EXPECT_FALSE(o.evicted_dirty);
  c.Access(7, true);        // dirty on a hit
  c.Access(9, false);       // evicts 8
  o = c.Access(10, false);  // evicts 7, dirty
  EXPECT_TRUE(o.evicted_dirty);
  EXPECT_EQ(o.evicted, 7u);
}

TEST(SsdMapCache, ClearEmptiesTheCache) {
  SsdMapCache c(10, 4);
  for (uint64_t s = 0; s < 4; ++s) c.Access(s, true);
  c.Clear();
  for (uint64_t s = 0; s < 4; ++s) {
    SsdMapCache::Outcome o = c.Access(s, false);
    EXPECT_FALSE(o.hit);
    EXPECT_FALSE(o.evicted_dirty);
  }
}

}  // namespace ssd_map_cache_test
}  // namespace storlab
