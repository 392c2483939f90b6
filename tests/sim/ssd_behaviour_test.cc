// Ssd over time: the SLC write cliff and its recovery, garbage collection in
// steady state and idle, the DRAM-less map cache, back-pressure, wear
// counters and time series — on the small test drive, in virtual time.
#include <gtest/gtest.h>

#include "sim/devices/ssd.h"
#include "tests/sim/ssd_test_util.h"

namespace storlab {
namespace ssd_behaviour_test {

using namespace time_literals;
using testing::AsSsd;
using testing::MustLoadText;
using testing::SeqWriteRate;
using testing::SmallSsd;

constexpr uint64_t kMiB = 1 << 20;
constexpr double kSlcMBps = testing::kSmallSlcMBps;
constexpr double kNativeMBps = testing::kSmallNativeMBps;

// A burst of `len` into an empty 1 MiB buffer: the first MiB goes in at
// link speed, the rest as fast as the flash programs.
double BurstMBps(uint64_t len, double program_MBps) {
  return static_cast<double>(len) / (static_cast<double>(len - kMiB) / program_MBps);
}

TEST(SsdBehaviour, SlcCacheFillsThenWritesFallToNativeSpeed) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e, 1, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  Ssd& ssd = AsSsd(s);
  // 16 MiB static + min(16 MiB, free space / 3) dynamic.
  ASSERT_EQ(ssd.slc_capacity(), 32 * kMiB);
  std::vector<double> rate;
  for (uint64_t off = 0; off < 64 * kMiB; off += 8 * kMiB) {
    rate.push_back(SeqWriteRate(e, n, off, 8 * kMiB));
  }
  EXPECT_NEAR(rate[0], BurstMBps(8 * kMiB, kSlcMBps), 0.05 * kSlcMBps);
  for (int i = 1; i < 3; ++i) EXPECT_NEAR(rate[i], kSlcMBps, 0.05 * kSlcMBps) << i;
  for (int i = 5; i < 8; ++i) EXPECT_NEAR(rate[i], kNativeMBps, 0.05 * kNativeMBps) << i;
  EXPECT_EQ(ssd.slc().used(), 32 * kMiB);
  StatList st;
  ssd.AppendStats(st);
  EXPECT_EQ(st[0].name, "host_bytes_written");
  EXPECT_EQ(st[0].value, 64.0 * kMiB);

