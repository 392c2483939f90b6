// The page cache in virtual time: memory-speed writes, exact dirty
// accounting, writeback, throttling, fsync per file, power cuts, direct
// I/O, reads and read-ahead.
#include "sim/layers/page_cache/page_cache.h"

#include <gtest/gtest.h>

#include "tests/sim/page_cache_util.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace page_cache_test {

using namespace time_literals;
using testing::Pattern;
using testing::PcIo;

constexpr uint64_t kPage = 4096;

// A 64 MiB host (so the limits are small), one core copying at 1 GB/s, over
// a RAM disk writing at 100 MB/s.
std::string Stack(const std::string& extra = "") {
  return R"(
[node.pc]
type = "page_cache"
child = "disk"
mem = "64MiB"
cores = 1
copy_rate_per_core = "1GB/s"
memory_bandwidth = "10GB/s"
)" + extra +
         R"(
[node.disk]
type = "ram"
capacity = "1GiB"
bandwidth = "100MB/s"
queue_depth = 1
)";
}

struct Fixture {
  explicit Fixture(const std::string& text = Stack(), DataMode::Kind kind = DataMode::Kind::kRam)
      : s(testing::MustLoadText(text, e, 1, kind)),
        pc(static_cast<PageCache&>(s.stack->root())),
        disk(*s.stack->Find("disk")) {}
  Engine e;
  LoadedStack s;
  PageCache& pc;
  Node& disk;
};

TEST(PageCacheTest, LimitsComeFromTheHost) {
  Fixture f;
  const DirtyLimits& l = f.pc.limits();
  EXPECT_EQ(l.dirtyable, 64u << 20);
  EXPECT_EQ(l.background, static_cast<uint64_t>(0.10 * (64 << 20)));
  EXPECT_EQ(l.limit, static_cast<uint64_t>(0.20 * (64 << 20)));
  EXPECT_EQ(l.freerun, (l.background + l.limit) / 2);
  EXPECT_DOUBLE_EQ(f.pc.throttle().PosRatio(l.freerun), 2.0);
}

TEST(PageCacheTest, BufferedWritesCompleteAtMemorySpeedWithExactDirtyAccounting) {
  Fixture f;
  auto buf = Pattern(64 * 1024, 1);
  // 4 MiB in 64 KiB writes stays under the background threshold (6.4 MiB).
  for (uint64_t i = 0; i < 64; ++i) {
    auto r = PcIo(f.e, f.pc, Op::kWrite, i * buf.size(), buf.size(), buf.data(), 0, 1);
    ASSERT_TRUE(r.status.ok());
    EXPECT_EQ(r.latency, TransferTime(buf.size(), 1e9)) << "write " << i;
  }
  EXPECT_EQ(f.pc.dirty_bytes(), 4u << 20);
  EXPECT_EQ(f.pc.counters().absorbed_bytes, 4u << 20);
  EXPECT_EQ(f.pc.counters().newly_dirtied_bytes, 4u << 20);
  EXPECT_EQ(f.disk.stats().op(Op::kWrite).ops, 0u) << "nothing written back yet";
}

TEST(PageCacheTest, RewritingDirtyPagesAddsNoWriteback) {
  Fixture f;
  auto buf = Pattern(10 * kPage, 2);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 0, buf.size(), buf.data(), 0, 1).status.ok());
  for (int i = 0; i < 5; ++i) {
    auto again = Pattern(5 * kPage, 3 + i);
    ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 0, again.size(), again.data(), 0, 1).status.ok());
  }
  EXPECT_EQ(f.pc.dirty_bytes(), 10 * kPage);
  EXPECT_EQ(f.pc.counters().newly_dirtied_bytes, 10 * kPage);
  EXPECT_EQ(f.pc.counters().rewritten_dirty_bytes, 25 * kPage);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kFlush, 0, 0, nullptr, 0, 1).status.ok());
  EXPECT_EQ(f.pc.dirty_bytes(), 0u);
  EXPECT_EQ(f.pc.counters().written_back_bytes, 10 * kPage);
  EXPECT_EQ(f.disk.stats().op(Op::kWrite).bytes, 10 * kPage);
  EXPECT_EQ(f.disk.stats().op(Op::kWrite).ops, 1u) << "one sorted, merged writeback request";
}

