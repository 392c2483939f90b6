// smq's learning curves, in virtual time: an empty and a full (prefilled)
// lvmcache-like cache under repeated random reads over a hot set and under
// sequential passes, at queue depth 1 and 32. Each pass is one line of
// figures: its hit rate, the promotion jobs queued, the promotions that
// completed, the demotions, the ticks, and the hotspots at or above the
// read promote level at its end. docs/sim.md ("smq's learning curve")
// explains the shapes.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "sim/layers/cache/cache_smq.h"
#include "sim/virtual_driver.h"
#include "tests/sim/cache_test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace cache_smq_learning_test {

using testing::CoreOf;
using testing::MustLoadText;

// 191 cache blocks of 64 KiB (12 MiB after the metadata) over a 1 GiB
// origin: 1024 hotspots of 16 blocks (1 MiB) each.
std::string Stack(const std::string& extra = "") {
  return testing::CacheOnDevice("policy = \"smq\"\n" + extra, "1GiB");
}

struct PassSpec {
  uint64_t offset = 0, span = 4 << 20;  // the hot set: 64 blocks, 4 hotspots
  uint64_t ios = 400;
  uint32_t qd = 1;
  bool random = true;
  uint64_t block = 4096;
};

// One sequential pass of 64 KiB reads over 64 MiB (64 hotspots, 1024 reads).
PassSpec SequentialPass(uint32_t qd) {
  PassSpec p;
  p.random = false;
  p.span = 64 << 20;
  p.block = 64 << 10;
  p.ios = 1024;
  p.qd = qd;
  return p;
}

// Runs `passes` passes and returns one line per pass.
std::string Curve(Engine& e, LoadedStack& s, PassSpec spec, int passes, uint64_t seed) {
  std::string out;
  auto& policy = static_cast<const SmqPolicy&>(CoreOf(s).policy());
  for (int i = 0; i < passes; ++i) {
    const CacheCounters a = CoreOf(s).counters();
    const uint64_t ticks = policy.ticks();
    ProbeSpec p;
    p.op = Op::kRead;
    p.block_size = spec.block;
    p.queue_depth = spec.qd;
    p.random = spec.random;
    p.offset = spec.offset;
    p.span = spec.span;
    p.max_ios = spec.ios;
    p.duration = Nanos(3'600'000'000'000);
    p.seed = seed + static_cast<uint64_t>(i);
    const ProbeResult r = RunProbe(e, s.stack->root(), p);
    EXPECT_TRUE(r.status.ok()) << r.status.message();
    const CacheCounters b = CoreOf(s).counters();
    const double hits = static_cast<double>(b.read_hits - a.read_hits);
    const double misses = static_cast<double>(b.read_misses - a.read_misses);
    char line[200];
    std::snprintf(line, sizeof line,
                  "hits %.3f queued %llu promoted %llu demoted %llu ticks %llu promotable %llu\n",
                  hits / (hits + misses),
                  static_cast<unsigned long long>(b.promotions_queued - a.promotions_queued),
                  static_cast<unsigned long long>(b.promotions - a.promotions),
                  static_cast<unsigned long long>(b.demotions - a.demotions),
                  static_cast<unsigned long long>(policy.ticks() - ticks),
                  static_cast<unsigned long long>(policy.hotspots_promotable()));
    out += line;
  }
  return out;
}

// 400 random 4 KiB reads per pass over a 4 MiB hot set at QD1: every read
// is a tick bio, so the promote level is set after the first read (48: the
// fresh hotspot queue predicts poorly), and the first redistribution puts
// the few hotspots in use into the sparse top levels (56..63): from then on
// every miss queues a promotion. 63 of the 64 blocks are promoted in the
// first pass, the last one early in the second; nothing is demoted.
TEST(SmqLearning, EmptyCacheRandomHotSetQd1) {
  Engine e;
  auto s = MustLoadText(Stack(), e);
  EXPECT_EQ(Curve(e, s, PassSpec{}, 4, 10),
            "hits 0.825 queued 63 promoted 63 demoted 0 ticks 400 promotable 4\n"
            "hits 0.995 queued 1 promoted 1 demoted 0 ticks 400 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 400 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 400 promotable 4\n");
}

