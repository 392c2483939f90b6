// AllZero against the plain definition: every length up to a few cache
// lines, every position of one non-zero byte, any alignment.
#include "sim/all_zero.h"

#include <gtest/gtest.h>

#include <vector>

namespace storlab {
namespace {

TEST(AllZeroTest, FindsANonZeroByteAnywhere) {
  std::vector<uint8_t> buf(300, 0);
  for (uint64_t start = 0; start < 9; ++start) {
    for (uint64_t n = 0; start + n <= buf.size(); ++n) {
      ASSERT_TRUE(AllZero(buf.data() + start, n)) << start << " " << n;
      for (uint64_t at = 0; at < n; ++at) {
        buf[start + at] = 0x80;
        ASSERT_FALSE(AllZero(buf.data() + start, n)) << start << " " << n << " " << at;
        buf[start + at] = 0;
      }
    }
  }
}

TEST(AllZeroTest, LooksOnlyAtItsRange) {
  std::vector<uint8_t> buf(256, 0xff);
  for (uint64_t i = 64; i < 192; ++i) buf[i] = 0;
  EXPECT_TRUE(AllZero(buf.data() + 64, 128));
  EXPECT_FALSE(AllZero(buf.data() + 63, 128));
  EXPECT_FALSE(AllZero(buf.data() + 64, 129));
}

}  // namespace
}  // namespace storlab
