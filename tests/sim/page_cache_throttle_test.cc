// The page cache's dirty limits at work: writers throttled to the device
// past the limits, and the fio inflation of the seeds' NAS (buffered
// random rewrites of a working set under the dirty limit) against the
// realistic figure when the working set exceeds it.
#include <gtest/gtest.h>

#include "sim/layers/page_cache/page_cache.h"
#include "tests/sim/page_cache_util.h"

namespace storlab {
namespace page_cache_throttle_test {

using namespace time_literals;
using testing::Job;
using testing::RunWriteJobs;

// A host of `mem` with the kernel's default ratios over one disk writing
// at `rate` (one request at a time).
std::string Stack(const std::string& mem, const std::string& rate, const std::string& cap) {
  return R"(
[node.pc]
type = "page_cache"
child = "disk"
mem = ")" +
         mem + R"("
cores = 4
copy_rate_per_core = "4GB/s"
memory_bandwidth = "12GB/s"

[node.disk]
type = "ram"
capacity = ")" +
         cap + R"("
bandwidth = ")" +
         rate + R"("
queue_depth = 1
)";
}

TEST(PageCacheThrottleTest, WritersRunAtMemorySpeedThenAtTheDevicesSpeed) {
  Engine e;
  auto s = testing::MustLoadText(Stack("64MiB", "100MB/s", "1GiB"), e, 1, DataMode::Kind::kNone);
  auto& pc = static_cast<PageCache&>(s.stack->root());
  const DirtyLimits l = pc.limits();
  // One sequential writer, 64 KiB at QD1.
  const uint64_t bs = 64 * 1024;
  uint64_t off = 0, fast = 0, max_dirty = 0;
  bool throttled_seen = false;
  Nanos t5;
  uint64_t bytes_at_5s = 0;
  while (e.now() < 20_s) {
    const uint64_t dirty_before = pc.dirty_bytes();
    auto r = testing::PcIo(e, pc, Op::kWrite, off % (1u << 30), bs, nullptr, 0, 1);
    ASSERT_TRUE(r.status.ok());
    off += bs;
    max_dirty = std::max(max_dirty, pc.dirty_bytes());
    if (dirty_before + bs <= l.freerun) {
      EXPECT_EQ(r.latency, TransferTime(bs, 4e9)) << "under freerun: memory speed";
      ++fast;
    } else if (r.latency > TransferTime(bs, 4e9)) {
      throttled_seen = true;
    }
    if (bytes_at_5s == 0 && e.now() >= 5_s) {
      bytes_at_5s = off;
      t5 = e.now();
    }
  }
  EXPECT_GE(fast * bs, l.freerun - bs);
  EXPECT_TRUE(throttled_seen);
  EXPECT_LE(max_dirty, l.limit + bs) << "dirty memory stays under dirty_ratio";
  const double rate = static_cast<double>(off - bytes_at_5s) / (e.now() - t5).seconds();
  EXPECT_NEAR(rate, 100e6, 5e6) << "throttled to the device's 100 MB/s";
  EXPECT_NEAR(pc.write_bandwidth(), 100e6, 5e6) << "the measured writeback bandwidth";
  EXPECT_GT(pc.counters().throttled_ns, 0u);
}

TEST(PageCacheThrottleTest, RewritesUnderTheDirtyLimitInflateFio) {
  // The seeds' test B, scaled down: 16 jobs rewriting 64 KiB blocks of
  // 8 MiB files (128 MiB, under the 154 MiB freerun of a 1 GiB host) over a
  // 117.7 MB/s link, 4 s, then end_fsync.
  Engine e;
  auto s = testing::MustLoadText(Stack("1GiB", "117.7MB/s", "4GiB"), e, 1, DataMode::Kind::kNone);
  auto& pc = static_cast<PageCache&>(s.stack->root());
  std::vector<Job> jobs;
  for (uint32_t j = 0; j < 16; ++j) jobs.push_back({j + 1, j * (64ull << 20), 8u << 20, 65536});
  auto r = RunWriteJobs(e, pc, jobs, 4_s);
  ASSERT_EQ(r.errors, 0u);
  const double headline = static_cast<double>(r.bytes) / r.elapsed.seconds();
  const PageCache::Counters& c = pc.counters();
  // Hardly any throttling: the writers copy at memory speed.
  EXPECT_EQ(c.throttled_ns, 0u);
  EXPECT_GT(headline, 20 * 117.7e6) << "inflated far beyond the link";
  // The end_fsync pushes at most the 128 MiB working set, at link speed,
  // behind the background writeback already queued at the device (up to
  // writeback_queue_depth × max_io).
  EXPECT_LE(c.fsync_written_bytes, 128u << 20);
  const uint64_t queued = pc.config().writeback_queue_depth * pc.config().max_io_bytes;
  EXPECT_LE(r.longest_fsync, TransferTime((128u << 20) + queued, 117.7e6) + 10_ms);
  // What the explanation reports: almost everything was rewritten while
  // dirty, and only what the link carried reached the disk.
  EXPECT_GT(c.rewritten_dirty_bytes, 50 * c.written_back_bytes);
  EXPECT_EQ(c.absorbed_bytes, r.bytes);
}

TEST(PageCacheThrottleTest, AWorkingSetBeyondTheLimitIsNotInflated) {
  // The seeds' test C, scaled: one job, 1 MiB random writes over a 2 GiB
  // file on a 1 GiB host (limit 205 MiB): throttled to the link.
  Engine e;
  auto s = testing::MustLoadText(Stack("1GiB", "117.7MB/s", "4GiB"), e, 1, DataMode::Kind::kNone);
  auto& pc = static_cast<PageCache&>(s.stack->root());
  auto r = RunWriteJobs(e, pc, {{1, 0, 2ull << 30, 1 << 20}}, 30_s);
  ASSERT_EQ(r.errors, 0u);
  const double headline = static_cast<double>(r.bytes) / r.elapsed.seconds();
  EXPECT_NEAR(headline, 117.7e6, 0.15 * 117.7e6);
  EXPECT_GT(pc.counters().throttled_ns, 0u);
}

}  // namespace page_cache_throttle_test
}  // namespace storlab
