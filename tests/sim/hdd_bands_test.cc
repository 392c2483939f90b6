// The catalog's disks against their published figures, measured with the
// probe in virtual time. Bands are the published ranges; where a profile
// figure was fitted to a measurement, the measurement is checked to ±10%.
#include <gtest/gtest.h>

#include <string>

#include "tests/sim/test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace hdd_bands_test {

using namespace time_literals;

constexpr double kMiB = 1 << 20;

ProbeResult Probe(const std::string& stack, Op op, uint64_t bs, uint32_t qd, bool random,
                  Nanos duration, uint64_t span = 0) {
  Engine e;
  auto s = testing::MustLoad(stack, e, 1, DataMode::Kind::kNone);
  ProbeSpec p;
  p.op = op;
  p.block_size = bs;
  p.queue_depth = qd;
  p.random = random;
  p.duration = duration;
  p.span = span;
  return RunProbe(e, s.stack->root(), p);
}

// The bb-qq/uas benchmark ran on a 10 GiB file.
constexpr uint64_t kBbqqSpan = uint64_t{10} << 30;

TEST(HddBands, Hdd7200RandomReads) {
  // ~100 IOPS at QD1, writes higher, ~3x with NCQ (CrystalDiskMark runs);
  // datasheet-derived 1 / (7.4 ms seek + 4.17 ms latency) ≈ 86.
  const double qd1 = Probe("hdd-7200", Op::kRead, 4096, 1, true, 30_s).iops;
  EXPECT_GE(qd1, 80);
  EXPECT_LE(qd1, 130);
  const double qd32 = Probe("hdd-7200", Op::kRead, 4096, 32, true, 30_s).iops;
  EXPECT_GE(qd32, 2 * qd1);
  // Seagate Exos X16 datasheet (the IronWolf 16 TB's platform): 170 IOPS
  // 4K random read at QD16 (fitted, ±10%).
  EXPECT_NEAR(Probe("hdd-7200", Op::kRead, 4096, 16, true, 30_s).iops, 170, 17);
}

TEST(HddBands, Hdd7200SequentialIsTheOuterZoneRate) {
  // IronWolf 16 TB: 210 MB/s max sustained; 3.5" drives publish 175–210.
  const double rd = Probe("hdd-7200", Op::kRead, 1 << 20, 1, false, 5_s).bytes_per_s;
  EXPECT_GE(rd, 175e6);
  EXPECT_LE(rd, 212e6);
  // Writes stream at the same rate once the cache is full (60 s includes
  // the first 256 MB absorbed at interface speed).
  const double wr = Probe("hdd-7200", Op::kWrite, 1 << 20, 1, false, 60_s).bytes_per_s;
  EXPECT_GE(wr, 175e6);
  EXPECT_LE(wr, 220e6);
}

TEST(HddBands, Hdd7200RandomWritesRideTheWriteCache) {
  const double rd = Probe("hdd-7200", Op::kRead, 4096, 1, true, 30_s).iops;
  const double wr = Probe("hdd-7200", Op::kWrite, 4096, 1, true, 30_s).iops;
  EXPECT_GE(wr, 300);  // ~300+ (CrystalDiskMark runs)
  EXPECT_GE(wr, 3 * rd);
}

TEST(HddBands, Hdd5400) {
  // 2.5" 5400: 12 ms average seek + 5.5 ms latency → ~57 IOPS; ~70 MB/s.
  const double qd1 = Probe("hdd-5400", Op::kRead, 4096, 1, true, 30_s).iops;
  EXPECT_GE(qd1, 45);
  EXPECT_LE(qd1, 70);
  EXPECT_GT(Probe("hdd-5400", Op::kRead, 4096, 32, true, 30_s).iops, 1.5 * qd1);
  const double seq = Probe("hdd-5400", Op::kRead, 1 << 20, 1, false, 5_s).bytes_per_s;
  EXPECT_GE(seq, 60e6);
  EXPECT_LE(seq, 75e6);
}

TEST(HddBands, UsbBotVersusUas) {
  // bb-qq/uas README: IronWolf 16 TB behind a JMS580 on 5 Gb/s, 10 GiB file,
  // 4K random read: 192 IOPS with BOT, 608 with UAS (both fitted, ±10%).
  const double bot = Probe("usb3-bot-hdd", Op::kRead, 4096, 32, true, 30_s, kBbqqSpan).iops;
  const double uas = Probe("usb3-uas-hdd", Op::kRead, 4096, 32, true, 30_s, kBbqqSpan).iops;
  EXPECT_NEAR(bot, 192, 19.2);
  EXPECT_NEAR(uas, 608, 60.8);
  EXPECT_GE(uas, 2.5 * bot);
  // 4K random write: 727 (BOT) and 747 (UAS) IOPS — the drive's write
  // cache, not the transport, decides.
  EXPECT_NEAR(Probe("usb3-bot-hdd", Op::kWrite, 4096, 32, true, 60_s, kBbqqSpan).iops, 727, 73);
  EXPECT_NEAR(Probe("usb3-uas-hdd", Op::kWrite, 4096, 32, true, 60_s, kBbqqSpan).iops, 747, 75);
}

TEST(HddBands, UsbSequentialIsTheDiskNotTheLink) {
  // bb-qq/uas: ~190 MiB/s read and write, BOT and UAS alike (1 MiB).
  for (const char* stack : {"usb3-bot-hdd", "usb3-uas-hdd"}) {
    const double rd = Probe(stack, Op::kRead, 1 << 20, 1, false, 5_s).bytes_per_s / kMiB;
    EXPECT_GE(rd, 180) << stack;
    EXPECT_LE(rd, 205) << stack;
    const double wr = Probe(stack, Op::kWrite, 1 << 20, 1, false, 60_s).bytes_per_s / kMiB;
    EXPECT_GE(wr, 180) << stack;
    EXPECT_LE(wr, 210) << stack;
  }
}

}  // namespace hdd_bands_test
}  // namespace storlab
