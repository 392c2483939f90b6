// InlineMap: KeyMap's table with the entries in its slots. Lookups must
// agree with a std::map under random inserts and erases, also over runs of
// consecutive keys (long probe clusters for the backward-shift deletion);
// an entry that owns memory keeps it across the moves a growth or an erase
// makes, and lets go of it when erased.
#include "sim/inline_map.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "sim/random.h"

namespace storlab {
namespace inline_map_test {

struct Entry {
  uint64_t value = 0;
  std::unique_ptr<uint64_t> owned;  // moves with the entry
};

void Check(InlineMap<Entry>& im, const std::map<uint64_t, uint64_t>& ref, uint64_t keys) {
  ASSERT_EQ(im.size(), ref.size());
  for (uint64_t key = 0; key < keys; ++key) {
    const Entry* e = im.Find(key);
    auto it = ref.find(key);
    ASSERT_EQ(e != nullptr, it != ref.end()) << key;
    if (!e) continue;
    EXPECT_EQ(e->value, it->second) << key;
    ASSERT_TRUE(e->owned) << key;
    EXPECT_EQ(*e->owned, it->second) << key;
  }
  size_t seen = 0;
  im.ForEach([&](uint64_t key, const Entry& e) {
    EXPECT_EQ(ref.at(key), e.value);
    ++seen;
  });
  EXPECT_EQ(seen, ref.size());
}

void Put(InlineMap<Entry>& im, std::map<uint64_t, uint64_t>& ref, uint64_t key) {
  auto [e, inserted] = im.TryEmplace(key);
  EXPECT_EQ(inserted, ref.count(key) == 0) << key;
  if (inserted) {
    EXPECT_EQ(e->value, 0u) << "a new entry starts default";
    EXPECT_FALSE(e->owned) << "a new entry starts default";
  }
  e->value = key * 3 + 1;
  e->owned = std::make_unique<uint64_t>(e->value);
  ref[key] = e->value;
}

TEST(InlineMapTest, AgreesWithAMapUnderRandomInsertsAndErases) {
  InlineMap<Entry> im;
  std::map<uint64_t, uint64_t> ref;
  Random rng(7, "inline-map");
  for (int i = 0; i < 200000; ++i) {
    const uint64_t key = rng.Uniform(20000);
    if (rng.Uniform(3) == 0) {
      im.Erase(key);
      ref.erase(key);
    } else {
      Put(im, ref, key);
    }
  }
  Check(im, ref, 20000);
  im.Clear();
  ref.clear();
  Check(im, ref, 20000);
}

TEST(InlineMapTest, AgreesWithAMapUnderRunsOfConsecutiveKeys) {
  InlineMap<Entry> im;
  std::map<uint64_t, uint64_t> ref;
  Random rng(11, "inline-map-runs");
  for (int i = 0; i < 4000; ++i) {
    const uint64_t first = rng.Uniform(50000), n = 1 + rng.Uniform(40);
    const bool erase = rng.Uniform(3) == 0;
    for (uint64_t key = first; key < first + n; ++key) {
      if (erase) {
        im.Erase(key);
        ref.erase(key);
      } else {
        Put(im, ref, key);
      }
    }
  }
  Check(im, ref, 50100);
}

}  // namespace inline_map_test
}  // namespace storlab
