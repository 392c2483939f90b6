// The cache table's slots after a restore: every slot the committed
// mapping does not use is free again, handed out lowest first as a fresh
// table would hand them out, then the never-used ones above.
#include "sim/layers/cache/cache_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace storlab {
namespace cache_table_test {

std::vector<uint32_t> TakeAll(CacheTable& t) {
  std::vector<uint32_t> out;
  while (std::optional<uint32_t> s = t.TakeFreeSlot()) out.push_back(*s);
  return out;
}

TEST(CacheTableTest, UsedSlotsStayTakenAndTheRestComeBackLowestFirst) {
  CacheTable t(8, 1, 512, false);
  t.SetUsedSlots({1, 4});
  EXPECT_EQ(TakeAll(t), (std::vector<uint32_t>{0, 2, 3, 5, 6, 7}));

  CacheTable none(4, 1, 512, false);
  none.SetUsedSlots({});
  EXPECT_EQ(TakeAll(none), (std::vector<uint32_t>{0, 1, 2, 3}));

  CacheTable full(3, 1, 512, false);
  full.SetUsedSlots({0, 1, 2});
  EXPECT_FALSE(full.TakeFreeSlot().has_value());
  EXPECT_FALSE(full.has_free_slot());

  // A slot past the table (a smaller cache than the mapping's) is ignored.
  CacheTable small(3, 1, 512, false);
  small.SetUsedSlots({2, 5});
  EXPECT_EQ(TakeAll(small), (std::vector<uint32_t>{0, 1}));
}

}  // namespace cache_table_test
}  // namespace storlab