TEST(PageCacheTest, FsyncWritesBackOnlyThatFileThenFlushesTheChild) {
  Fixture f;
  auto a = Pattern(8 * kPage, 4), b = Pattern(4 * kPage, 5);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 0, a.size(), a.data(), 0, 7).status.ok());
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 1 << 20, b.size(), b.data(), 0, 8).status.ok());
  auto r = PcIo(f.e, f.pc, Op::kFlush, 0, 0, nullptr, 0, 7);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(f.disk.stats().op(Op::kWrite).bytes, 8 * kPage);
  EXPECT_EQ(f.disk.stats().op(Op::kFlush).ops, 1u);
  EXPECT_EQ(f.pc.dirty_bytes(), 4 * kPage) << "file 8 stays dirty";
  EXPECT_EQ(f.pc.counters().fsyncs, 1u);
  EXPECT_EQ(f.pc.counters().last_fsync_bytes, 8 * kPage);
  // The fsync took the writeback at 100 MB/s.
  EXPECT_GE(r.latency, TransferTime(8 * kPage, 100e6));
  // file 8's data is lost in a power cut; file 7's is not.
  f.s.stack->PowerCut();
  std::vector<uint8_t> ra(a.size()), rb(b.size());
  ASSERT_TRUE(testing::Read(f.e, f.pc, 0, ra).status.ok());
  ASSERT_TRUE(testing::Read(f.e, f.pc, 1 << 20, rb).status.ok());
  EXPECT_EQ(ra, a);
  EXPECT_EQ(rb, std::vector<uint8_t>(b.size(), 0));
}

TEST(PageCacheTest, SyncOfFileZeroSyncsEverything) {
  Fixture f;
  auto a = Pattern(2 * kPage, 6);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 0, a.size(), a.data(), 0, 1).status.ok());
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 8 * kPage, a.size(), a.data(), 0, 2).status.ok());
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kFlush, 0, 0, nullptr, 0, 0).status.ok());
  EXPECT_EQ(f.pc.dirty_bytes(), 0u);
  EXPECT_EQ(f.disk.stats().op(Op::kWrite).bytes, 4 * kPage);
}

TEST(PageCacheTest, PowerCutLosesDirtyPages) {
  Fixture f;
  auto w = Pattern(16 * kPage, 7);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 0, w.size(), w.data(), 0, 1).status.ok());
  std::vector<uint8_t> r(w.size());
  ASSERT_TRUE(testing::Read(f.e, f.pc, 0, r).status.ok());
  EXPECT_EQ(r, w) << "the cache serves its dirty data";
  f.s.stack->PowerCut();
  EXPECT_EQ(f.pc.dirty_bytes(), 0u);
  ASSERT_TRUE(testing::Read(f.e, f.pc, 0, r).status.ok());
  EXPECT_EQ(r, std::vector<uint8_t>(w.size(), 0));
}

TEST(PageCacheTest, FuaWriteIsWrittenBackBeforeItCompletes) {
  Fixture f;
  auto w = Pattern(4 * kPage, 8);
  auto r = PcIo(f.e, f.pc, Op::kWrite, 0, w.size(), w.data(), kFua, 1);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(f.disk.stats().op(Op::kWrite).bytes, w.size());
  EXPECT_EQ(f.disk.stats().op(Op::kFlush).ops, 1u);
  EXPECT_EQ(f.pc.dirty_bytes(), 0u);
}

TEST(PageCacheTest, DirectIoBypassesTheCacheAndStaysCoherent) {
  Fixture f;
  auto old_data = Pattern(4 * kPage, 9), direct = Pattern(4 * kPage, 10);
  // A buffered write, then a direct read of the same range: the dirty pages
  // are written back first, so the read sees them.
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 0, old_data.size(), old_data.data(), 0, 1).status.ok());
  std::vector<uint8_t> r(old_data.size());
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kRead, 0, r.size(), r.data(), kDirect, 1).status.ok());
  EXPECT_EQ(r, old_data);
  EXPECT_EQ(f.pc.dirty_bytes(), 0u);
  // A direct write goes to the disk and drops the stale cached pages.
  const uint64_t before = f.disk.stats().op(Op::kWrite).bytes;
  auto d = PcIo(f.e, f.pc, Op::kWrite, 0, direct.size(), direct.data(), kDirect, 1);
  ASSERT_TRUE(d.status.ok());
  EXPECT_EQ(f.disk.stats().op(Op::kWrite).bytes - before, direct.size());
  EXPECT_EQ(f.pc.cached_bytes(), 0u);
  EXPECT_EQ(f.pc.counters().absorbed_bytes, old_data.size()) << "direct bytes are not absorbed";
  ASSERT_TRUE(testing::Read(f.e, f.pc, 0, r).status.ok());
  EXPECT_EQ(r, direct);
}

TEST(PageCacheTest, ReadHitsAreServedFromMemory) {
  Fixture f;
  auto w = Pattern(8 * kPage, 11);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 0, w.size(), w.data(), 0, 1).status.ok());
  std::vector<uint8_t> r(w.size());
  auto res = PcIo(f.e, f.pc, Op::kRead, 0, r.size(), r.data(), 0, 1);
  ASSERT_TRUE(res.status.ok());
  EXPECT_EQ(r, w);
  EXPECT_EQ(res.latency, TransferTime(w.size(), 1e9));
  EXPECT_EQ(f.pc.counters().read_hit_bytes, w.size());
  EXPECT_EQ(f.disk.stats().op(Op::kRead).ops, 0u);
}