// The same at QD32 (4000 reads a pass): a tick per round trip, not per
// read; the 64 blocks are queued as background copies within the first
// round trips, and the misses before the copies end cost the first pass
// its 6.4 %.
TEST(SmqLearning, EmptyCacheRandomHotSetQd32) {
  Engine e;
  auto s = MustLoadText(Stack(), e);
  PassSpec p;
  p.qd = 32;
  p.ios = 4000;
  EXPECT_EQ(Curve(e, s, p, 4, 10),
            "hits 0.936 queued 64 promoted 64 demoted 0 ticks 122 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 125 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 125 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 125 promotable 4\n");
}

// A cache full of other data (prefill = 100 %, random levels as
// smq_load_mapping gives blocks without hints): each miss that would
// promote queues a demotion instead (free blocks + queued demotions under
// a quarter of the cache), and the next misses promote into the blocks
// the demotions freed after their commit. So the first pass demotes 62
// blocks of the lower half of the clean queue and promotes 61.
TEST(SmqLearning, FullCacheRandomHotSetQd1) {
  Engine e;
  auto s = MustLoadText(Stack("prefill = \"100%\"\n"), e);
  EXPECT_EQ(CoreOf(s).cached_blocks(), 191u);
  EXPECT_EQ(Curve(e, s, PassSpec{}, 4, 10),
            "hits 0.682 queued 61 promoted 61 demoted 62 ticks 400 promotable 4\n"
            "hits 0.985 queued 3 promoted 3 demoted 2 ticks 400 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 400 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 400 promotable 4\n");
}

// Full, QD32: more misses arrive while demotions wait for their commit,
// so 69 blocks are demoted for 64 promotions.
TEST(SmqLearning, FullCacheRandomHotSetQd32) {
  Engine e;
  auto s = MustLoadText(Stack("prefill = \"100%\"\n"), e);
  PassSpec p;
  p.qd = 32;
  p.ios = 4000;
  EXPECT_EQ(Curve(e, s, p, 4, 10),
            "hits 0.919 queued 64 promoted 64 demoted 69 ticks 130 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 125 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 125 promotable 4\n"
            "hits 1.000 queued 0 promoted 0 demoted 0 ticks 125 promotable 4\n");
}

// One sequential pass of 64 KiB reads over 64 MiB (64 hotspots, each read a
// new block): at QD1 each read is a tick bio, so every miss lifts its
// hotspot by the level jump (4 while the queue predicts poorly) and a
// hotspot reaches the promote level (48) within its 16 blocks. The pass
// fills the empty cache (191 blocks); promoted blocks enter the clean
// queue's top level, no block sits below level 32, so nothing can be
// demoted and the rest of the pass is not promoted. The second pass hits
// exactly those 191 blocks (18.7 %).
TEST(SmqLearning, EmptyCacheSequentialPassQd1) {
  Engine e;
  auto s = MustLoadText(Stack(), e);
  PassSpec p = SequentialPass(1);
  EXPECT_EQ(Curve(e, s, p, 2, 1),
            "hits 0.000 queued 191 promoted 191 demoted 0 ticks 1028 promotable 64\n"
            "hits 0.187 queued 0 promoted 0 demoted 0 ticks 1027 promotable 32\n");
}

