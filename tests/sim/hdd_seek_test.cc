// The seek curve fit: it meets the manual's three figures (single-track,
// average as the manuals define it, full stroke), is continuous and smooth at
// the knee, and rejects figures the shape cannot meet.
#include "sim/devices/hdd_seek.h"

#include <gtest/gtest.h>

#include <cmath>

namespace storlab {
namespace hdd_seek_test {

using namespace time_literals;

// The manuals' weighted average, summed term by term.
double BruteForceMean(const SeekCurve& s) {
  const uint64_t max = s.max_distance();
  double num = 0, den = 0;
  for (uint64_t n = 1; n <= max; ++n) {
    double w = static_cast<double>(max + 1 - n);
    num += w * s.Millis(static_cast<double>(n));
    den += w;
  }
  return num / den;
}

struct Case {
  double ttt, avg, full;
  uint64_t cylinders;
  double settle = 0;  // ms; 0: not given
};

class SeekFit : public ::testing::TestWithParam<Case> {};

TEST_P(SeekFit, HitsItsThreePointsExactly) {
  const Case c = GetParam();
  auto r = SeekCurve::Fit({Nanos::FromSeconds(c.ttt / 1e3), Nanos::FromSeconds(c.avg / 1e3),
                           Nanos::FromSeconds(c.full / 1e3), Nanos::FromSeconds(c.settle / 1e3)},
                          c.cylinders);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const SeekCurve& s = *r;
  EXPECT_NEAR(s.Millis(1), c.ttt, 1e-9);
  EXPECT_NEAR(s.Millis(static_cast<double>(c.cylinders - 1)), c.full, 1e-9);
  EXPECT_NEAR(BruteForceMean(s), c.avg, 1e-6);  // within a nanosecond
  EXPECT_EQ(s.Time(0), Nanos(0));
  if (c.settle > 0) {
    EXPECT_DOUBLE_EQ(s.a(), c.settle);
  }
  // Continuous and smooth at the knee; increasing everywhere from d = 1.
  const double k = s.knee();
  EXPECT_NEAR(s.a() + s.b() * std::sqrt(k), s.c() + s.e() * k, 1e-9);
  EXPECT_NEAR(s.b() / (2 * std::sqrt(k)), s.e(), 1e-12);
  EXPECT_GT(s.b(), 0);
  EXPECT_GT(s.e(), 0);
  double prev = 0;
  for (uint64_t d = 1; d < c.cylinders; d += 1 + d / 7) {
    EXPECT_GT(s.Millis(static_cast<double>(d)), prev) << d;
    prev = s.Millis(static_cast<double>(d));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Drives, SeekFit,
    ::testing::Values(Case{0.23, 7.4, 16.0, 670000},       // WD Ultrastar DC HC310 read, 3.5" 7200
                      Case{0.32, 8.2, 17.0, 670000},       // same, write
                      Case{1.0, 12.0, 20.0, 150000},       // Hitachi Travelstar 5K320 read
                      Case{1.1, 13.0, 21.0, 150000},       // same, write
                      Case{1.0, 8.5, 16.0, 2000},          // a small disk
                      Case{0.5, 4.0, 9.0, 40},             // tiny: the exact discrete sums
                      Case{0.23, 7.4, 16.0, 670000, 0.5},  // with a settle time (hdd-7200)
                      Case{0.32, 8.2, 17.0, 670000, 0.6}, Case{1.0, 12.0, 20.0, 150000, 3.5}));

TEST(SeekCurveTest, RejectsFiguresTheShapeCannotMeet) {
  // A straight line from 1 to 16 ms averages ~6 ms: a lower average would
  // need a convex curve.
  auto low = SeekCurve::Fit({1_ms, 3_ms, 16_ms, Nanos(0)}, 100000);
  ASSERT_FALSE(low.ok());
  EXPECT_NE(low.status().message().find("at least 6.0"), std::string::npos)
      << low.status().message();
  EXPECT_FALSE(SeekCurve::Fit({1_ms, 16_ms, 16_ms, Nanos(0)}, 100000).ok());
  EXPECT_FALSE(SeekCurve::Fit({9_ms, 8_ms, 16_ms, Nanos(0)}, 100000).ok());
  EXPECT_FALSE(SeekCurve::Fit({1_ms, 8_ms, 16_ms, Nanos(0)}, 2).ok());
  // A settle time too short for the average: even a pure √ from it falls short.
  auto settle = SeekCurve::Fit({1_ms, 12_ms, 20_ms, 500_us}, 150000);
  ASSERT_FALSE(settle.ok());
  EXPECT_NE(settle.status().message().find("raise the settle"), std::string::npos);
}

TEST(SeekCurveTest, ThroughTheSingleTrackSeekWhenTheAverageAllows) {
  // 3.5" figures: the √ part passes through t(1).
  auto desk = SeekCurve::Fit({230_us, 7400_us, 16_ms, Nanos(0)}, 670000);
  ASSERT_TRUE(desk.ok());
  EXPECT_TRUE(desk->through_single_track());
  EXPECT_LT(desk->knee(), 669999);
  // 2.5" figures (12 ms average, 20 ms full stroke): a pure √ curve through
  // t(1) averages only ~11.1 ms, so the single-track seek stands alone.
  auto note = SeekCurve::Fit({1_ms, 12_ms, 20_ms, Nanos(0)}, 150000);
  ASSERT_TRUE(note.ok());
  EXPECT_FALSE(note->through_single_track());
  EXPECT_GT(note->Millis(2), 1.0);
}

TEST(SeekCurveTest, ShortSeeksFollowTheSquareRoot) {
  auto r = SeekCurve::Fit({230_us, 7400_us, 16_ms, Nanos(0)}, 670000);
  ASSERT_TRUE(r.ok());
  // Below the knee, t(4d) − a = 2 (t(d) − a).
  ASSERT_GT(r->knee(), 400);
  EXPECT_NEAR(r->Millis(400) - r->a(), 2 * (r->Millis(100) - r->a()), 1e-9);
  // A seek over a third of the stroke costs about the average.
  EXPECT_NEAR(r->Millis(670000 / 3.0), 7.4, 1.5);
}

}  // namespace hdd_seek_test
}  // namespace storlab
