// The HDD model's write cache seen through the device: writes acknowledged
// at interface speed, read hits, FLUSH and FUA, power cut, write-through,
// a full cache, write-zeroes. Virtual time; exact where the model is exact.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sim/devices/hdd.h"
#include "tests/sim/hdd_test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace hdd_drive_cache_test {

using namespace time_literals;
using testing::DoIo;
using testing::Drive;
using testing::Pattern;
using testing::Stat;
using testing::Submit;

Hdd& AsHdd(const LoadedStack& s) { return dynamic_cast<Hdd&>(s.stack->root()); }

std::vector<uint8_t> OnMedia(Hdd& h, uint64_t off, uint64_t len) {
  std::vector<uint8_t> buf(len);
  EXPECT_TRUE(h.store().Read(off, len, buf.data()).ok());
  return buf;
}

TEST(HddTest, CachedWritesAreAcknowledgedAtInterfaceSpeed) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  auto w = Pattern(4096, 1);
  auto r = testing::Write(e, h, 1 << 20, w);
  ASSERT_TRUE(r.status.ok());
  // hit_overhead + 4 KiB at 600 MB/s, exactly.
  EXPECT_EQ(r.latency, 30_us + TransferTime(4096, 600e6));
  EXPECT_TRUE(h.write_cache().Covers(1 << 20, 4096));
  EXPECT_NE(OnMedia(h, 1 << 20, 4096), w);  // not on the platters yet
  // A read of it hits the cache.
  std::vector<uint8_t> back(4096);
  auto rd = testing::Read(e, h, 1 << 20, back);
  EXPECT_EQ(back, w);
  EXPECT_EQ(rd.latency, 30_us + TransferTime(4096, 600e6));
  EXPECT_EQ(Stat(h, "cache_read_hits"), 1);
  // Left idle, the drive destages it.
  VirtualDriver(e).RunUntilIdle();
  EXPECT_TRUE(h.write_cache().empty());
  EXPECT_EQ(OnMedia(h, 1 << 20, 4096), w);
}

TEST(HddTest, FlushCompletesOnlyWhenEverythingBeforeItIsOnMedia) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  Random rng(9);
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> written;
  for (int i = 0; i < 64; ++i) {
    written.emplace_back(rng.Uniform(1'000'000) * 4096, Pattern(4096, 100 + i));
    ASSERT_TRUE(testing::Write(e, h, written.back().first, written.back().second).status.ok());
  }
  ASSERT_FALSE(h.write_cache().empty());
  auto f = testing::Flush(e, h);
  ASSERT_TRUE(f.status.ok());
  EXPECT_TRUE(h.write_cache().empty());
  EXPECT_GT(f.latency, 10_ms);  // dozens of mechanical writes
  for (auto& [off, w] : written) EXPECT_EQ(OnMedia(h, off, 4096), w) << off;
  EXPECT_EQ(Stat(h, "flushes"), 1);
}

TEST(HddTest, FlushIsNotQueued) {
  // It waits for the commands before it and holds back those after it.
  Engine e;
  auto s = Drive(e);
  Node& n = s.stack->root();
  std::vector<int> order;
  std::vector<uint8_t> a(4096), b = Pattern(4096, 1), c = Pattern(4096, 2);
  Submit(n, Op::kWrite, 0, 4096, b.data(), &order, 1);
  Submit(n, Op::kRead, uint64_t{8} << 40, 4096, a.data(), &order, 2);  // a slow media read
  Submit(n, Op::kFlush, 0, 0, nullptr, &order, 3);
  Submit(n, Op::kWrite, 4096, 4096, c.data(), &order, 4);  // a fast cached write
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4}));
}

TEST(HddTest, FuaWritesGoToMediaBeforeTheyComplete) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  auto old_data = Pattern(8192, 1), fua = Pattern(8192, 2);
  ASSERT_TRUE(testing::Write(e, h, 1 << 30, old_data).status.ok());  // cached
  auto r = testing::Write(e, h, 1 << 30, fua, kFua);
  ASSERT_TRUE(r.status.ok());
  EXPECT_GT(r.latency, 1_ms);  // a mechanical access
  EXPECT_EQ(OnMedia(h, 1 << 30, 8192), fua);
  EXPECT_FALSE(h.write_cache().Covers(1 << 30, 512));
  // The older cached data is never destaged over it.
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(OnMedia(h, 1 << 30, 8192), fua);
}

