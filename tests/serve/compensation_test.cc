// The compensator's estimates: what it deducts, and what it never takes.
#include "sim/serve/compensation.h"

#include <gtest/gtest.h>

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
  // client sent at once) gives less, a pause keeps its length.
  EXPECT_EQ(c.Deduction(4096, 20_us), 28_us);
  EXPECT_EQ(c.Deduction(4096, 5000_us), 58_us);
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

}  // namespace compensation_test
}  // namespace storlab
