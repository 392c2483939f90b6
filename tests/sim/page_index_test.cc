// PageIndex: the RAM store's two-level page index (sim/store/page_index.h).
#include "sim/store/page_index.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace storlab {
namespace {

constexpr int kSteps = 200000;

// A distinct address for each n (the index never reads through it).
uint8_t* Fake(uint64_t n) {
  static std::vector<uint8_t> pool(kSteps + 1);
  return &pool.at(n);
}

TEST(PageIndexTest, PutFindEraseAcrossLeaves) {
  PageIndex index;
  EXPECT_EQ(index.Find(0), nullptr);
  EXPECT_EQ(index.Put(5, Fake(5)), nullptr) << "a new page";
  EXPECT_EQ(index.Put(PageIndex::kLeafPages + 5, Fake(7)), nullptr) << "the next leaf";
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.Find(5), Fake(5));
  EXPECT_EQ(index.Find(6), nullptr) << "same leaf, no page";
  EXPECT_EQ(index.Find(PageIndex::kLeafPages + 5), Fake(7));
  EXPECT_EQ(index.Put(5, Fake(9)), Fake(5)) << "a page replaced gives back the old one";
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.Erase(6), nullptr) << "nothing there";
  EXPECT_EQ(index.Erase(5), Fake(9));
  EXPECT_EQ(index.Erase(5), nullptr) << "only once";
  EXPECT_EQ(index.size(), 1u);
  EXPECT_EQ(index.Find(5), nullptr);
}

TEST(PageIndexTest, AnEmptiedLeafIsFreedAndMadeAgain) {
  PageIndex index;
  for (uint64_t i = 0; i < PageIndex::kLeafPages; ++i) index.Put(i, Fake(i));
  for (uint64_t i = 0; i < PageIndex::kLeafPages; ++i) EXPECT_EQ(index.Erase(i), Fake(i));
  EXPECT_EQ(index.size(), 0u);
  int seen = 0;
  index.ForEach([&](uint64_t, const uint8_t*) { ++seen; });
  EXPECT_EQ(seen, 0) << "no leaf left behind";
  EXPECT_EQ(index.Put(3, Fake(3)), nullptr);
  EXPECT_EQ(index.Find(3), Fake(3));
}

TEST(PageIndexTest, AgreesWithAMapUnderRandomUse) {
  PageIndex index;
  std::map<uint64_t, uint8_t*> want;
  std::mt19937_64 rng(62);
  for (int step = 0; step < kSteps; ++step) {
    // Keys from a few dense regions and scattered ones far apart.
    const uint64_t idx = rng() % 4 == 0 ? rng() % (uint64_t{1} << 40) : rng() % 20000;
    if (rng() % 3 == 0) {
      auto it = want.find(idx);
      EXPECT_EQ(index.Erase(idx), it == want.end() ? nullptr : it->second);
      if (it != want.end()) want.erase(it);
    } else {
      uint8_t* bytes = Fake(static_cast<uint64_t>(step));
      auto it = want.find(idx);
      EXPECT_EQ(index.Put(idx, bytes), it == want.end() ? nullptr : it->second);
      want[idx] = bytes;
    }
  }
  EXPECT_EQ(index.size(), want.size());
  std::map<uint64_t, uint8_t*> got;
  index.ForEach([&](uint64_t i, uint8_t* bytes) { got[i] = bytes; });
  EXPECT_EQ(got, want);
  for (const auto& [i, bytes] : want) ASSERT_EQ(index.Find(i), bytes);
}

}  // namespace
}  // namespace storlab
