// The compensator's estimates: what it deducts, and what it never takes.
#include "sim/serve/compensation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <vector>

namespace storlab {
namespace compensation_test {

using namespace time_literals;

TEST(Compensation, ParsesModes) {
  EXPECT_EQ(ParseCompensation("auto")->mode, CompensationOptions::Mode::kAuto);
  EXPECT_EQ(ParseCompensation("off")->mode, CompensationOptions::Mode::kOff);
  auto f = ParseCompensation("40us");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->mode, CompensationOptions::Mode::kFixed);
  EXPECT_EQ(f->fixed, 40_us);
  EXPECT_FALSE(ParseCompensation("fast").ok());
  EXPECT_FALSE(ParseCompensation("-5us").ok());
  EXPECT_FALSE(ParseCompensation("5s").ok());
}

TEST(Compensation, OffAndFixedIgnoreTheTraffic) {
  Compensator off(*ParseCompensation("off"));
  off.ObserveIdleGap(4096, 50_us);
  off.SetBaseline(5_us);
  EXPECT_EQ(off.Deduction(4096, std::nullopt), Nanos(0));
  Compensator fixed(*ParseCompensation("30us"));
  fixed.ObserveIdleGap(4096, 50_us);
  EXPECT_EQ(fixed.Deduction(4096, 10_us), 30_us);
}

TEST(Compensation, AutoTakesALowPercentileOfGapsPlusTheOverhead) {
  Compensator c({});
  c.SetBaseline(5_us);
  EXPECT_EQ(c.Deduction(4096, std::nullopt), 5_us);  // nothing measured yet
  // 80 round trips of 50 us, 20 with a client's 1 ms pause.
  for (int i = 0; i < 100; ++i) c.ObserveIdleGap(4096, i % 5 == 0 ? 1000_us : 50_us);
  EXPECT_EQ(c.Deduction(4096, std::nullopt), 55_us);
  // The service's measured overhead replaces the start-up baseline.
  for (int i = 0; i < 40; ++i) c.ObserveOverhead(i % 2 ? 8_us : 12_us);
  EXPECT_EQ(c.Deduction(4096, std::nullopt), 58_us);
  // An idle connection's own gap caps what is taken: a shorter gap (the
  // client sent at once) gives less, a longer one (by default) the
  // estimate, and a pause keeps its length.
  EXPECT_EQ(c.Deduction(4096, 20_us), 28_us);
  EXPECT_EQ(c.Deduction(4096, 70_us), 58_us);
  EXPECT_EQ(c.Deduction(4096, 5000_us), 58_us);
  EXPECT_EQ(c.Json()["idle_gap_cap_ns"]["4096_bytes"], 50000);
  // Taken up to the window's 90th percentile, here a pause (no floor was
  // measured to tell it from a round trip): at most twice the estimate.
  CompensationOptions o;
  o.idle_quantile = 90;
  Compensator high(o);
  for (int i = 0; i < 100; ++i) high.ObserveIdleGap(4096, i % 5 == 0 ? 1000_us : 50_us);
  EXPECT_EQ(high.Deduction(4096, 70_us), 70_us);
  EXPECT_EQ(high.Deduction(4096, 5000_us), 100_us);
}

// At QD1 the round trip spreads (a vCPU woken from halt, the client's own
// turn-around): with idle_quantile 90 an idle connection's own gap is
// deducted whole up to the recent round trips' 90th percentile, so that
// the spread does not stay in every request; a request on a busy
// connection gets the estimate.
TEST(Compensation, AnIdleConnectionsGapIsTakenWholeUpToThe90thPercentile) {
  CompensationOptions o;
  o.idle_quantile = 90;  // as the NBD plugin asks
  Compensator c(o);
  c.SetBaseline(5_us);
  c.SetFloor(4096, 20_us);
  // Round trips of 50, 55, ... 95 us (six or seven of each in the window).
  for (int i = 0; i < 64; ++i) c.ObserveIdleGap(4096, Nanos((50 + i % 10 * 5) * 1000));
  EXPECT_EQ(c.Deduction(4096, std::nullopt), 60_us);  // busy: 5 + the 20th percentile (55)
  EXPECT_EQ(c.Deduction(4096, 40_us), 45_us);         // idle, shorter than the estimate
  EXPECT_EQ(c.Deduction(4096, 80_us), 85_us);         // idle: its own gap, whole
  EXPECT_EQ(c.Deduction(4096, 95_us), 95_us);         // capped: the 90th percentile, 90
  EXPECT_EQ(c.Deduction(4096, 300_us), 95_us);        // a pause: the same cap
  EXPECT_EQ(c.Json()["idle_gap_cap_ns"]["4096_bytes"], 90000);
  // A class without samples of its own keeps the borrowed estimate as cap.
  EXPECT_EQ(c.Deduction(8192, 80_us), 60_us);
}

// The window is kept sorted as samples come and go; its 20th percentile
// must be what sorting the last 64 samples gives, also with repeated values
// (the oldest leaves by value) and long after the window first filled.
TEST(Compensation, TheEstimateIsThe20thPercentileOfTheLast64Gaps) {
  Compensator c({});
  std::mt19937_64 rng(7);
  std::deque<int64_t> last;
  for (int i = 0; i < 1000; ++i) {
    const int64_t gap_us = 40 + static_cast<int64_t>(rng() % 24);  // many repeats
    c.ObserveIdleGap(4096, Nanos(gap_us * 1000));
    last.push_back(gap_us * 1000);
    if (last.size() > 64) last.pop_front();
    std::vector<int64_t> sorted(last.begin(), last.end());
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(c.Deduction(4096, std::nullopt), Nanos(sorted[(sorted.size() - 1) / 5]))
        << "after " << i + 1 << " gaps";
  }
}

TEST(Compensation, ALargerRequestBorrowsTheNearestSmallerClass) {
  Compensator c({});
  for (int i = 0; i < 10; ++i) c.ObserveIdleGap(4096, 50_us);
  EXPECT_EQ(c.Deduction(1 << 20, std::nullopt), 50_us);
  for (int i = 0; i < 10; ++i) c.ObserveIdleGap(1 << 20, 400_us);
  EXPECT_EQ(c.Deduction(1 << 20, std::nullopt), 400_us);
  EXPECT_EQ(c.Deduction(4096, std::nullopt), 50_us);  // never a larger class's
  EXPECT_EQ(c.Deduction(64 << 20, std::nullopt), 400_us);
}

TEST(Compensation, AGapLongerThanTheFloorAllowsIsAPauseNotARoundTrip) {
  Compensator c({});
  c.SetBaseline(5_us);
  c.SetFloor(4096, 20_us);  // a pause: longer than kPauseFactor x 20 us
  ASSERT_EQ(Compensator::kPauseFactor, 6);
  // A client that pauses 500 us before every request: before any round
  // trip was seen, the floor stands in, and the pause is never deducted.
  for (int i = 0; i < 100; ++i) c.ObserveIdleGap(4096, 520_us);
  EXPECT_EQ(c.Deduction(4096, 520_us), 25_us);
  EXPECT_EQ(c.Json()["pauses"], 100);
  // Round trips of 50 us (within 120 us) are samples; a pause after them
  // gets their estimate.
  for (int i = 0; i < 50; ++i) c.ObserveIdleGap(4096, 50_us);
  EXPECT_EQ(c.Deduction(4096, 520_us), 55_us);
  EXPECT_EQ(c.Deduction(4096, 30_us), 35_us);  // still capped by its own gap
  EXPECT_EQ(c.Json()["pauses"], 100);
  EXPECT_EQ(c.Json()["transport_floor_ns"]["4096_bytes"], 20000);
}

TEST(Compensation, RoundTripsUnderTheBoundWidenItToTwiceTheirEstimate) {
  Compensator c({});
  c.SetFloor(4096, 10_us);  // a hot socket pair; the export's round trip is longer
  // Round trips of 50 to 90 us: only those within 60 us are samples at
  // first; their estimate then lets the longer ones in.
  for (int i = 0; i < 64; ++i) c.ObserveIdleGap(4096, Nanos((50 + i % 5 * 10) * 1000));
  EXPECT_EQ(c.Deduction(4096, std::nullopt), 50_us);  // the 20th percentile
  const uint64_t pauses = c.Json()["pauses"];
  EXPECT_LT(pauses, 64u / 2);
  // Now the bound is 100 us: 101 us is a pause, 99 us a round trip.
  c.ObserveIdleGap(4096, 101_us);
  EXPECT_EQ(c.Json()["pauses"], pauses + 1);
  c.ObserveIdleGap(4096, 99_us);
  EXPECT_EQ(c.Json()["pauses"], pauses + 1);
}

TEST(Compensation, AClassAboveTheLargestFloorScalesItAndAnEmptyClassTakesItsFloor) {
  Compensator c({});
  c.SetFloor(4096, 20_us);
  c.SetFloor(1 << 20, 200_us);
  EXPECT_EQ(c.Deduction(1 << 20, std::nullopt), 200_us);  // no samples: the floor
  for (int i = 0; i < 10; ++i) c.ObserveIdleGap(4096, 50_us);
  EXPECT_EQ(c.Deduction(1 << 20, std::nullopt), 200_us);  // the larger of the two
  EXPECT_EQ(c.Deduction(8192, std::nullopt), 50_us);      // no floor of its own: borrows
  // 4 MiB, two classes above the largest measured: 1 MiB's floor x 4, so
  // a gap of 4.5 ms is within 6 x 800 us, a round trip.
  c.ObserveIdleGap(4 << 20, 4500_us);
  EXPECT_EQ(c.Deduction(4 << 20, std::nullopt), 4500_us);
  c.ObserveIdleGap(4 << 20, 9100_us);  // beyond 2 x 4.5 ms: a pause
  EXPECT_EQ(c.Json()["pauses"], 1);
}

}  // namespace compensation_test
}  // namespace storlab