  // Idle: the cache is folded into TLC and the next burst is fast again.
  VirtualDriver(e).RunUntilIdle();
  EXPECT_TRUE(e.empty());
  EXPECT_EQ(ssd.slc().used(), 0u);
  EXPECT_EQ(ssd.wear().fold_bytes, 32 * kMiB);
  EXPECT_NEAR(SeqWriteRate(e, n, 128 * kMiB, 8 * kMiB), BurstMBps(8 * kMiB, kSlcMBps),
              0.05 * kSlcMBps);
  // The series saw the cache fill and empty.
  const TimeSeries* slc = ssd.Series()[0];
  ASSERT_GE(slc->points().size(), 2u);
  double peak = 0;
  for (const auto& [t, v] : slc->points()) peak = std::max(peak, v);
  EXPECT_EQ(peak, 32.0 * kMiB);
}

TEST(SsdBehaviour, DynamicSlcShrinksAsTheDriveFills) {
  Engine e;
  auto s = MustLoadText(SmallSsd("prefill = \"90%\"\n"), e, 1, DataMode::Kind::kNone);
  Ssd& ssd = AsSsd(s);
  const uint64_t free_user = (256 * kMiB) - ssd.ftl().valid_bytes();
  EXPECT_EQ(ssd.slc_capacity(), 16 * kMiB + free_user / 3);
  EXPECT_LT(ssd.slc_capacity(), 25 * kMiB);
}

// Random 4 KiB writes at QD32 for `t`; returns IOPS.
double RandomWriteIops(Engine& e, Node& n, Nanos t, uint64_t seed) {
  ProbeSpec p;
  p.op = Op::kWrite;
  p.queue_depth = 32;
  p.duration = t;
  p.seed = seed;
  return RunProbe(e, n, p).iops;
}

TEST(SsdBehaviour, GarbageCollectionSlowsSteadyStateAndIdleTimeRecovers) {
  Engine e;
  // No SLC cache, so what changes is garbage collection alone; 25% spare.
  auto s = MustLoadText(SmallSsd("slc_static = \"0\"\nslc_dynamic = \"0\"\nraw_capacity = "
                                 "\"320MiB\"\nprefill = \"80%\"\n"),
                        e, 1, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  Ssd& ssd = AsSsd(s);
  const double fresh_iops = RandomWriteIops(e, n, 200_ms, 1);
  EXPECT_NEAR(fresh_iops * 4096 / 1e6, kNativeMBps, 0.05 * kNativeMBps);
  const double fresh_burst = SeqWriteRate(e, n, 0, 16 * kMiB);
  // Four drive-writes of random data: the drive reaches steady state.
  double steady = 0;
  for (int i = 0; i < 8; ++i) steady = RandomWriteIops(e, n, 2_s, 10 + i);
  EXPECT_LT(steady, 0.5 * fresh_iops);
  EXPECT_GT(ssd.wear().write_amplification(), 1.8);
  const double free_before = ssd.ftl().free_block_fraction();
  const double steady_burst = SeqWriteRate(e, n, 0, 16 * kMiB);
  EXPECT_LT(steady_burst, 0.6 * fresh_burst);

  // Thirty idle minutes: idle GC refills the free pool, then stops.
  VirtualDriver(e).RunUntil(e.now() + 1800_s);
  EXPECT_TRUE(e.empty());
  EXPECT_GT(ssd.ftl().free_block_fraction(), free_before + 0.05);
  EXPECT_GT(SeqWriteRate(e, n, 64 * kMiB, 16 * kMiB), 0.9 * fresh_burst);
}

TEST(SsdBehaviour, DramLessMapMissesCostAFlashReadPastTheCachedSpan) {
  Engine e;
  // 64 KiB of map cache: 4 map pages, each mapping 16 MiB.
  auto s = MustLoadText(SmallSsd("map_cache = \"64KiB\"\n"), e, 1, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  ProbeSpec p;
  p.duration = 100_ms;
  p.span = 64 * kMiB;  // what the cache covers
  RunProbe(e, n, p);   // warm the cache
  const double near = RunProbe(e, n, p).mean_latency_us;
  EXPECT_DOUBLE_EQ(near, 55.5);  // exactly the DRAM drive's read
  p.span = 0;                    // the whole drive: 12 of 16 map pages are not cached
  const double far = RunProbe(e, n, p).mean_latency_us;
  // A miss adds an SLC read of the map page (30 us + 2.5 us channel).
  EXPECT_NEAR(far, 55.5 + 0.75 * 32.5, 2.0);
  EXPECT_GT(AsSsd(s).map_cache()->misses(), 500u);
}

TEST(SsdBehaviour, DramLessRandomWritesFallOffPastTheCachedSpan) {
  Engine e;
  auto s = MustLoadText(SmallSsd("map_cache = \"64KiB\"\nslc_static = \"0\"\nslc_dynamic = \"0\""),
                        e, 1, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  ProbeSpec p;
  p.op = Op::kWrite;
  p.queue_depth = 32;
  p.duration = 500_ms;
  p.span = 48 * kMiB;
  const double near = RunProbe(e, n, p).iops;
  p.span = 0;
  const double far = RunProbe(e, n, p).iops;
  EXPECT_LT(far, 0.7 * near);
  EXPECT_GT(AsSsd(s).wear().map_bytes_written, 0u);
}

TEST(SsdBehaviour, HmbDrivesFallOffPastTheSpanTheirMapCovers) {
  // A DRAM-less NVMe drive with 16 MiB of host memory buffer for its map:
  // 1024 map pages of 16 KiB, 16 GiB of LBAs (TechPowerUp, Team MP33: 4K
  // random writes fall off past ~15 GB).
  auto iops = [](uint64_t span) {
    Engine e;
    auto s = testing::MustLoadText("[node.d]\nuse = \"nvme-gen3\"\nmap_cache = \"16MiB\"\n", e, 1,
                                   DataMode::Kind::kNone);
    ProbeSpec p;
    p.op = Op::kWrite;
    p.queue_depth = 32;
    p.span = span;
    p.duration = 20_ms;
    RunProbe(e, s.stack->root(), p);  // warm the map cache
    p.seed = 2;
    p.duration = 100_ms;
    return RunProbe(e, s.stack->root(), p).iops;
  };
  constexpr uint64_t kGB = 1'000'000'000;
  const double small = iops(8 * kGB), large = iops(256 * kGB);
  EXPECT_GT(small, 400000);
  EXPECT_LT(large, 0.5 * small);
}

TEST(SsdBehaviour, SustainedWritesAreHeldToTheProgramRateByTheBuffer) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e, 1, DataMode::Kind::kNone);
  ProbeSpec p;
  p.op = Op::kWrite;
  p.queue_depth = 32;
  p.duration = 40_ms;  // stays inside the 32 MiB SLC cache
  ProbeResult r = RunProbe(e, s.stack->root(), p);
  // Past the first MiB (absorbed by the empty buffer), writes go exactly
  // as fast as the dies program.
  EXPECT_NEAR((r.bytes - kMiB) / r.elapsed.seconds() / 1e6, kSlcMBps, 0.03 * kSlcMBps);
  // The buffer is never over its 1 MiB.
  EXPECT_LE(AsSsd(s).buffered_bytes(), kMiB);
}

TEST(SsdBehaviour, WearCountersAddUp) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e, 1, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  SeqWriteRate(e, n, 0, 8 * kMiB);
  VirtualDriver(e).RunUntilIdle();
  const SsdWear& w = AsSsd(s).wear();
  EXPECT_EQ(w.host_bytes_written, 8 * kMiB);
  // Each byte was programmed in SLC and folded into TLC once.
  EXPECT_EQ(w.nand_bytes_written, 16 * kMiB);
  EXPECT_DOUBLE_EQ(w.write_amplification(), 2.0);
  EXPECT_DOUBLE_EQ(w.percentage_used(320 * kMiB, 3000), 100.0 * 16 / (320.0 * 3000));
}

}  // namespace ssd_behaviour_test
}  // namespace storlab
