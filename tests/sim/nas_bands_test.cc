// The catalog's network and cached-RAID stacks against their published
// figures, in virtual time: nfs-1gbe and nas-1gbe-raid5 at the 1GbE payload
// rate (1448 of 1538 bytes a frame: 117.7 MB/s, device-figures.md), and
// lvmcache-raid6's writethrough cache (a write completes when the origin has
// it; hot reads come from the SSD once smq has learnt them, lvmcache(7)).
#include <gtest/gtest.h>

#include <string>

#include "tests/sim/cache_test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace nas_bands_test {

using namespace time_literals;

constexpr double kPayload1GbE = 125e6 * 1448 / 1538;  // 117.7 MB/s

ProbeResult Sequential(Engine& e, LoadedStack& s, Op op, uint32_t qd, Nanos duration) {
  ProbeSpec p;
  p.op = op;
  p.block_size = 1 << 20;
  p.queue_depth = qd;
  p.random = false;
  p.duration = duration;
  return RunProbe(e, s.stack->root(), p);
}

ProbeResult Sequential(const std::string& stack, Op op, uint32_t qd, Nanos duration) {
  Engine e;
  auto s = testing::MustLoad(stack, e, 1, DataMode::Kind::kNone);
  return Sequential(e, s, op, qd, duration);
}

TEST(NasBands, Nfs1GbESequentialIsTheLinksPayloadRate) {
  // Any NAS on 1GbE tops out at ~117 MB/s; a good one gets above 100.
  for (Op op : {Op::kWrite, Op::kRead}) {
    const double rate = Sequential("nfs-1gbe", op, 8, 10_s).bytes_per_s;
    EXPECT_LE(rate, kPayload1GbE) << OpName(op);
    EXPECT_GE(rate, 100e6) << OpName(op);
  }
  // One request at a time pays a round trip per 1 MiB RPC, and no more.
  const double qd1 = Sequential("nfs-1gbe", Op::kWrite, 1, 10_s).bytes_per_s;
  EXPECT_LE(qd1, kPayload1GbE);
  EXPECT_GE(qd1, 100e6);
}

TEST(NasBands, NasDirectSequentialWriteRunsAtTheLink) {
  // 30 s carry 3.5 GB, past the server cache's dirty limit (20 % of 3 GiB):
  // the RAID5 must keep up with full-stripe writes (3 x 195 MB/s), so the
  // link stays the limit.
  Engine e;
  auto s = testing::MustLoad("nas-1gbe-raid5", e, 1, DataMode::Kind::kNone);
  const double rate = Sequential(e, s, Op::kWrite, 8, 30_s).bytes_per_s;
  EXPECT_LE(rate, kPayload1GbE);
  EXPECT_GE(rate, 0.9 * kPayload1GbE);
  // The array did receive the data (not just the server's RAM).
  Node* array = s.stack->Find("array");
  ASSERT_NE(array, nullptr);
  EXPECT_GT(static_cast<double>(array->stats().op(Op::kWrite).bytes), 2e9);
}

TEST(NasBands, NasSequentialReadRunsAtTheLink) {
  // Reads miss the server's cache and stream from the RAID5 (3 data disks):
  // again the link is the limit.
  const double rate = Sequential("nas-1gbe-raid5", Op::kRead, 8, 10_s).bytes_per_s;
  EXPECT_LE(rate, kPayload1GbE);
  EXPECT_GE(rate, 0.9 * kPayload1GbE);
}

CacheCore& LvmCache(LoadedStack& s) { return testing::CoreOf(s); }

// lvmcache-raid6 with 4 KiB random reads at QD1 over a 64 MiB hot set.
class LvmcacheHotSet : public ::testing::Test {
 protected:
  static constexpr uint64_t kHot = uint64_t{1} << 40;  // 1 TB into the array
  static constexpr uint64_t kHotSpan = 64 << 20;

  testing::ReadPassResult Pass(uint64_t ios, uint64_t seed) {
    return testing::ReadPass(e_, s_, kHot, kHotSpan, ios, seed);
  }

  Engine e_;
  LoadedStack s_ = testing::MustLoad("lvmcache-raid6", e_);
};

TEST_F(LvmcacheHotSet, HotReadsHitTheSsdAfterSmqLearns) {
  // Cold (the first second, before smq's first tick): the HDDs serve, at a
  // short seek and half a turn (4.17 ms at 7200 rpm) or more.
  const testing::ReadPassResult first = Pass(100, 1);
  EXPECT_LT(first.hit_rate, 0.1);
  EXPECT_GT(first.mean_latency_us, 2000);
  testing::ReadPassResult last;
  for (uint64_t i = 2; i <= 6; ++i) last = Pass(1000, i);
  // Learnt: nearly every read is a hit at SATA SSD latency (QD1 4K read
  // ~77 us, 870 EVO spec) plus the cache's lookup.
  EXPECT_GT(last.hit_rate, 0.95);
  EXPECT_LT(last.mean_latency_us, 500);
  EXPECT_GT(LvmCache(s_).counters().promotions, 0u);
}

TEST_F(LvmcacheHotSet, WritesCompleteOnlyWhenTheOriginHasThem) {
  Node& root = s_.stack->root();
  Node* array = s_.stack->Find("array");
  Node* ssd = s_.stack->Find("ssd");
  ASSERT_NE(array, nullptr);
  ASSERT_NE(ssd, nullptr);
  for (uint64_t i = 1; i <= 4; ++i) Pass(1000, i);  // the hot set is cached now
  // A write to a cached block (writethrough updates the SSD copy) and one
  // to a block the cache does not hold (dm-cache writes it to the origin).
  for (uint64_t off : {kHot + (8 << 20), uint64_t{5} << 30}) {
    auto w = testing::Pattern(65536, off);
    const uint64_t origin_before = array->stats().op(Op::kWrite).bytes;
    const uint64_t ssd_before = ssd->stats().op(Op::kWrite).ops;
    uint64_t origin_at_done = 0;
    bool done = false;
    Request r{.op = Op::kWrite,
              .offset = off,
              .length = w.size(),
              .data = w.data(),
              .done = [&](Status st) {
                ASSERT_TRUE(st.ok()) << st.ToString();
                origin_at_done = array->stats().op(Op::kWrite).bytes;
                done = true;
              }};
    root.Submit(std::move(r));
    VirtualDriver(e_).RunUntilIdle();
    ASSERT_TRUE(done);
    // The RAID6 had completed the write when the cache answered.
    EXPECT_EQ(origin_at_done - origin_before, w.size()) << off;
    if (off >= kHot) {
      EXPECT_GT(ssd->stats().op(Op::kWrite).ops, ssd_before) << off;
    }
    // The origin alone returns the new data, and so does the stack.
    std::vector<uint8_t> back(w.size());
    ASSERT_TRUE(testing::Read(e_, *array, off, back).status.ok());
    EXPECT_EQ(back, w) << off;
    ASSERT_TRUE(testing::Read(e_, root, off, back).status.ok());
    EXPECT_EQ(back, w) << off;
  }
  EXPECT_EQ(LvmCache(s_).dirty_bytes(), 0u);  // writethrough never holds dirty data
}

}  // namespace nas_bands_test
}  // namespace storlab
