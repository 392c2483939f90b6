#include <gtest/gtest.h>

#include <vector>

#include "workloads/fio/offset_gen.h"

namespace storlab::fio {
namespace fio_offset_gen_test {

// With the random map (fio's default) and with lfsr, a pass visits every
// block exactly once; then the pass is over.
void ExpectEachBlockOncePerPass(RandGen gen, bool map, uint64_t blocks) {
  RandomPicker p(blocks, gen, map, 42);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> seen(blocks, 0);
    uint64_t b;
    for (uint64_t i = 0; i < blocks; ++i) {
      ASSERT_TRUE(p.Next(&b));
      ASSERT_LT(b, blocks);
      ++seen[b];
    }
    EXPECT_FALSE(p.Next(&b));
    for (uint64_t i = 0; i < blocks; ++i) ASSERT_EQ(seen[i], 1) << "block " << i;
    p.Restart();
  }
}

TEST(OffsetGenTest, RandomMapCoversEveryBlockOnce) {
  ExpectEachBlockOncePerPass(RandGen::kTausworthe, true, 1000);
  ExpectEachBlockOncePerPass(RandGen::kTausworthe, true, 4096 + 3);
  ExpectEachBlockOncePerPass(RandGen::kTausworthe64, true, 777);
}

TEST(OffsetGenTest, LfsrIsAPermutationWithoutAMap) {
  ExpectEachBlockOncePerPass(RandGen::kLfsr, false, 1);
  ExpectEachBlockOncePerPass(RandGen::kLfsr, false, 1000);
  ExpectEachBlockOncePerPass(RandGen::kLfsr, true, 65536);
}

TEST(OffsetGenTest, NorandommapRepeatsBlocksAndNeverEndsAPass) {
  RandomPicker p(1000, RandGen::kTausworthe, false, 1);
  std::vector<int> seen(1000, 0);
  uint64_t b;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(p.Next(&b));
    ++seen[b];
  }
  int unused = 0;
  for (int s : seen) unused += s == 0;
  // Independent draws leave about 1/e of the blocks untouched.
  EXPECT_GT(unused, 300);
  EXPECT_LT(unused, 440);
}

TEST(OffsetGenTest, SequencesRepeatForASeedAndDifferAcrossSeeds) {
  RandomPicker a(1 << 20, RandGen::kTausworthe, true, 5), b(1 << 20, RandGen::kTausworthe, true, 5),
      c(1 << 20, RandGen::kTausworthe, true, 6);
  int same_c = 0;
  for (int i = 0; i < 100; ++i) {
    uint64_t x, y, z;
    a.Next(&x);
    b.Next(&y);
    c.Next(&z);
    EXPECT_EQ(x, y);
    same_c += x == z;
  }
  EXPECT_LT(same_c, 3);
}

TEST(OffsetGenTest, RandomMapNextFreeWraps) {
  RandomMap m(130);
  for (uint64_t i = 0; i < 130; ++i) {
    if (i != 5) m.Set(i);
  }
  EXPECT_EQ(m.NextFree(100), 5u);
  EXPECT_EQ(m.NextFree(0), 5u);
  m.Set(5);
  EXPECT_TRUE(m.full());
}

}  // namespace fio_offset_gen_test
}  // namespace storlab::fio
