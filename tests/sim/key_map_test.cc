// KeyMap: the open-addressing index of the ARC, the oracle and the RAM
// store. Entries come from chunks; their addresses must stay
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

// Keys hashed by aligned runs of eight take neighbouring slots, so runs of
// consecutive keys (a long read's pages) build long probe clusters; the
// lookups and the backward-shift deletion must stay right across them,
// also for runs that straddle an aligned run and keys near the top.
TEST(KeyMapTest, AgreesWithAMapUnderRunsOfConsecutiveKeys) {
  KeyMap<Entry> km;
  std::map<uint64_t, uint64_t> ref;
  Random rng(11, "keymap-runs");
  const uint64_t bases[] = {0, uint64_t{1} << 40, UINT64_MAX - 5000};
  for (int i = 0; i < 20000; ++i) {
    const uint64_t first = bases[rng.Uniform(3)] + rng.Uniform(4000);
    const uint64_t n = 1 + rng.Uniform(64);
    const bool erase = rng.Uniform(3) == 0;
    for (uint64_t key = first; key < first + n; ++key) {
      if (erase) {
        km.Erase(key);
        ref.erase(key);
      } else {
        km.TryEmplace(key).first->value = key ^ 0x5a5a;
        ref[key] = key ^ 0x5a5a;
      }
    }
  }
  EXPECT_EQ(km.size(), ref.size());
  for (uint64_t base : bases) {
    for (uint64_t key = base; key < base + 4100; ++key) {
      const Entry* e = km.Find(key);
      auto it = ref.find(key);
      ASSERT_EQ(e != nullptr, it != ref.end()) << key;
      if (e) EXPECT_EQ(e->value, it->second);
    }
  }
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
