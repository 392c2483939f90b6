// Promotion policies and the sequential cutoff, in virtual time: smq learns
// a hot set within its first ticks (and re-learns when it moves), LRU
// promotes at once, large sequential streams bypass the cache.
#include <gtest/gtest.h>

#include "sim/layers/cache/cache_smq.h"
#include "tests/sim/cache_test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace cache_policy_test {

using namespace time_literals;
using testing::MustLoadText;

std::string Stack(const std::string& policy, const std::string& extra = "") {
  return testing::CacheOnDevice("policy = \"" + policy + "\"\n" + extra, "1GiB");
}

CacheCore& Core(LoadedStack& s) { return testing::CoreOf(s); }

// The hit rate of one pass (testing::ReadPass).
double Pass(Engine& e, LoadedStack& s, uint64_t offset, uint64_t span, uint64_t ios,
            uint64_t seed) {
  return testing::ReadPass(e, s, offset, span, ios, seed).hit_rate;
}

TEST(CachePolicy, LruPromotesAtOnce) {
  Engine e;
  auto s = MustLoadText(Stack("lru"), e);
  // 4 MiB hot set = 64 blocks of 64 KiB; 500 reads touch each ~8 times.
  double first = Pass(e, s, 0, 4 << 20, 500, 1);
  EXPECT_GT(first, 0.85);
  EXPECT_GT(Pass(e, s, 0, 4 << 20, 500, 2), 0.99);
}

TEST(CachePolicy, SmqLearnsTheHotSetOverRepeatedPasses) {
  Engine e;
  auto s = MustLoadText(Stack("smq"), e);
  std::vector<double> rate;
  for (int pass = 0; pass < 6; ++pass) {
    rate.push_back(Pass(e, s, 0, 4 << 20, 200, 10 + pass));
  }
  // At QD1 every read is a tick bio: after the first one the promote level
  // is set and the few hotspots in use are redistributed into the top
  // levels, so the first pass already hits part of the time; the second
  // hits almost always (cache_smq_learning_test.cc has the exact curves).
  EXPECT_GT(rate[0], 0.5);
  EXPECT_LT(rate[0], 0.9);
  EXPECT_GT(rate[1], 0.95);
  for (size_t i = 1; i < rate.size(); ++i) EXPECT_GE(rate[i] + 0.02, rate[i - 1]) << i;
  // LRU in the same first pass would already hit most of the time.
  Engine e2;
  auto lru = MustLoadText(Stack("lru"), e2);
  EXPECT_GT(Pass(e2, lru, 0, 4 << 20, 200, 10), 0.6);
}

TEST(CachePolicy, SmqRelearnsWhenTheHotSetMoves) {
  Engine e;
  auto s = MustLoadText(Stack("smq"), e);
  for (int pass = 0; pass < 6; ++pass) Pass(e, s, 0, 4 << 20, 200, 20 + pass);
  ASSERT_GT(Pass(e, s, 0, 4 << 20, 200, 30), 0.95);
  // The hot set moves 512 MiB away: the old hotspots are still hot in the
  // queue, so the new ones start cold and must climb again.
  std::vector<double> rate;
  for (int pass = 0; pass < 8; ++pass)
    rate.push_back(Pass(e, s, 512 << 20, 4 << 20, 200, 40 + pass));
  EXPECT_LT(rate[0], 0.8);
  EXPECT_GT(rate[7], 0.9);
}

TEST(CachePolicy, SmqPromotesOnlyHotRegionsUnderUniformNoise) {
  Engine e;
  auto s = MustLoadText(Stack("smq"), e);
  // Reads spread uniformly over 1 GiB: nothing is hot, little is promoted
  // compared with LRU, which promotes every miss.
  Pass(e, s, 0, 1 << 30, 2000, 50);
  Engine e2;
  auto lru = MustLoadText(Stack("lru"), e2);
  Pass(e2, lru, 0, 1 << 30, 2000, 50);
  EXPECT_LT(Core(s).counters().promotions * 4, Core(lru).counters().promotions);
}

TEST(CachePolicy, SequentialStreamsBypassTheCache) {
  Engine e;
  auto s = MustLoadText(Stack("lru",
                              "mode = \"writeback\"\nsequential_cutoff "
                              "= \"4MiB\"\ndirty_background = \"50%\""),
                        e);
  Node& n = s.stack->root();
  auto w = testing::Pattern(1 << 20, 1);
  for (uint64_t i = 0; i < 8; ++i) {
    ASSERT_TRUE(testing::Write(e, n, i << 20, w).status.ok());
  }
  // The stream reaches 4 MiB with its fourth write: that one and the rest
  // go to the origin; the first three were cached.
  EXPECT_EQ(Core(s).counters().bypassed_ios, 5u);
  EXPECT_TRUE(Core(s).IsCached(0));
  EXPECT_TRUE(Core(s).IsCached((3 << 20) - 4096));
  EXPECT_FALSE(Core(s).IsCached(3 << 20));
  EXPECT_FALSE(Core(s).IsCached((8 << 20) - 4096));
  EXPECT_EQ(Core(s).dirty_bytes(), uint64_t{3} << 20);
  // Random 1 MiB writes do not add up to a stream.
  const uint64_t offs[] = {100, 37, 250, 13, 77, 190};
  for (uint64_t o : offs) ASSERT_TRUE(testing::Write(e, n, o << 20, w).status.ok());
  EXPECT_EQ(Core(s).counters().bypassed_ios, 5u);
}

TEST(CachePolicy, SmqHotspotGeometryFollowsTheKernel) {
  // 256 cache blocks, a 1 GiB origin of 64 KiB blocks: 1024 hotspot entries
  // of 16 blocks each cover exactly the origin.
  SmqPolicy p(256, 16384);
  EXPECT_EQ(p.hotspot_entries(), 1024u);
  EXPECT_EQ(p.blocks_per_hotspot(), 16u);
  // A small origin halves the hotspot block until the entries fit.
  SmqPolicy q(256, 4096);
  EXPECT_EQ(q.blocks_per_hotspot(), 4u);
  // Nothing is promoted before the first tick.
  EXPECT_EQ(p.read_promote_level(), SmqPolicy::kLevels);
  EXPECT_EQ(p.Miss({5, false, false, Nanos(0)}), Promote::kNo);
}

}  // namespace cache_policy_test
}  // namespace storlab
