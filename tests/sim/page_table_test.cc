// The page table's LRU order: reclaim takes the coldest group first, a
// dirty group gets a second chance (moved to the hot end) and the walk
// goes on; the order survives the log of marks being rebuilt many times
// over, groups being forgotten and made again, and a saved state.
#include "sim/layers/page_cache/page_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/random.h"
#include "sim/state_coding.h"

namespace storlab {
namespace page_table_test {

constexpr uint64_t kG = PageTable::kGroupPages;

// Caches group g whole (clean).
void Cache(PageTable& t, uint64_t g) { t.MarkCached(g * kG, g * kG + kG - 1); }

// The groups EvictClean takes, in order (each evicted whole here).
std::vector<uint64_t> Evict(PageTable& t, uint64_t groups) {
  std::vector<uint64_t> out;
  t.EvictClean(groups * kG, [&](uint64_t first, uint64_t count) {
    EXPECT_EQ(first % kG, 0u);
    EXPECT_EQ(count, kG);
    out.push_back(first / kG);
  });
  return out;
}

TEST(PageTableTest, ReclaimTakesTheColdestFirstAfterManyTouches) {
  PageTable t;
  std::vector<uint64_t> order;
  for (uint64_t g = 0; g < 200; ++g) {
    Cache(t, g);
    order.push_back(g);
  }
  // Far more touches than groups: the log of marks is rebuilt many times.
  Random rng(3, "page-table-lru");
  for (int i = 0; i < 100000; ++i) {
    const uint64_t g = rng.Uniform(200);
    t.Touch(g * kG, g * kG);
    order.erase(std::find(order.begin(), order.end(), g));
    order.push_back(g);
  }
  EXPECT_EQ(Evict(t, 10), std::vector<uint64_t>(order.begin(), order.begin() + 10));
  EXPECT_EQ(t.cached_pages(), 190 * kG);
  // Forgotten groups made again are the hottest.
  Cache(t, order[0]);
  Cache(t, order[1]);
  std::vector<uint64_t> rest(order.begin() + 10, order.end());
  rest.push_back(order[0]);
  rest.push_back(order[1]);
  EXPECT_EQ(Evict(t, 192), rest);
  EXPECT_EQ(t.cached_pages(), 0u);
}

TEST(PageTableTest, ADirtyGroupGetsASecondChanceAndTheWalkGoesOn) {
  PageTable t;
  for (uint64_t g = 0; g < 4; ++g) Cache(t, g);
  t.MarkDirty(0, kG - 1, 1, Nanos(0));  // group 0: dirty, and now hottest
  t.Touch(kG, kG);                      // group 1 after it
  EXPECT_EQ(Evict(t, 1), (std::vector<uint64_t>{2}));
  // 3 is taken, 0 is dirty (rotated), 1 is taken; 0 stays.
  EXPECT_EQ(Evict(t, 5), (std::vector<uint64_t>{3, 1}));
  EXPECT_EQ(t.cached_pages(), kG);
  EXPECT_EQ(t.dirty_pages(), kG);
}

TEST(PageTableTest, ASavedStateKeepsTheOrder) {
  PageTable t;
  for (uint64_t g = 0; g < 50; ++g) Cache(t, 49 - g);
  for (int round = 0; round < 300; ++round)
    for (uint64_t g = 0; g < 50; g += 3) t.Touch(g * kG, g * kG);
  StateWriter w;
  t.SaveState(w);
  PageTable back;
  StateReader r(w.data(), "test");
  ASSERT_TRUE(back.RestoreState(r).ok());
  EXPECT_EQ(Evict(back, 50), Evict(t, 50));
}

}  // namespace page_table_test
}  // namespace storlab
