// ssd::SlcCache: static and dynamic size, filling, folding, read share.
#include "sim/devices/ssd_slc.h"

#include <gtest/gtest.h>

namespace storlab::ssd {
namespace {

TEST(SsdSlc, DynamicPartShrinksAsTheUserSpaceFills) {
  // 870 QVO 4 TB: 6 GB static + up to 72 GB dynamic, QLC (4 bits).
  SlcCache s(6'000'000'000, 72'000'000'000, 4);
  EXPECT_EQ(s.capacity(4'000'000'000'000), 78'000'000'000u);
  EXPECT_EQ(s.capacity(100'000'000'000), 6'000'000'000u + 25'000'000'000u);
  EXPECT_EQ(s.capacity(0), 6'000'000'000u);
}

TEST(SsdSlc, FillsFoldsAndReportsTheShareOfDataInIt) {
  SlcCache s(1000, 0, 3);
  EXPECT_TRUE(s.Fits(1000, 0));
  s.Add(600);
  EXPECT_FALSE(s.Fits(500, 0));
  EXPECT_DOUBLE_EQ(s.ReadShare(1200), 0.5);
  EXPECT_DOUBLE_EQ(s.ReadShare(100), 1.0);
  EXPECT_EQ(s.Fold(400), 400u);
  EXPECT_EQ(s.Fold(400), 200u);
  EXPECT_EQ(s.used(), 0u);
  EXPECT_DOUBLE_EQ(s.ReadShare(1200), 0.0);
}

TEST(SsdSlc, AnSlcDriveHasNoCache) {
  SlcCache s(1000, 1000, 1);
  EXPECT_EQ(s.capacity(1 << 30), 0u);
  EXPECT_FALSE(s.Fits(1, 1 << 30));
}

}  // namespace
}  // namespace storlab::ssd
