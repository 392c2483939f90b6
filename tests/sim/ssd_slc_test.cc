// SsdSlcCache: static and dynamic size, blocks, what they hold, and the
// cheapest block to reclaim.
#include "sim/devices/ssd_slc.h"

#include <gtest/gtest.h>

namespace storlab {
namespace ssd_slc_test {

constexpr uint64_t kKiB = 1024;

TEST(SsdSlc, DynamicPartShrinksAsTheUserSpaceFills) {
  // 870 QVO 4 TB: 6 GB static + up to 72 GB dynamic, QLC (4 bits).
  SsdSlcCache s(6'000'000'000, 72'000'000'000, 4, 8 << 20, 4'000'000'000'000);
  EXPECT_EQ(s.capacity(4'000'000'000'000), 78'000'000'000u);
  EXPECT_EQ(s.capacity(100'000'000'000), 6'000'000'000u + 25'000'000'000u);
  EXPECT_EQ(s.capacity(0), 6'000'000'000u);
  // 4 TB in at most 2^24 tracking units: 256 KiB each.
  EXPECT_EQ(s.track_bytes(), 256 * kKiB);
}

TEST(SsdSlc, TracksInFourKibUnitsUpToSixtyFourGib) {
  EXPECT_EQ(SsdSlcCache(1, 0, 3, 1, uint64_t{64} << 30).track_bytes(), 4 * kKiB);
  EXPECT_EQ(SsdSlcCache(1, 0, 3, 1, 250'000'000'000).track_bytes(), 16 * kKiB);
  EXPECT_EQ(SsdSlcCache(1, 0, 3, 1, 1'000'000'000'000).track_bytes(), 64 * kKiB);
}

TEST(SsdSlc, FillsBlockByBlockUpToItsCapacity) {
  // Two blocks of 64 KiB, programs of 32 KiB.
  SsdSlcCache s(128 * kKiB, 0, 3, 64 * kKiB, 1 << 20);
  EXPECT_FALSE(s.OpenHasRoom(32 * kKiB));
  ASSERT_TRUE(s.CanOpen(0));
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(s.OpenHasRoom(32 * kKiB) || s.CanOpen(0)) << i;
    s.Program(32 * kKiB);
    s.Write(i * 32 * kKiB, 32 * kKiB, true);
  }
  EXPECT_EQ(s.blocks_in_use(), 2u);
  EXPECT_EQ(s.used(), 128 * kKiB);
  EXPECT_EQ(s.valid_bytes(), 128 * kKiB);
  EXPECT_FALSE(s.OpenHasRoom(32 * kKiB));
  EXPECT_FALSE(s.CanOpen(0));
  EXPECT_TRUE(s.Holds(0));
  EXPECT_TRUE(s.Holds(127 * kKiB));
  EXPECT_FALSE(s.Holds(128 * kKiB));
}

TEST(SsdSlc, RewrittenAndTrimmedDataStopsBeingValidInItsBlock) {
  SsdSlcCache s(128 * kKiB, 0, 3, 64 * kKiB, 1 << 20);
  s.Program(32 * kKiB);
  s.Write(0, 32 * kKiB, true);
  s.Program(32 * kKiB);
  s.Write(32 * kKiB, 32 * kKiB, true);  // block 0 is full: 16 units valid
  s.Program(32 * kKiB);                 // opens block 1, closes block 0
  s.Write(0, 16 * kKiB, true);          // 4 units move to block 1
  s.Write(16 * kKiB, 8 * kKiB, false);  // 2 units rewritten natively
  s.Trim(40 * kKiB, 6 * kKiB);          // covers one 4 KiB unit whole
  uint32_t block = 9;
  uint64_t valid = 0;
  ASSERT_TRUE(s.Cheapest(&block, &valid));  // only block 0 is closed
  EXPECT_EQ(block, 0u);
  EXPECT_EQ(valid, (16 - 4 - 2 - 1) * 4 * kKiB);
  EXPECT_EQ(s.valid_bytes(), (16 - 4 - 2 - 1 + 4) * 4 * kKiB);
  EXPECT_FALSE(s.Holds(16 * kKiB));
  EXPECT_TRUE(s.Holds(0));

  // Reclaiming block 0 folds what it still holds and frees it for reuse.
  EXPECT_EQ(s.Reclaim(0), 9 * 4 * kKiB);
  EXPECT_FALSE(s.Holds(32 * kKiB));
  EXPECT_TRUE(s.Holds(0));  // in block 1
  EXPECT_EQ(s.used(), 32 * kKiB);
  EXPECT_EQ(s.valid_bytes(), 4 * 4 * kKiB);
  EXPECT_EQ(s.blocks_in_use(), 1u);
  EXPECT_TRUE(s.CanOpen(0));
}

TEST(SsdSlc, ATrimOfTheWholeDriveDropsEverythingItCovers) {
  // 4 KiB units, 4096 to a table chunk (16 MiB): data in chunks 0 and 3.
  SsdSlcCache s(1 << 20, 0, 3, 64 * kKiB, 1 << 30);
  s.Program(64 * kKiB);
  s.Write(0, 32 * kKiB, true);
  s.Write(48 * (1 << 20), 32 * kKiB, true);
  EXPECT_EQ(s.valid_bytes(), 64 * kKiB);
  s.Trim(4 * kKiB, (1 << 30) - 4 * kKiB);  // all but the first unit
  EXPECT_EQ(s.valid_bytes(), 4 * kKiB);
  EXPECT_TRUE(s.Holds(0));
  EXPECT_FALSE(s.Holds(4 * kKiB));
  EXPECT_FALSE(s.Holds(48 * (1 << 20)));
}

TEST(SsdSlc, TheCheapestBlockIsTheOneWithLeastValidData) {
  SsdSlcCache s(256 * kKiB, 0, 3, 64 * kKiB, 1 << 20);
  for (uint64_t b = 0; b < 3; ++b) {
    s.Program(64 * kKiB);
    s.Write(b * 64 * kKiB, 64 * kKiB, true);
  }
  s.CloseOpen();
  s.Write(64 * kKiB, 48 * kKiB, false);   // block 1 keeps 4 of 16 units
  s.Write(128 * kKiB, 16 * kKiB, false);  // block 2 keeps 12
  uint32_t block = 9;
  uint64_t valid = 0;
  ASSERT_TRUE(s.Cheapest(&block, &valid));
  EXPECT_EQ(block, 1u);
  EXPECT_EQ(valid, 16 * kKiB);
  s.Reclaim(1);
  ASSERT_TRUE(s.Cheapest(&block, &valid));
  EXPECT_EQ(block, 2u);
  EXPECT_EQ(valid, 48 * kKiB);
}

TEST(SsdSlc, UnitsWrittenInPartCountNoMoreThanTheBlockHolds) {
  // 1 TB: 64 KiB units. Eight 4 KiB writes to eight units fill 32 KiB.
  SsdSlcCache s(1 << 30, 0, 3, 32 * kKiB, 1'000'000'000'000);
  s.Program(32 * kKiB);
  for (uint64_t i = 0; i < 8; ++i) s.Write(i * 64 * kKiB, 4 * kKiB, true);
  s.CloseOpen();
  uint32_t block = 9;
  uint64_t valid = 0;
  ASSERT_TRUE(s.Cheapest(&block, &valid));
  EXPECT_EQ(valid, 32 * kKiB);
  EXPECT_EQ(s.Reclaim(block), 32 * kKiB);
}

TEST(SsdSlc, AnSlcDriveHasNoCache) {
  SsdSlcCache s(1000, 1000, 1, 100, 1 << 20);
  EXPECT_EQ(s.capacity(1 << 30), 0u);
  EXPECT_FALSE(s.CanOpen(1 << 30));
}

}  // namespace ssd_slc_test
}  // namespace storlab
