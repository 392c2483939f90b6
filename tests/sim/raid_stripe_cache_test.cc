// md's stripe cache as a bound on RAID5/6 writes in flight: every write
// holds one stripe_head per page row it touches, from its pre-reads until
// its writes are done; with the pool empty, writes wait their turn.
#include <gtest/gtest.h>

#include <vector>

#include "sim/virtual_driver.h"
#include "tests/sim/raid_test_util.h"

namespace storlab {
namespace raid_stripe_cache_test {

using testing::MakeRaidRig;
using testing::Spec;
using testing::WithKeys;

// Eight one-chunk writes (64 KiB = 16 page rows each) into eight different
// stripes of a 4-disk RAID5 whose members take 1 ms per request, all at
// t=0. Each is a reconstruct-write: 1 ms of reads, then 1 ms of writes.
// Returns when each completed.
std::vector<Nanos> EightChunkWrites(const std::string& array_keys) {
  Engine e;
  auto r = MakeRaidRig(e, WithKeys(Spec(5, 4, "64KiB"), array_keys, "latency = \"1ms\"\n"),
                       DataMode::Kind::kNone);
  std::vector<Nanos> done;
  for (int s = 0; s < 8; ++s) {
    Request q{.op = Op::kWrite,
              .offset = uint64_t(s) * 3 * 65536,  // chunk 0 of stripe s
              .length = 65536,
              .done = [&](Status st) {
                EXPECT_TRUE(st.ok()) << st.ToString();
                done.push_back(e.now());
              }};
    r.raid->Submit(std::move(q));
  }
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(r.raid->array().counters().rcw_writes, 8u);  // one segment each
  EXPECT_EQ(r.raid->array().stripe_heads().in_use(), 0u);
  return done;
}

TEST(RaidStripeCacheTest, TheDefaultPoolLetsEightChunkWritesRunTogether) {
  auto done = EightChunkWrites("");  // 256 stripe_heads: 8 x 16 fit
  ASSERT_EQ(done.size(), 8u);
  for (Nanos t : done) EXPECT_EQ(t, Nanos(2'000'000));
}

TEST(RaidStripeCacheTest, TheSmallestPoolTakesThemOneAtATime) {
  auto done = EightChunkWrites("stripe_cache_size = 17\n");  // one write of 16 rows at a time
  ASSERT_EQ(done.size(), 8u);
  for (size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], Nanos(2'000'000 * (i + 1))) << i;
}

TEST(RaidStripeCacheTest, APoolOfThirtyTwoTakesThemTwoAtATime) {
  auto done = EightChunkWrites("stripe_cache_size = 32\n");
  ASSERT_EQ(done.size(), 8u);
  for (size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], Nanos(2'000'000 * (i / 2 + 1))) << i;
}

}  // namespace raid_stripe_cache_test
}  // namespace storlab
