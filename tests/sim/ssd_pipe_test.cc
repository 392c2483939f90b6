// SsdPipe, SsdByteTime and SsdDivisor: exact reservations in virtual time.
#include "sim/devices/ssd_pipe.h"

#include <gtest/gtest.h>

namespace storlab {
namespace ssd_pipe_test {

TEST(SsdPipe, ServesWorkReadyNowFirstComeFirstServed) {
  SsdPipe p;
  EXPECT_EQ(p.Reserve(Nanos(0), Nanos(0), Nanos(10)), Nanos(10));
  EXPECT_EQ(p.Reserve(Nanos(0), Nanos(0), Nanos(10)), Nanos(20));
  EXPECT_EQ(p.Reserve(Nanos(5), Nanos(5), Nanos(10)), Nanos(30));
  // Idle until 50: the next piece starts at once.
  EXPECT_EQ(p.Reserve(Nanos(50), Nanos(50), Nanos(10)), Nanos(60));
  EXPECT_EQ(p.busy(), Nanos(40));
}

TEST(SsdPipe, WorkReadyLaterNeverFinishesEarlyAndLeavesNoGap) {
  SsdPipe p;
  // Data arrives at 100: done at 110 at the earliest.
  EXPECT_EQ(p.Reserve(Nanos(0), Nanos(100), Nanos(10)), Nanos(110));
  // Work ready now is not held behind it.
  EXPECT_EQ(p.Reserve(Nanos(0), Nanos(0), Nanos(10)), Nanos(20));
  // But the pipe's capacity is conserved: 12 pieces of 10 reserved at 0
  // cannot all be done before 120.
  for (int i = 0; i < 10; ++i) p.Reserve(Nanos(0), Nanos(0), Nanos(10));
  EXPECT_EQ(p.next_free(), Nanos(120));
  p.Reset();
  EXPECT_EQ(p.Reserve(Nanos(0), Nanos(0), Nanos(1)), Nanos(1));
}

TEST(SsdPipe, ByteTimeRoundsUpToWholeNanoseconds) {
  EXPECT_EQ(SsdByteTime(4.096e9)(4096), Nanos(1000));
  EXPECT_EQ(SsdByteTime(3e9)(1), Nanos(1));
  EXPECT_EQ(SsdByteTime(3e9)(3), Nanos(1));
  EXPECT_EQ(SsdByteTime(560e6)(1 << 20), TransferTime(1 << 20, 560e6));
  EXPECT_EQ(SsdByteTime(1e9)(0), Nanos(0));
}

TEST(SsdPipe, DivisorMatchesDivisionForAnyDivisor) {
  for (uint64_t d : {1u, 2u, 3u, 7u, 8u, 64u, 96u, 16384u}) {
    SsdDivisor div(d);
    for (uint64_t x : {0ull, 1ull, 5ull, 63ull, 64ull, 1000003ull, 1ull << 40}) {
      EXPECT_EQ(div.Div(x), x / d) << x << " / " << d;
      EXPECT_EQ(div.Mod(x), x % d) << x << " % " << d;
    }
  }
}

}  // namespace ssd_pipe_test
}  // namespace storlab
