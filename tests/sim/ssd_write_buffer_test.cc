// SsdWriteBuffer: admission, program units, and the durable mark when
// programs end out of order.
#include "sim/devices/ssd_write_buffer.h"

#include <gtest/gtest.h>

namespace storlab {
namespace ssd_write_buffer_test {

TEST(SsdWriteBuffer, AdmitsWhatFitsAndAnythingWhenEmpty) {
  SsdWriteBuffer b(1 << 20, false);
  EXPECT_TRUE(b.HasRoom(4 << 20));  // empty: takes anything
  b.Hold(800 << 10);
  EXPECT_TRUE(b.HasRoom(224 << 10));
  EXPECT_FALSE(b.HasRoom(225 << 10));
}

TEST(SsdWriteBuffer, GathersWritesIntoUnitsAndMergesTheirRanges) {
  SsdWriteBuffer b(1 << 20, /*keep_ranges=*/true);
  b.Open(32768, true);
  EXPECT_EQ(b.open_seq(), 1u);
  EXPECT_EQ(b.Fill(0, 8192, Nanos(5)), 8192u);
  EXPECT_EQ(b.Fill(8192, 4096, Nanos(9)), 4096u);
  EXPECT_EQ(b.Fill(1 << 20, 65536, Nanos(7)), 20480u);  // only what fits
  EXPECT_TRUE(b.open_full());
  SsdWriteBuffer::Unit& u = b.Close();
  EXPECT_EQ(u.seq, 1u);
  EXPECT_EQ(u.ready, Nanos(9));
  ASSERT_EQ(u.ranges.size(), 2u);
  EXPECT_EQ(u.ranges[0], std::make_pair(uint64_t{0}, uint64_t{12288}));
  EXPECT_EQ(u.ranges[1], std::make_pair(uint64_t{1} << 20, uint64_t{20480}));
  EXPECT_FALSE(b.has_open());
  EXPECT_EQ(b.last_closed(), 1u);
}

TEST(SsdWriteBuffer, TheDurableMarkWaitsForEveryEarlierProgram) {
  SsdWriteBuffer b(1 << 20, false);
  for (int i = 0; i < 3; ++i) {
    b.Hold(4096);
    b.Open(16384, false);
    b.Fill(i * 4096, 4096, Nanos(0));
    b.Close();
  }
  EXPECT_EQ(b.held_bytes(), 12288u);
  EXPECT_EQ(b.Done(2).data_bytes, 4096u);
  EXPECT_EQ(b.durable_through(), 0u);  // program 1 still runs
  EXPECT_EQ(b.held_bytes(), 8192u);
  b.Done(1);
  EXPECT_EQ(b.durable_through(), 2u);
  EXPECT_TRUE(b.programs_pending());
  b.Done(3);
  EXPECT_EQ(b.durable_through(), 3u);
  EXPECT_FALSE(b.programs_pending());
  EXPECT_EQ(b.held_bytes(), 0u);
}

TEST(SsdWriteBuffer, ClearForgetsEverythingButKeepsNumbering) {
  SsdWriteBuffer b(1 << 20, true);
  b.Hold(4096);
  b.Open(16384, true);
  b.Fill(0, 4096, Nanos(0));
  b.Close();
  b.Open(16384, true);
  b.Clear();
  EXPECT_EQ(b.held_bytes(), 0u);
  EXPECT_FALSE(b.has_open());
  EXPECT_EQ(b.durable_through(), b.last_closed());
  b.Open(16384, true);
  EXPECT_EQ(b.open_seq(), 2u);
}

}  // namespace ssd_write_buffer_test
}  // namespace storlab
