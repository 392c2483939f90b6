// SsdFlashArray: striping, die and plane occupancy, channel sharing and
// background debt, asserted exactly in virtual time.
#include "sim/devices/ssd_flash.h"

#include <gtest/gtest.h>

namespace storlab {
namespace ssd_flash_test {

using namespace time_literals;

SsdConfig SmallArray() {
  SsdConfig c;
  c.channels = 2;
  c.dies_per_channel = 2;  // 4 dies
  c.planes = 2;            // 8 read units
  c.page_size = 16384;
  c.channel_bytes_per_s = 1.6384e9;  // 4096 B in 2.5 us
  c.read_time = 50_us;
  c.slc_read_time = 30_us;
  c.program_time = 2_ms;
  c.slc_program_time = 200_us;
  return c;
}

TEST(SsdFlash, OneReadTakesTheReadTimeAndTheChannelTransfer) {
  SsdFlashArray f(SmallArray());
  EXPECT_EQ(f.ReadPage(0_us, 0, 4096, false, 0_us), 52500_ns);
  EXPECT_EQ(f.ReadPage(0_us, 1, 4096, true, 0_us), 32500_ns);
}

TEST(SsdFlash, ConsecutivePagesSpreadOverEveryUnit) {
  SsdFlashArray f(SmallArray());
  // Pages 0..7 land on 8 different units: all read in parallel. Each
  // channel carries 4 transfers of 2.5 us, well inside the 50 us reads.
  for (uint64_t p = 0; p < 8; ++p) EXPECT_EQ(f.ReadPage(0_us, p, 4096, false, 0_us), 52500_ns);
  // Page 8 is on the same unit as page 0: it waits for that read.
  EXPECT_EQ(f.ReadPage(0_us, 8, 4096, false, 0_us), 102500_ns);
  EXPECT_EQ(f.die_busy(), 50_us * 9);
}

TEST(SsdFlash, ProgramsGoToTheDiesInTurnAndBlockTheirReads) {
  SsdFlashArray f(SmallArray());
  // 32 KiB cross the channel in 20 us, then an SLC program of 200 us.
  EXPECT_EQ(f.Program(0_us, 32768, true, 0_us), 220_us);  // die 0
  EXPECT_EQ(f.Program(0_us, 32768, true, 0_us), 220_us);  // die 1, other channel
  EXPECT_EQ(f.Program(0_us, 32768, true, 0_us), 240_us);  // die 2 shares die 0's channel
  EXPECT_EQ(f.die_free(0), 220_us);
  EXPECT_EQ(f.die_free(3), 0_us);
  // Page 0 is on die 0 plane 0, page 4 on die 0 plane 1: both wait.
  EXPECT_EQ(f.ReadPage(0_us, 0, 4096, false, 0_us), 272500_ns);
  EXPECT_EQ(f.ReadPage(0_us, 4, 4096, false, 0_us), 272500_ns);
  // Page 3 is on die 3, which is idle.
  EXPECT_EQ(f.ReadPage(0_us, 3, 4096, false, 0_us), 52500_ns);
}

TEST(SsdFlash, BackgroundDebtIsWorkedOffInQuantaAndBeforePrograms) {
  SsdFlashArray f(SmallArray());
  EXPECT_FALSE(f.owes());
  f.AddWork(5_ms);
  EXPECT_TRUE(f.owes());
  // Every die works 1 ms of its debt.
  EXPECT_EQ(f.WorkOff(0_us, 1_ms), 1_ms);
  for (uint32_t d = 0; d < 4; ++d) EXPECT_EQ(f.owed(d), 4_ms);
  // A program first pays an installment: a quarter of the debt, at least
  // one native program time (2 ms here).
  EXPECT_EQ(f.Program(1_ms, 32768, true, 1_ms), 1_ms + 2_ms + 200_us);
  EXPECT_EQ(f.owed(0), 2_ms);
  EXPECT_EQ(f.WorkOff(10_ms, 10_ms), 14_ms);  // die 0 owed 2 ms, the others 4 ms
  EXPECT_EQ(f.die_free(0), 12_ms);
  EXPECT_FALSE(f.owes());
  EXPECT_EQ(f.WorkOff(20_ms, 1_ms), 20_ms);  // nothing owed: nothing happens
}

TEST(SsdFlash, OccupyHoldsADieAndResetForgetsReservations) {
  SsdFlashArray f(SmallArray());
  EXPECT_EQ(f.Occupy(0_us, 2, 100_us, 1_ms), 1100_us);
  EXPECT_EQ(f.Occupy(0_us, 2, 0_us, 1_ms), 2100_us);
  f.Reset();
  EXPECT_EQ(f.die_free(2), 0_us);
}

}  // namespace ssd_flash_test
}  // namespace storlab
