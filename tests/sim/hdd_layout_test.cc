// Zoned layout and mechanics: where sectors are, how fast they pass, and
// what the spindle angle costs. Exact where the model is exact.
#include "sim/devices/hdd_layout.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/devices/hdd_mechanics.h"
#include "sim/random.h"

namespace storlab {
namespace hdd_layout_test {

using namespace time_literals;

ZonedLayout Make(uint64_t capacity = 1'000'000'000'000, uint32_t zones = 30) {
  auto l = ZonedLayout::Make({capacity, 8, zones, 200e6, 0.5, 7200});
  EXPECT_TRUE(l.ok()) << l.status().ToString();
  return std::move(l).value();
}

TEST(ZonedLayoutTest, OuterZonesAreFasterThanInnerOnes) {
  ZonedLayout l = Make();
  EXPECT_EQ(l.sectors(), 1'000'000'000'000 / 512);
  EXPECT_NEAR(l.RateAt(0), 200e6, 200e6 * 1e-3);  // whole sectors per track
  EXPECT_NEAR(l.RateAt(l.sectors() - 1), 100e6, 100e6 * 0.01);
  double prev = 1e18;
  uint64_t covered = 0, cyl = 0;
  for (const auto& z : l.zones()) {
    EXPECT_EQ(z.first_lba, covered);
    EXPECT_EQ(z.first_cylinder, cyl);
    const double rate = l.RateAt(z.first_lba);
    EXPECT_LT(rate, prev);
    prev = rate;
    covered += z.sectors;
    cyl += z.cylinders;
  }
  EXPECT_EQ(covered, l.sectors());
  EXPECT_EQ(cyl, l.cylinders());
}

TEST(ZonedLayoutTest, LocateWalksTracksHeadsAndCylinders) {
  ZonedLayout l = Make();
  const uint64_t spt = l.zones()[0].sectors_per_track;
  EXPECT_EQ(l.Locate(0).cylinder, 0u);
  EXPECT_DOUBLE_EQ(l.Locate(0).angle, 0.0);
  EXPECT_DOUBLE_EQ(l.Locate(spt / 2).angle, static_cast<double>(spt / 2) / spt);
  EXPECT_EQ(l.Locate(8 * spt - 1).cylinder, 0u);  // 8 heads per cylinder
  EXPECT_EQ(l.Locate(8 * spt).cylinder, 1u);
  EXPECT_DOUBLE_EQ(l.Locate(8 * spt).angle, 0.0);
  EXPECT_EQ(l.Locate(l.sectors() - 1).cylinder, l.cylinders() - 1);
}

TEST(ZonedLayoutTest, ATrackPassesInOneRevolutionAndSectorsInInvertsIt) {
  ZonedLayout l = Make();
  const uint64_t spt = l.zones()[0].sectors_per_track;
  EXPECT_EQ(l.TransferTime(0, spt), Nanos(static_cast<int64_t>(std::ceil(60e9 / 7200))));
  // Across a zone boundary, each part at its own zone's rate.
  const auto& z1 = l.zones()[1];
  const Nanos t = l.TransferTime(z1.first_lba - 100, 200);
  const double expect = 100 * (60e9 / 7200) / l.zones()[0].sectors_per_track +
                        100 * (60e9 / 7200) / z1.sectors_per_track;
  EXPECT_NEAR(static_cast<double>(t.count()), expect, 1.0);
  EXPECT_EQ(l.SectorsIn(z1.first_lba - 100, t), 200u);
  EXPECT_EQ(l.SectorsIn(0, l.TransferTime(0, 12345)), 12345u);
}

TEST(ZonedLayoutTest, TheSpindleAngleFollowsTime) {
  ZonedLayout l = Make();
  const double rev = l.revolution_ns();
  EXPECT_DOUBLE_EQ(l.AngleAt(Nanos(0)), 0.0);
  EXPECT_NEAR(l.AngleAt(Nanos(static_cast<int64_t>(rev / 4))), 0.25, 1e-6);
  EXPECT_NEAR(l.AngleAt(Nanos(static_cast<int64_t>(rev * 10 + rev / 2))), 0.5, 1e-6);
  // Waiting for a sector a quarter turn ahead takes a quarter turn; for one
  // just passed, almost a whole turn.
  EXPECT_NEAR(static_cast<double>(l.WaitFor(Nanos(0), 0.25, 100).count()), rev / 4, 1);
  EXPECT_NEAR(static_cast<double>(l.WaitFor(Nanos(1000), 0.0, 100).count()), rev - 1000, 1);
  // Within the on-time slack it is not a revolution late.
  EXPECT_EQ(l.WaitFor(Nanos(50), 0.0, 100), Nanos(-50));
}

TEST(ZonedLayoutTest, RotationalWaitAveragesHalfARevolution) {
  ZonedLayout l = Make();
  Random rng(7);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const uint64_t lba = rng.Uniform(l.sectors());
    const Nanos t = Nanos(static_cast<int64_t>(rng.Uniform(1'000'000'000)));
    sum += static_cast<double>(l.WaitFor(t, l.Locate(lba).angle, 0).count());
  }
  EXPECT_NEAR(sum / n, l.revolution_ns() / 2, l.revolution_ns() * 0.005);
}

TEST(ZonedLayoutTest, RejectsFiguresThatMakeNoLayout) {
  EXPECT_FALSE(ZonedLayout::Make({1000, 8, 30, 200e6, 0.5, 7200}).ok());  // not sectors
  EXPECT_FALSE(ZonedLayout::Make({1 << 30, 8, 30, 200e6, 0.0, 7200}).ok());
  EXPECT_FALSE(ZonedLayout::Make({1 << 30, 0, 30, 200e6, 0.5, 7200}).ok());
  EXPECT_FALSE(ZonedLayout::Make({1 << 30, 8, 30, 100, 0.5, 7200}).ok());
}

TEST(HddMechanicsTest, AnAccessIsSeekThenRotationThenTransfer) {
  ZonedLayout l = Make();
  const uint64_t cyl = l.cylinders();
  auto seek = SeekCurve::Fit({1_ms, 8_ms, 16_ms, Nanos(0)}, cyl);
  ASSERT_TRUE(seek.ok());
  auto wseek = SeekCurve::Fit({1100_us, 9_ms, 17_ms, Nanos(0)}, cyl);
  ASSERT_TRUE(wseek.ok());
  HddMechanics m(l, *seek, *wseek);
  const uint64_t spt = l.zones()[0].sectors_per_track;
  // Same cylinder, sector a quarter turn ahead: no seek.
  auto a = m.Plan(Nanos(0), spt / 4, 8, false);
  EXPECT_EQ(a.distance, 0u);
  EXPECT_EQ(a.seek, Nanos(0));
  EXPECT_NEAR(static_cast<double>(a.rotate.count()),
              l.revolution_ns() * static_cast<double>(spt / 4) / static_cast<double>(spt), 1);
  EXPECT_EQ(a.transfer, l.TransferTime(spt / 4, 8));
  // Far away: the fitted seek, then the wait from the angle at arrival.
  const uint64_t far = l.sectors() - 8;
  auto b = m.Plan(Nanos(0), far, 8, false);
  EXPECT_EQ(b.distance, l.Locate(far).cylinder);
  EXPECT_EQ(b.seek, seek->Time(b.distance));
  EXPECT_EQ(b.rotate, l.WaitFor(b.seek, l.Locate(far).angle, l.HalfSectorNs(far)));
  // Writes seek on their own (slower) curve.
  EXPECT_GT(m.Plan(Nanos(0), far, 8, true).seek, b.seek);
  m.MoveHead(far + 8);
  EXPECT_EQ(m.head_cylinder(), l.cylinders() - 1);
  EXPECT_EQ(m.head_lba(), far + 8);
}

}  // namespace hdd_layout_test
}  // namespace storlab
