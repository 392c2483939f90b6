// The cache layer's modes in virtual time: write-through, write-around and
// write-back timing and placement, destaging, dirty limits, FLUSH and FUA.
#include <gtest/gtest.h>

#include "tests/sim/cache_test_util.h"

namespace storlab {
namespace cache_modes_test {

using namespace time_literals;
using testing::MustLoadText;
using testing::Pattern;

std::string TwoDevices(const std::string& keys) { return testing::CacheOnDevice(keys); }

std::string InRam(const std::string& cache_keys) {
  return R"(
[node.cache]
type = "cache"
child = "hdd"
ram_latency = "1us"
ram_bandwidth = "4GB/s"
)" + cache_keys +
         R"(
[node.hdd]
type = "ram"
capacity = "256MiB"
latency = "4ms"
queue_depth = 1
)";
}

CacheCore& Core(LoadedStack& s) { return testing::CoreOf(s); }

TEST(CacheModes, WriteThroughCompletesWhenBothAreWritten) {
  Engine e;
  auto s = MustLoadText(
      TwoDevices("mode = \"writethrough\"\npolicy = \"lru\"\nblock_size = \"4KiB\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 1);
  auto r = testing::Write(e, n, 8192, w);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.latency, 4_ms);           // the slower of the two, written in parallel
  EXPECT_TRUE(Core(s).IsCached(8192));  // a whole block: promoted without a copy
  EXPECT_EQ(Core(s).dirty_bytes(), 0u);
  std::vector<uint8_t> back(4096);
  auto rd = testing::Read(e, n, 8192, back);
  EXPECT_EQ(rd.latency, 50_us);  // a hit
  EXPECT_EQ(back, w);
  // Both copies hold the data.
  Node& hdd = *s.stack->Find("hdd");
  std::vector<uint8_t> origin(4096);
  ASSERT_TRUE(testing::Read(e, hdd, 8192, origin).status.ok());
  EXPECT_EQ(origin, w);
}

// A read miss's origin bytes land in the reader's buffer when the range
// lies in it, else in a buffer of the read's own (a promoted block reaching
// past the request); either way the reader and the promoted copy get the
// origin's bytes, also when a read is part hit, part miss.
TEST(CacheModes, ReadMissesGiveTheReaderAndThePromotedCopyTheOriginsBytes) {
  Engine e;
  auto s = MustLoadText(
      TwoDevices("mode = \"writearound\"\npolicy = \"lru\"\nblock_size = \"64KiB\""), e);
  Node& n = s.stack->root();
  Node& hdd = *s.stack->Find("hdd");
  const auto data = Pattern(512 * 1024, 7);
  auto copy = data;
  ASSERT_TRUE(testing::Write(e, hdd, 0, copy).status.ok());
  auto expect = [&](uint64_t off, uint64_t len) {
    return std::vector<uint8_t>(data.begin() + static_cast<std::ptrdiff_t>(off),
                                data.begin() + static_cast<std::ptrdiff_t>(off + len));
  };
  auto read = [&](uint64_t off, uint64_t len) {
    std::vector<uint8_t> got(len);
    EXPECT_TRUE(testing::Read(e, n, off, got).status.ok());
    VirtualDriver(e).RunUntilIdle();
    return got;
  };
  // Inside block 0: the promotion reads the whole block into its own buffer.
  EXPECT_EQ(read(4096, 8192), expect(4096, 8192));
  // Blocks 1 and 2 whole: read straight into the reader's buffer.
  EXPECT_EQ(read(65536, 131072), expect(65536, 131072));
  // Blocks 0-3, the first three cached: a part from the cache, a part read.
  EXPECT_EQ(read(0, 262144), expect(0, 262144));
  for (uint64_t b = 0; b < 4; ++b) EXPECT_TRUE(Core(s).IsCached(b * 65536)) << b;
  // The cached copies are the origin's bytes: corrupt the origin, read hits.
  auto zeros = std::vector<uint8_t>(262144, 0);
  ASSERT_TRUE(testing::Write(e, hdd, 0, zeros).status.ok());
  EXPECT_EQ(read(0, 262144), expect(0, 262144));
  EXPECT_EQ(read(32768, 100000 - 100000 % 512), expect(32768, 100000 - 100000 % 512));
}

TEST(CacheModes, WriteAroundDoesNotPromoteOnWriteAndDropsTheCachedCopy) {
  Engine e;
  auto s = MustLoadText(
      TwoDevices("mode = \"writearound\"\npolicy = \"lru\"\nblock_size = \"4KiB\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 2);
  EXPECT_EQ(testing::Write(e, n, 0, w).latency, 4_ms);
  EXPECT_FALSE(Core(s).IsCached(0));
  std::vector<uint8_t> back(4096);
  EXPECT_EQ(testing::Read(e, n, 0, back).latency,
            4_ms);  // a miss, promoted (LRU)
  EXPECT_EQ(back, w);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_TRUE(Core(s).IsCached(0));
  EXPECT_EQ(testing::Read(e, n, 0, back).latency, 50_us);
  // A write drops the clean cached copy; the next read misses again.
  auto w2 = Pattern(4096, 3);
  EXPECT_EQ(testing::Write(e, n, 0, w2).latency, 4_ms);
  EXPECT_FALSE(Core(s).IsCached(0));
  EXPECT_EQ(testing::Read(e, n, 0, back).latency, 4_ms);
  EXPECT_EQ(back, w2);
  EXPECT_EQ(Core(s).counters().invalidations, 1u);
}

TEST(CacheModes, WriteBackCompletesInTheCacheAndDestagesWhenExpired) {
  Engine e;
  auto s = MustLoadText(InRam("size = \"4MiB\"\ndirty_expire = \"5s\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 4);
  auto r = testing::Write(e, n, 4096, w);
  EXPECT_EQ(r.latency, 1_us + TransferTime(4096, 4e9));
  EXPECT_EQ(Core(s).dirty_bytes(), 4096u);
  const Nanos written = e.now();
  // Below the background threshold nothing moves until the data expires.
  VirtualDriver(e).RunUntil(written + 4_s);
  EXPECT_EQ(Core(s).dirty_bytes(), 4096u);
  EXPECT_EQ(Core(s).counters().destaged_bytes, 0u);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(Core(s).dirty_bytes(), 0u);
  EXPECT_EQ(Core(s).counters().destaged_bytes, 4096u);
  // Expiry at 5 s, then a memory read and the 4 ms origin write.
  EXPECT_GE(e.now(), written + 5_s + 4_ms);
  EXPECT_LT(e.now(), written + 5_s + 5_ms);
  std::vector<uint8_t> origin(4096);
  ASSERT_TRUE(testing::Read(e, *s.stack->Find("hdd"), 4096, origin).status.ok());
  EXPECT_EQ(origin, w);
  EXPECT_TRUE(Core(s).IsCached(4096));  // still cached, now clean
}

TEST(CacheModes, WriteBackDestagesAboveTheBackgroundThresholdAtOnce) {
  Engine e;
  // 1 MiB of cache: the background threshold (10 %) is 104857 bytes.
  auto s = MustLoadText(InRam("size = \"1MiB\"\ndirty_expire = \"0s\"\ndirty_limit = \"90%\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 5);
  for (int i = 0; i < 25; ++i) ASSERT_TRUE(testing::Write(e, n, i * 4096, w).status.ok());
  EXPECT_EQ(Core(s).dirty_bytes(), 25u * 4096);  // 100 KiB: below
  EXPECT_EQ(Core(s).counters().destage_ops, 0u);
  for (int i = 25; i < 40; ++i) ASSERT_TRUE(testing::Write(e, n, i * 4096, w).status.ok());
  EXPECT_GT(Core(s).counters().destage_ops, 0u);  // started while the writes ran
  VirtualDriver(e).RunUntilIdle();
  // Destaging stops at the threshold (no expiry): 25 blocks stay dirty.
  EXPECT_LE(Core(s).dirty_bytes(), 104857u);
  EXPECT_GT(Core(s).dirty_bytes(), 104857u - 4096);
}

TEST(CacheModes, DirtyLimitThrottlesWriters) {
  Engine e;
  auto s = MustLoadText(InRam("size = \"1MiB\""),
                        e);  // dirty_limit 20 %: 209715 bytes
  Node& n = s.stack->root();
  auto w = Pattern(4096, 6);
  // Scattered blocks: each destage is one 4 ms origin write.
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(testing::Write(e, n, i * 7 * 4096, w).status.ok());
  const auto& c = Core(s).counters();
  EXPECT_GT(c.throttled_writes, 0u);
  double max_dirty = 0;
  for (auto& [t, v] : Core(s).dirty_series().points()) max_dirty = std::max(max_dirty, v);
  EXPECT_LE(max_dirty, 209715.0);
  EXPECT_LE(Core(s).dirty_bytes(), 209715u);
  // Once the limit is reached (51 blocks), writers are held to the origin's
  // pace: one 4 ms write (queue depth 1) per block.
  EXPECT_GE(e.now(), 4_ms * 45);
  EXPECT_LE(e.now(), 4_ms * 50);
}

TEST(CacheModes, OverTheLimitWritesCanBypassInstead) {
  Engine e;
  auto s = MustLoadText(InRam("size = \"1MiB\"\nover_limit = \"writethrough\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 7);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(testing::Write(e, n, i * 4096, w).status.ok());
  EXPECT_EQ(Core(s).counters().throttled_writes, 0u);
  EXPECT_LE(Core(s).dirty_bytes(), 209715u);
}

TEST(CacheModes, FlushInRamDestagesWhatWasWrittenBeforeIt) {
  Engine e;
  auto s = MustLoadText(InRam("size = \"4MiB\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(8 * 4096, 8);
  ASSERT_TRUE(testing::Write(e, n, 0, w).status.ok());
  EXPECT_EQ(Core(s).dirty_bytes(), w.size());
  auto f = testing::Flush(e, n);
  ASSERT_TRUE(f.status.ok());
  EXPECT_EQ(Core(s).dirty_bytes(), 0u);
  // One merged 32 KiB destage write (4 ms), then the origin's flush (4 ms).
  EXPECT_GE(f.latency, 8_ms);
  EXPECT_LT(f.latency, 8_ms + 20_us);
  EXPECT_EQ(Core(s).counters().destage_ops, 1u);
}

TEST(CacheModes, FlushOnACacheDeviceCommitsInsteadOfDestaging) {
  Engine e;
  auto s =
      MustLoadText(TwoDevices("mode = \"writeback\"\npolicy = \"lru\"\nblock_size = \"4KiB\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 9);
  EXPECT_EQ(testing::Write(e, n, 0, w).latency, 50_us);
  EXPECT_EQ(Core(s).dirty_bytes(), 4096u);
  auto f = testing::Flush(e, n);
  ASSERT_TRUE(f.status.ok());
  EXPECT_EQ(Core(s).dirty_bytes(), 4096u);  // durable on the cache device
  EXPECT_EQ(Core(s).counters().commits, 1u);
  // Flush both devices (4 ms for the origin), then the metadata write (50 us).
  EXPECT_EQ(f.latency, 4_ms + 50_us);
}

TEST(CacheModes, FuaWritesGoThroughToTheOrigin) {
  Engine e;
  auto s = MustLoadText(InRam("size = \"4MiB\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 10);
  auto r = testing::Write(e, n, 0, w, kFua);
  EXPECT_EQ(r.latency, 4_ms);
  EXPECT_EQ(Core(s).dirty_bytes(), 0u);
  s.stack->PowerCut();
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(testing::Read(e, n, 0, back).status.ok());
  EXPECT_EQ(back, w);
}

TEST(CacheModes, WriteZeroesDropsCachedData) {
  Engine e;
  auto s = MustLoadText(InRam("size = \"4MiB\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(16384, 11);
  ASSERT_TRUE(testing::Write(e, n, 0, w).status.ok());
  ASSERT_TRUE(testing::DoIo(e, n, Op::kWriteZeroes, 4096, 8192, nullptr).status.ok());
  EXPECT_EQ(Core(s).dirty_bytes(), 8192u);
  std::vector<uint8_t> back(16384);
  ASSERT_TRUE(testing::Read(e, n, 0, back).status.ok());
  std::vector<uint8_t> want = w;
  std::fill(want.begin() + 4096, want.begin() + 12288, 0);
  EXPECT_EQ(back, want);
}

}  // namespace cache_modes_test
}  // namespace storlab