// The same pass at QD32: one tick per round trip of 32 reads (2 hotspots),
// so a hotspot rises once or twice during its 16 reads, far below 48. Only
// the two hotspots the first redistribution put into the top levels are
// promotable, and the stream has left them by then: the first pass
// promotes nothing, the second promotes those 32 blocks as it passes them
// again (after its reads were served: no hits).
TEST(SmqLearning, EmptyCacheSequentialPassQd32) {
  Engine e;
  auto s = MustLoadText(Stack(), e);
  PassSpec p = SequentialPass(32);
  EXPECT_EQ(Curve(e, s, p, 2, 1),
            "hits 0.000 queued 0 promoted 0 demoted 0 ticks 32 promotable 2\n"
            "hits 0.000 queued 32 promoted 32 demoted 0 ticks 32 promotable 2\n");
}

// Full, QD1: as the empty cache at QD1, but each promotion needs a block
// demoted first, and only the prefilled blocks below level 32 (96 of 191)
// qualify; then promotions stop.
TEST(SmqLearning, FullCacheSequentialPassQd1) {
  Engine e;
  auto s = MustLoadText(Stack("prefill = \"100%\"\n"), e);
  PassSpec p = SequentialPass(1);
  EXPECT_EQ(Curve(e, s, p, 2, 1),
            "hits 0.004 queued 96 promoted 96 demoted 96 ticks 1028 promotable 64\n"
            "hits 0.098 queued 0 promoted 0 demoted 0 ticks 1027 promotable 64\n");
}

// Full, QD32: the second pass's 32 promotable misses each queue a
// demotion instead of a promotion (the cache is full), and the stream has
// moved on before the freed blocks could be used. The hits are prefilled
// blocks the pass happens to read.
TEST(SmqLearning, FullCacheSequentialPassQd32) {
  Engine e;
  auto s = MustLoadText(Stack("prefill = \"100%\"\n"), e);
  PassSpec p = SequentialPass(32);
  EXPECT_EQ(Curve(e, s, p, 2, 1),
            "hits 0.013 queued 0 promoted 0 demoted 0 ticks 32 promotable 2\n"
            "hits 0.010 queued 0 promoted 0 demoted 32 ticks 32 promotable 2\n");
}

// A sequential 4 KiB writer at QD4 in writethrough mode: three other
// writes to the same block are in flight at the origin whenever one ends.
// The promotion its miss queues does not wait for a moment with none (there
// may be none before the writer leaves the block): it locks the block at
// once, so later writes wait, and copies it when those in flight have
// ended (mg_lock_writes, quiesce). Once the hotspots are hot, a block's
// first writes miss and the rest hit.
TEST(SmqLearning, WritesInFlightDoNotStopAPromotion) {
  Engine e;
  auto s = MustLoadText(Stack(), e);
  ProbeSpec p;
  p.op = Op::kWrite;
  p.queue_depth = 4;
  p.random = false;
  p.span = 4 << 20;  // 64 blocks
  p.max_ios = 1024;
  p.duration = Nanos(3'600'000'000'000);
  const ProbeResult r = RunProbe(e, s.stack->root(), p);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  VirtualDriver(e).RunUntilIdle();
  const CacheCounters c = CoreOf(s).counters();
  EXPECT_EQ(c.write_hits + c.write_misses, 1024u);
  EXPECT_EQ(c.promotions, c.promotions_queued);
  EXPECT_GT(c.write_hits, 2 * c.write_misses) << c.write_misses << " misses";
  EXPECT_GE(c.promotions, 60u);
}

TEST(SmqLearning, PrefillIsDrawnFromTheSeed) {
  Engine e1, e2;
  auto a = MustLoadText(Stack("prefill = \"50%\"\n"), e1);
  auto b = MustLoadText(Stack("prefill = \"50%\"\n"), e2);
  EXPECT_EQ(CoreOf(a).cached_blocks(), 95u);
  uint64_t same = 0;
  for (uint64_t blk = 0; blk < 16384; ++blk) {
    const bool ca = CoreOf(a).IsCached(blk << 16);
    EXPECT_EQ(ca, CoreOf(b).IsCached(blk << 16)) << blk;
    same += ca;
  }
  EXPECT_EQ(same, 95u);
}

}  // namespace cache_smq_learning_test
}  // namespace storlab