TEST(HddTest, PowerCutLosesExactlyTheWritesNotYetOnMedia) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  Random rng(11);
  const uint64_t blocks = 2'000'000;
  // Flushed generation: durable.
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> flushed;
  for (int i = 0; i < 32; ++i) {
    flushed.emplace_back(rng.Uniform(blocks) * 4096, Pattern(4096, 1000 + i));
    ASSERT_TRUE(testing::Write(e, h, flushed.back().first, flushed.back().second).status.ok());
  }
  ASSERT_TRUE(testing::Flush(e, h).status.ok());
  // Unflushed: new blocks, and new versions of half the flushed ones.
  struct W {
    uint64_t off;
    std::vector<uint8_t> before, after;
  };
  std::vector<W> later;
  for (int i = 0; i < 48; ++i) {
    W w;
    w.off = i % 3 == 0 ? flushed[i / 3].first : rng.Uniform(blocks) * 4096;
    w.before = i % 3 == 0 ? flushed[i / 3].second : std::vector<uint8_t>(4096, 0);
    w.after = Pattern(4096, 2000 + i);
    later.push_back(w);
    ASSERT_TRUE(testing::Write(e, h, w.off, w.after).status.ok());
  }
  // Let the destager get part of the way.
  VirtualDriver(e).RunUntil(e.now() + 40_ms);
  std::vector<bool> still_cached;
  int lost = 0;
  for (auto& w : later) {
    still_cached.push_back(h.write_cache().Covers(w.off, 4096));
    lost += still_cached.back() ? 1 : 0;
  }
  ASSERT_GT(lost, 0);
  ASSERT_LT(lost, 48);
  s.stack->PowerCut();
  EXPECT_TRUE(h.write_cache().empty());
  for (size_t i = 0; i < later.size(); ++i) {
    std::vector<uint8_t> r(4096);
    ASSERT_TRUE(testing::Read(e, h, later[i].off, r).status.ok());
    EXPECT_EQ(r, still_cached[i] ? later[i].before : later[i].after) << i;
  }
  for (size_t i = 0; i < flushed.size(); ++i) {
    if (i < 16) continue;  // rewritten above
    std::vector<uint8_t> r(4096);
    ASSERT_TRUE(testing::Read(e, h, flushed[i].first, r).status.ok());
    EXPECT_EQ(r, flushed[i].second) << i;
  }
}

TEST(HddTest, WriteThroughWhenTheCacheIsOff) {
  Engine e;
  auto s = Drive(e, "write_cache = false");
  Hdd& h = AsHdd(s);
  EXPECT_FALSE(h.caps().volatile_cache);
  auto w = Pattern(4096, 4);
  auto r = testing::Write(e, h, 123 * 4096, w);
  EXPECT_GT(r.latency, 1_ms);
  EXPECT_EQ(OnMedia(h, 123 * 4096, 4096), w);
  s.stack->PowerCut();
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(testing::Read(e, h, 123 * 4096, back).status.ok());
  EXPECT_EQ(back, w);
}

TEST(HddTest, AFullCacheHoldsWritesUntilDestagingMakesRoom) {
  Engine e;
  auto s = Drive(e, "cache_size = \"64KiB\"", DataMode::Kind::kNone);
  Hdd& h = AsHdd(s);
  ProbeSpec p;
  p.op = Op::kWrite;
  p.queue_depth = 8;
  p.duration = 2_s;
  auto r = RunProbe(e, h, p);
  EXPECT_GT(Stat(h, "blocked_writes"), 100);
  EXPECT_LE(h.write_cache().dirty_bytes(), 64u << 10);
  // Limited by destaging: a few hundred IOPS, not interface speed.
  EXPECT_LT(r.iops, 1000);
  EXPECT_GT(Stat(h, "destaged_bytes"), 100 * 4096);
}

TEST(HddTest, WriteZeroesGoThroughTheCacheToo) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  auto w = Pattern(8192, 5);
  ASSERT_TRUE(testing::Write(e, h, 0, w, kFua).status.ok());
  ASSERT_TRUE(DoIo(e, h, Op::kWriteZeroes, 0, 8192, nullptr).status.ok());
  std::vector<uint8_t> r(8192, 1);
  ASSERT_TRUE(testing::Read(e, h, 0, r).status.ok());
  EXPECT_EQ(r, std::vector<uint8_t>(8192, 0));
  ASSERT_TRUE(testing::Flush(e, h).status.ok());
  EXPECT_EQ(OnMedia(h, 0, 8192), std::vector<uint8_t>(8192, 0));
}

}  // namespace hdd_drive_cache_test
}  // namespace storlab