TEST(PageCacheTest, SequentialReadsReadAheadAndRandomReadsDoNot) {
  Fixture f;
  // 1 MiB read sequentially in 4 KiB reads: the window ramps up to 128 KiB,
  // so the disk sees few, large reads and most reads are hits.
  for (uint64_t off = 0; off < (1 << 20); off += kPage) {
    ASSERT_TRUE(PcIo(f.e, f.pc, Op::kRead, off, kPage, nullptr, 0, 1).status.ok());
  }
  VirtualDriver(f.e).RunUntilIdle();  // the last read-ahead lands
  const OpStats& rd = f.disk.stats().op(Op::kRead);
  EXPECT_LE(rd.ops, 16u);
  EXPECT_GE(rd.bytes, 1u << 20);
  EXPECT_LE(rd.bytes, (1u << 20) + 2 * 128 * 1024) << "read-ahead stays one window ahead";
  EXPECT_GT(f.pc.counters().read_hit_bytes, f.pc.counters().read_miss_bytes * 4);

  // Random 4 KiB reads in another file: after the first, no read-ahead.
  Random rng(3);
  const uint64_t before = rd.bytes;
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kRead, 512 << 20, kPage, nullptr, 0, 2).status.ok());
  const uint64_t after_first = rd.bytes;
  for (int i = 0; i < 100; ++i) {
    uint64_t off = (256 + rng.Uniform(256 << 8)) * kPage;
    ASSERT_TRUE(PcIo(f.e, f.pc, Op::kRead, off, kPage, nullptr, 0, 2).status.ok());
  }
  EXPECT_GT(after_first - before, kPage) << "a stream's first read starts a window";
  EXPECT_LE(rd.bytes - after_first, 100 * kPage);
}

TEST(PageCacheTest, PartialPageWriteReadsThePageFirst) {
  Fixture f;
  auto page = Pattern(kPage, 12);
  ASSERT_TRUE(testing::DoIo(f.e, f.disk, Op::kWrite, 0, kPage, page.data()).status.ok());
  auto part = Pattern(512, 13);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 1024, 512, part.data(), 0, 1).status.ok());
  EXPECT_EQ(f.disk.stats().op(Op::kRead).bytes, kPage);
  std::copy(part.begin(), part.end(), page.begin() + 1024);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kFlush, 0, 0, nullptr, 0, 1).status.ok());
  std::vector<uint8_t> on_disk(kPage);
  ASSERT_TRUE(testing::DoIo(f.e, f.disk, Op::kRead, 0, kPage, on_disk.data()).status.ok());
  EXPECT_EQ(on_disk, page);
}

TEST(PageCacheTest, ExpiredPagesAreWrittenBackByThePeriodicFlusher) {
  Fixture f;
  auto w = Pattern(4 * kPage, 14);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 0, w.size(), w.data(), 0, 1).status.ok());
  // Dirtied just after t=0: not expired at the 30 s tick, written at 35 s.
  VirtualDriver(f.e).RunUntil(Nanos(30'000'000'000) + Nanos(1));
  EXPECT_EQ(f.pc.counters().written_back_bytes, 0u);
  VirtualDriver(f.e).RunUntil(Nanos(35'100'000'000));
  EXPECT_EQ(f.pc.counters().written_back_bytes, w.size());
  EXPECT_EQ(f.pc.dirty_bytes(), 0u);
  VirtualDriver(f.e).RunUntilIdle();  // and then nothing is left to schedule
  EXPECT_TRUE(f.e.empty());
}

TEST(PageCacheTest, TheCacheIsBoundedByHostMemory) {
  Fixture f;
  // Read 96 MiB through a 64 MiB host: clean pages are evicted.
  for (uint64_t off = 0; off < (96u << 20); off += 1 << 20) {
    ASSERT_TRUE(PcIo(f.e, f.pc, Op::kRead, off, 1 << 20, nullptr, 0, 1).status.ok());
  }
  EXPECT_LE(f.pc.cached_bytes(), 64u << 20);
  EXPECT_GE(f.pc.counters().evicted_bytes, 32u << 20);
}

TEST(PageCacheTest, TimingOnlyRunsKeepNoData) {
  Fixture f(Stack(), DataMode::Kind::kNone);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kWrite, 0, 1 << 20, nullptr, 0, 1).status.ok());
  EXPECT_EQ(f.pc.dirty_bytes(), 1u << 20);
  ASSERT_TRUE(PcIo(f.e, f.pc, Op::kFlush, 0, 0, nullptr, 0, 1).status.ok());
  EXPECT_EQ(f.disk.stats().op(Op::kWrite).bytes, 1u << 20);
}

TEST(PageCacheTest, BadKeysAreErrors) {
  Engine e;
  BuildOptions o;
  auto r = LoadStackText(Stack("dirty_ratoi = 0.3\n"), "pc.toml", ".", e, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("dirty_ratoi"), std::string::npos) << r.status().ToString();
  r = LoadStackText(Stack("used_mem = \"128MiB\"\n"), "pc.toml", ".", e, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("used_mem"), std::string::npos) << r.status().ToString();
}

}  // namespace page_cache_test
}  // namespace storlab
