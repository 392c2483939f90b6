// KeyMap: the open-addressing index of the page table, the ARC, the oracle
// and the RAM store. Entries come from chunks; their addresses must stay
// put while they live, freed ones must be reused, and lookups must agree
// with a std::map under random inserts and erases (backward-shift deletion).
#include "sim/key_map.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "sim/random.h"

namespace storlab {
namespace key_map_test {

struct Entry {
  uint64_t value = 0;
};

TEST(KeyMapTest, AgreesWithAMapUnderRandomInsertsAndErases) {
  KeyMap<Entry> km;
  std::map<uint64_t, uint64_t> ref;
  Random rng(7, "keymap");
  for (int i = 0; i < 200000; ++i) {
    const uint64_t key = rng.Uniform(20000);
    if (rng.Uniform(3) == 0) {
      km.Erase(key);
      ref.erase(key);
    } else {
      auto [e, inserted] = km.TryEmplace(key);
      EXPECT_EQ(inserted, ref.count(key) == 0) << key;
      if (inserted) EXPECT_EQ(e->value, 0u) << "a reused entry starts default";
      e->value = key * 3 + 1;
      ref[key] = e->value;
    }
  }
  EXPECT_EQ(km.size(), ref.size());
  for (uint64_t key = 0; key < 20000; ++key) {
    const Entry* e = km.Find(key);
    auto it = ref.find(key);
    ASSERT_EQ(e != nullptr, it != ref.end()) << key;
    if (e) EXPECT_EQ(e->value, it->second);
  }
  size_t seen = 0;
  km.ForEach([&](uint64_t key, const Entry& e) {
    EXPECT_EQ(ref.at(key), e.value);
    ++seen;
  });
  EXPECT_EQ(seen, ref.size());
}

TEST(KeyMapTest, EntriesKeepTheirAddressesAcrossGrowthAndFreedOnesAreReused) {
  KeyMap<Entry> km;
  std::map<uint64_t, Entry*> where;
  for (uint64_t k = 0; k < 10000; ++k) where[k] = km.TryEmplace(k * 977).first;
  for (uint64_t k = 0; k < 10000; ++k) EXPECT_EQ(km.Find(k * 977), where[k]) << k;
  // Freed entries come back before new chunks are taken.
  std::set<Entry*> freed;
  for (uint64_t k = 0; k < 100; ++k) {
    freed.insert(where[k]);
    km.Erase(k * 977);
  }
  for (uint64_t k = 0; k < 100; ++k) {
    Entry* e = km.TryEmplace(uint64_t{1} << 40 | k).first;
    EXPECT_EQ(freed.count(e), 1u);
  }
  km.Clear();
  EXPECT_EQ(km.size(), 0u);
  EXPECT_EQ(km.Find(977), nullptr);
  EXPECT_TRUE(km.TryEmplace(977).second);
}

}  // namespace key_map_test
}  // namespace storlab
