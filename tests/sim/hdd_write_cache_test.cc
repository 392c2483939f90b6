// The drive's write cache bookkeeping: coalescing, room, hits, destaging
// and discarding, with the data plane (overlay → store) checked exactly.
#include "sim/devices/hdd_write_cache.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/store/ram_store.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace hdd_write_cache_test {

using testing::Pattern;

TEST(HddWriteCacheTest, AdjacentAndOverlappingWritesCoalesce) {
  HddWriteCache c(1 << 20, 16, false);
  c.Put(0, 4096, nullptr, false);
  c.Put(8192, 4096, nullptr, false);
  EXPECT_EQ(c.extents(), 2u);
  EXPECT_EQ(c.dirty_bytes(), 8192u);
  c.Put(4096, 4096, nullptr, false);  // fills the gap: one extent
  EXPECT_EQ(c.extents(), 1u);
  EXPECT_EQ(c.dirty_bytes(), 12288u);
  c.Put(2048, 8192, nullptr, false);  // inside: nothing new
  EXPECT_EQ(c.extents(), 1u);
  EXPECT_EQ(c.dirty_bytes(), 12288u);
  EXPECT_TRUE(c.Covers(0, 12288));
  EXPECT_FALSE(c.Covers(0, 12800));
  EXPECT_FALSE(c.Covers(20480, 512));
}

TEST(HddWriteCacheTest, RoomCountsBytesExtentsAndReservations) {
  HddWriteCache c(16384, 2, false);
  EXPECT_TRUE(c.HasRoom(16384));
  EXPECT_FALSE(c.HasRoom(16385));
  c.Reserve(8192);
  EXPECT_TRUE(c.HasRoom(8192));
  EXPECT_FALSE(c.HasRoom(8704));
  c.Reserve(4096);
  EXPECT_FALSE(c.HasRoom(512));  // two writes in flight: no third extent
  c.Put(0, 8192, nullptr, false);
  c.Put(65536, 4096, nullptr, false);
  EXPECT_EQ(c.dirty_bytes(), 12288u);
  EXPECT_FALSE(c.HasRoom(512));      // two extents held
  c.Put(8192, 512, nullptr, false);  // adjacent: merges, so no new extent
  EXPECT_EQ(c.extents(), 2u);
}

TEST(HddWriteCacheTest, NearestOffersPiecesClosestToTheHeadFirst) {
  HddWriteCache c(1 << 30, 100, false);
  for (uint64_t off : {0ull, 1ull << 20, 5ull << 20, 9ull << 20}) c.Put(off, 4096, nullptr, false);
  c.Put(20ull << 20, 3 << 20, nullptr, false);  // a long extent
  std::vector<HddWriteCache::Extent> out;
  c.Nearest(6ull << 20, 3, 1 << 20, &out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].offset, 5ull << 20);
  EXPECT_EQ(out[1].offset, 9ull << 20);
  EXPECT_EQ(out[2].offset, 1ull << 20);
  c.Nearest(30ull << 20, 1, 1 << 20, &out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].offset, 20ull << 20);
  EXPECT_EQ(out[0].length, 1u << 20);  // at most max_length from its start
}

TEST(HddWriteCacheTest, DestageMovesExactlyTheRangeToTheStore) {
  RamStore store;
  HddWriteCache c(1 << 20, 16, true);
  auto a = Pattern(16384, 1);
  c.Put(0, a.size(), a.data(), false);
  ASSERT_TRUE(c.Destage(4096, 8192, store).ok());
  EXPECT_EQ(c.extents(), 2u);  // [0,4K) and [12K,16K) stay dirty
  EXPECT_EQ(c.dirty_bytes(), 8192u);
  std::vector<uint8_t> on_media(16384);
  ASSERT_TRUE(store.Read(0, on_media.size(), on_media.data()).ok());
  EXPECT_EQ(std::vector<uint8_t>(on_media.begin(), on_media.begin() + 4096),
            std::vector<uint8_t>(4096, 0));
  EXPECT_EQ(std::vector<uint8_t>(on_media.begin() + 4096, on_media.begin() + 12288),
            std::vector<uint8_t>(a.begin() + 4096, a.begin() + 12288));
  // The cache still serves the rest; patched over the store, reads are new.
  c.Patch(0, on_media.size(), on_media.data());
  EXPECT_EQ(on_media, a);
}

TEST(HddWriteCacheTest, DiscardForgetsOlderDataAndClearLosesEverything) {
  RamStore store;
  HddWriteCache c(1 << 20, 16, true);
  auto a = Pattern(8192, 2);
  c.Put(0, a.size(), a.data(), false);
  c.Discard(0, 4096);
  EXPECT_FALSE(c.Covers(0, 512));
  EXPECT_TRUE(c.Covers(4096, 4096));
  c.Clear();
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.dirty_bytes(), 0u);
  std::vector<uint8_t> buf(8192, 7);
  c.Patch(0, buf.size(), buf.data());
  EXPECT_EQ(buf, std::vector<uint8_t>(8192, 7));
  EXPECT_TRUE(c.HasRoom(1 << 20));
}

TEST(HddWriteCacheTest, DiscardSplitsTheExtentsItCutsAtEitherEnd) {
  HddWriteCache c(1 << 20, 16, false);
  c.Put(0, 4096, nullptr, false);
  c.Put(8192, 8192, nullptr, false);
  c.Put(20480, 4096, nullptr, false);
  c.Discard(2048, 20480);  // keeps [0, 2048) and [22528, 24576)
  EXPECT_EQ(c.extents(), 2u);
  EXPECT_EQ(c.dirty_bytes(), 4096u);
  EXPECT_TRUE(c.Covers(0, 2048));
  EXPECT_FALSE(c.Covers(2048, 512));
  EXPECT_FALSE(c.Covers(8192, 512));
  EXPECT_TRUE(c.Covers(22528, 2048));
  c.Discard(512, 1024);  // a hole inside one extent: two pieces
  EXPECT_EQ(c.extents(), 3u);
  EXPECT_EQ(c.dirty_bytes(), 3072u);
  EXPECT_TRUE(c.Covers(0, 512));
  EXPECT_FALSE(c.Covers(512, 512));
  EXPECT_TRUE(c.Covers(1536, 512));
  std::vector<HddWriteCache::Extent> near;
  c.Nearest(0, 8, 1 << 20, &near);
  ASSERT_EQ(near.size(), 3u);
  EXPECT_EQ(near[0].offset, 0u);
  EXPECT_EQ(near[1].offset, 1536u);
  EXPECT_EQ(near[2].offset, 22528u);
}

TEST(HddWriteCacheTest, WriteZeroesAreHeldAsZeros) {
  RamStore store;
  auto a = Pattern(4096, 3);
  ASSERT_TRUE(store.Write(0, a.size(), a.data()).ok());
  HddWriteCache c(1 << 20, 16, true);
  c.Put(0, 4096, nullptr, true);
  std::vector<uint8_t> buf(a);
  c.Patch(0, buf.size(), buf.data());
  EXPECT_EQ(buf, std::vector<uint8_t>(4096, 0));
  ASSERT_TRUE(c.Destage(0, 4096, store).ok());
  ASSERT_TRUE(store.Read(0, buf.size(), buf.data()).ok());
  EXPECT_EQ(buf, std::vector<uint8_t>(4096, 0));
}

}  // namespace hdd_write_cache_test
}  // namespace storlab
