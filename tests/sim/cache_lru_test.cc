// LruPolicy, whose two lists run through the cache table's entries: hits
// and insertions order the clean list, a block turning dirty leaves it, a
// temporary promotion is the next victim, a removed entry is forgotten;
// its state restores into a restored table in the same order, and a state
// naming a block the table does not hold, or one block twice, is refused.
#include "sim/layers/cache/cache_lru.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/state_coding.h"

namespace storlab {
namespace cache_lru_test {

// A table of 16 one-sector blocks and its policy.
struct Fixture {
  CacheTable table{16, 1, 512, false};
  LruPolicy lru{table};
  CacheEntry& Add(uint64_t block, Promote how = Promote::kPermanent) {
    CacheEntry& e = table.Insert(block, *table.TakeFreeSlot());
    lru.Insert(e, false, how);
    return e;
  }
  // The clean blocks in eviction order (the victims one after another,
  // each one refused in turn).
  std::vector<uint64_t> CleanOrder() {
    std::vector<uint64_t> out;
    for (;;) {
      auto v = lru.Victim(
          [&](uint64_t b) { return std::find(out.begin(), out.end(), b) == out.end(); }, 64);
      if (!v) return out;
      out.push_back(*v);
    }
  }
};

TEST(LruPolicy, OrdersTheCleanBlocksByUseAndSkipsDirtyOnes) {
  Fixture f;
  for (uint64_t b : {1, 2, 3, 4}) f.Add(b);
  EXPECT_EQ(f.CleanOrder(), (std::vector<uint64_t>{1, 2, 3, 4}));
  f.lru.Hit(Access{.block = 1}, *f.table.Find(1));
  EXPECT_EQ(f.CleanOrder(), (std::vector<uint64_t>{2, 3, 4, 1}));
  f.lru.SetDirty(*f.table.Find(3), true);
  EXPECT_EQ(f.CleanOrder(), (std::vector<uint64_t>{2, 4, 1}));
  f.lru.SetDirty(*f.table.Find(3), false);  // clean again: the hot end
  EXPECT_EQ(f.CleanOrder(), (std::vector<uint64_t>{2, 4, 1, 3}));
  f.Add(5, Promote::kTemporary);  // first in line
  EXPECT_EQ(f.CleanOrder(), (std::vector<uint64_t>{5, 2, 4, 1, 3}));
  CacheEntry& two = *f.table.Find(2);
  f.lru.Remove(two);
  f.table.Erase(two);
  EXPECT_EQ(f.CleanOrder(), (std::vector<uint64_t>{5, 4, 1, 3}));
}

TEST(LruPolicy, RestoresItsOrderIntoTheRestoredTable) {
  Fixture f;
  for (uint64_t b : {7, 3, 9, 1}) f.Add(b);
  f.lru.Hit(Access{.block = 7}, *f.table.Find(7));
  f.lru.SetDirty(*f.table.Find(9), true);
  StateWriter w;
  ASSERT_TRUE(f.table.SaveState(w).ok());
  f.lru.SaveState(w);
  Fixture g;
  StateReader r(w.data(), "test");
  ASSERT_TRUE(g.table.RestoreState(r).ok());
  ASSERT_TRUE(g.lru.RestoreState(r).ok());
  ASSERT_TRUE(r.Finish().ok());
  EXPECT_EQ(g.CleanOrder(), f.CleanOrder());
  EXPECT_EQ(g.CleanOrder(), (std::vector<uint64_t>{3, 1, 7}));
  // The dirty block comes back on the dirty list: cleaned, it is the
  // hottest.
  g.lru.SetDirty(*g.table.Find(9), false);
  EXPECT_EQ(g.CleanOrder(), (std::vector<uint64_t>{3, 1, 7, 9}));
}

// The lists' part of a state: clean blocks, then dirty ones.
std::string Lists(const std::vector<uint64_t>& clean, const std::vector<uint64_t>& dirty) {
  StateWriter w;
  for (const auto* l : {&clean, &dirty}) {
    w.U64(l->size());
    for (uint64_t b : *l) w.U64(b);
  }
  return w.Take();
}

TEST(LruPolicy, RefusesAStateWithABlockTheCacheDoesNotHoldOrOneTwice) {
  Fixture f;
  for (uint64_t b : {1, 2}) f.table.Insert(b, *f.table.TakeFreeSlot());
  {
    const std::string s = Lists({1, 5}, {});
    StateReader r(s, "test");
    Status st = f.lru.RestoreState(r);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.ToString().find("does not hold"), std::string::npos) << st.ToString();
  }
  Fixture g;
  for (uint64_t b : {1, 2}) g.table.Insert(b, *g.table.TakeFreeSlot());
  const std::string s = Lists({1}, {2, 1});
  StateReader r(s, "test");
  Status st = g.lru.RestoreState(r);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("twice"), std::string::npos) << st.ToString();
}

}  // namespace cache_lru_test
}  // namespace storlab
