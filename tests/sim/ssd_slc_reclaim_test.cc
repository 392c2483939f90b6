// Ssd: SLC blocks reclaimed while the host writes. A hot set rewritten in
// SLC leaves blocks with nothing valid, which cost only an erase; a hot set
// near the cache's size leaves blocks half valid, folded into native cells
// on the way; new data beyond the cache goes native (the cliff). On the
// small test drive, in virtual time.
#include <gtest/gtest.h>

#include "sim/devices/ssd.h"
#include "tests/sim/ssd_test_util.h"

namespace storlab {
namespace ssd_slc_reclaim_test {

using namespace time_literals;
using testing::AsSsd;
using testing::kSmallNativeMBps;
using testing::kSmallSlcMBps;
using testing::MustLoadText;
using testing::SmallSsd;

constexpr uint64_t kMiB = 1 << 20;  // SmallSsd: 32 MiB of SLC in 1 MiB blocks

// Writes `total` bytes at QD8 in 1 MiB (sequential, wrapping) or 64 KiB
// (random) writes over [0, span); returns MB/s.
double Rewrite(Engine& e, Node& n, uint64_t span, uint64_t total, bool random) {
  ProbeSpec p;
  p.op = Op::kWrite;
  p.random = random;
  p.block_size = random ? 64 * 1024 : kMiB;
  p.queue_depth = 8;
  p.span = span;
  p.max_ios = total / p.block_size;
  p.duration = Nanos::Max() - e.now() - Nanos(1);
  return RunProbe(e, n, p).bytes_per_s / 1e6;
}

TEST(SsdSlcReclaim, TheCostOfReclaimingFollowsFromTheProgramTimes) {
  SsdConfig c;
  c.page_size = 16384;
  c.planes = 2;
  c.cell_bits = 3;
  c.block_size = 3 * kMiB;
  c.program_time = 2_ms;
  c.slc_program_time = 200_us;
  c.slc_read_time = 30_us;
  c.erase_time = 3_ms;
  ASSERT_EQ(c.slc_block_bytes(), kMiB);
  // Per byte: native 2 ms / 96 KiB; SLC 200 µs / 32 KiB + 3 ms / 1 MiB;
  // fold (3 × 30 µs + 2 ms) / 96 KiB. (native − SLC) / fold of a block.
  const double native = 2e6 / 98304, slc = 2e5 / 32768 + 3e6 / 1048576, fold = 2.09e6 / 98304;
  EXPECT_EQ(c.slc_fold_limit(),
            static_cast<uint64_t>((native - slc) / fold * static_cast<double>(kMiB)));
  // SLC programs slower than native ones: never worth it.
  c.slc_program_time = 1_ms;
  EXPECT_EQ(c.slc_fold_limit(), 0u);
}

TEST(SsdSlcReclaim, AHotSetRewrittenInSlcStaysAtSlcSpeed) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e, 1, DataMode::Kind::kNone);
  Ssd& ssd = AsSsd(s);
  // 8 MiB rewritten 16 times: four times the 32 MiB cache, all through
  // SLC, because every block the drive reclaims holds nothing valid any
  // more. The first 32 MiB fill free blocks; each later MiB also pays for
  // one block erase (3 ms, a debt shared by the 4 dies): 1.6 + 0.75 ms of
  // die time per MiB, 446 MB/s, still well above native speed.
  const double erasing = kMiB / 2.35e-3 / 1e6;
  const double us = 32 * kMiB / kSmallSlcMBps + 96 * kMiB / erasing;  // bytes / (MB/s)
  const double expect = 128 * kMiB / us;
  EXPECT_NEAR(Rewrite(e, s.stack->root(), 8 * kMiB, 128 * kMiB, false), expect, 0.03 * expect);
  EXPECT_EQ(ssd.wear().fold_bytes, 0u);
  EXPECT_EQ(ssd.slc().valid_bytes(), 8 * kMiB);
  EXPECT_LE(ssd.slc().used(), 32 * kMiB);
  // 128 blocks written, 32 still in use: 96 erased (a 3 MiB native block each).
  EXPECT_EQ(ssd.wear().erased_bytes, 96 * 3 * kMiB);
  EXPECT_EQ(ssd.slc().reclaimed_blocks(), 96u);
  StatList st;
  ssd.AppendStats(st);
  auto stat = [&](const std::string& name) {
    for (const auto& s : st)
      if (s.name == name) return s.value;
    ADD_FAILURE() << "no stat " << name;
    return -1.0;
  };
  EXPECT_EQ(stat("slc_blocks_reclaimed"), 96.0);
  EXPECT_EQ(stat("slc_valid_bytes"), 8.0 * kMiB);
  EXPECT_EQ(stat("slc_folded_bytes"), 0.0);
}

TEST(SsdSlcReclaim, AHotSetNearTheCacheSizeFoldsWhatIsStillValid) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e, 1, DataMode::Kind::kNone);
  Ssd& ssd = AsSsd(s);
  Node& n = s.stack->root();
  // Fill the 24 MiB hot set, then rewrite it at random: the emptiest block
  // still holds valid data, which is folded before the block is reused.
  Rewrite(e, n, 24 * kMiB, 24 * kMiB, false);
  const double rate = Rewrite(e, n, 24 * kMiB, 192 * kMiB, true);
  EXPECT_GT(ssd.wear().fold_bytes, 0u);
  EXPECT_LT(rate, 0.9 * kSmallSlcMBps);
  EXPECT_GT(rate, 1.2 * kSmallNativeMBps);
  // Reads find the data where it is: a hot-set page in SLC, one folded out
  // of it in native cells.
  uint64_t in_slc = 0;
  for (uint64_t off = 0; off < 24 * kMiB; off += 4096) in_slc += ssd.slc().Holds(off);
  EXPECT_EQ(in_slc * 4096, ssd.slc().valid_bytes());
  EXPECT_LT(ssd.slc().valid_bytes(), 24 * kMiB);
}

TEST(SsdSlcReclaim, NewDataPastTheCacheStillGoesNative) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e, 1, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  // Every block full of valid data: reclaiming would fold it all, which
  // costs more than writing natively.
  testing::SeqWriteRate(e, n, 0, 40 * kMiB);
  EXPECT_NEAR(testing::SeqWriteRate(e, n, 40 * kMiB, 24 * kMiB), kSmallNativeMBps,
              0.05 * kSmallNativeMBps);
  EXPECT_EQ(AsSsd(s).wear().fold_bytes, 0u);
}

TEST(SsdSlcReclaim, TrimmedDataIsNotFolded) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e, 1, DataMode::Kind::kNone);
  Ssd& ssd = AsSsd(s);
  Node& n = s.stack->root();
  testing::SeqWriteRate(e, n, 0, 16 * kMiB);
  bool done = false;
  Request r{.op = Op::kTrim, .offset = 0, .length = 8 * kMiB, .done = [&](Status st) {
              EXPECT_TRUE(st.ok());
              done = true;
            }};
  n.Submit(std::move(r));
  VirtualDriver(e).RunUntilIdle();  // idle: the cache is folded
  ASSERT_TRUE(done);
  EXPECT_EQ(ssd.wear().fold_bytes, 8 * kMiB);
  EXPECT_EQ(ssd.slc().used(), 0u);
}

}  // namespace ssd_slc_reclaim_test
}  // namespace storlab
