// ExtentAllocator (sim/layers/zfs/zfs_vdevs.h): next-fit allocation and
// coalescing frees, against a map of what is allocated.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>

#include "sim/layers/zfs/zfs_vdevs.h"

namespace storlab {
namespace {

constexpr uint64_t kSector = 4096;

TEST(ExtentAllocatorTest, FreesCoalesceWithBothNeighboursAndAnyOrderGivesAllBack) {
  ExtentAllocator a(0, 64 * kSector);
  uint64_t off[8];
  for (uint64_t& o : off) ASSERT_TRUE(a.Allocate(8 * kSector, &o));
  EXPECT_EQ(a.free_bytes(), 0u);
  uint64_t x;
  EXPECT_FALSE(a.Allocate(kSector, &x));
  a.Free(off[3], 8 * kSector);  // alone
  a.Free(off[5], 8 * kSector);  // alone
  a.Free(off[4], 8 * kSector);  // joins both: one extent of 24 sectors
  ASSERT_TRUE(a.Allocate(24 * kSector, &x));
  EXPECT_EQ(x, off[3]);
  a.Free(x, 24 * kSector);
  a.Free(off[2], 8 * kSector);  // joins the one after it
  a.Free(off[6], 8 * kSector);  // joins the one before it
  for (int i : {0, 7, 1}) a.Free(off[i], 8 * kSector);
  EXPECT_EQ(a.free_bytes(), 64 * kSector);
  ASSERT_TRUE(a.Allocate(64 * kSector, &x)) << "every free merged into one extent";
  EXPECT_EQ(x, 0u);
}

TEST(ExtentAllocatorTest, RandomAllocationsNeverOverlapAndFreesComeBackWhole) {
  const uint64_t sectors = 4096;
  ExtentAllocator a(kSector, (sectors + 1) * kSector);
  std::map<uint64_t, uint64_t> used;  // offset -> size
  uint64_t used_bytes = 0;
  std::mt19937_64 rng(7);
  for (int step = 0; step < 200000; ++step) {
    if (used.empty() || rng() % 100 < 55) {
      const uint64_t size = (1 + rng() % 32) * kSector;
      uint64_t off;
      if (!a.Allocate(size, &off)) continue;
      ASSERT_EQ(off % kSector, 0u);
      ASSERT_GE(off, kSector);
      ASSERT_LE(off + size, (sectors + 1) * kSector);
      auto next = used.lower_bound(off);
      if (next != used.end()) {
        ASSERT_LE(off + size, next->first) << "step " << step;
      }
      if (next != used.begin()) {
        auto prev = std::prev(next);
        ASSERT_LE(prev->first + prev->second, off) << "step " << step;
      }
      used[off] = size;
      used_bytes += size;
    } else {
      auto it = used.begin();
      std::advance(it, static_cast<long>(rng() % used.size()));
      a.Free(it->first, it->second);
      used_bytes -= it->second;
      used.erase(it);
    }
    ASSERT_EQ(a.free_bytes(), sectors * kSector - used_bytes) << "step " << step;
  }
  for (const auto& [off, size] : used) a.Free(off, size);
  uint64_t off;
  ASSERT_TRUE(a.Allocate(sectors * kSector, &off)) << "frees coalesced into one extent";
  EXPECT_EQ(off, kSector);
}

}  // namespace
}  // namespace storlab
