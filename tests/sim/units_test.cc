#include "sim/profile/units.h"

#include <gtest/gtest.h>

namespace storlab {
namespace units_test {

using namespace time_literals;

TEST(UnitsTest, Sizes) {
  EXPECT_EQ(*ParseSize("4096"), 4096u);
  EXPECT_EQ(*ParseSize("64KiB"), 65536u);
  EXPECT_EQ(*ParseSize("64k"), 65536u);  // fio/nbdkit: a bare K is binary
  EXPECT_EQ(*ParseSize("6TB"), 6000000000000u);
  EXPECT_EQ(*ParseSize("6 TiB"), uint64_t{6} << 40);
  EXPECT_EQ(*ParseSize("1.5KiB"), 1536u);
  EXPECT_EQ(*ParseSize("256m"), uint64_t{256} << 20);
  EXPECT_EQ(*ParseSize(" 512B "), 512u);
  EXPECT_FALSE(ParseSize("").ok());
  EXPECT_FALSE(ParseSize("-4k").ok());
  EXPECT_FALSE(ParseSize("4 parsecs").ok());
  EXPECT_FALSE(ParseSize("0.3B").ok());
  EXPECT_FALSE(ParseSize("99999999EiB").ok());
  EXPECT_NE(ParseSize("-4k").status().message().find("negative"), std::string::npos);
  EXPECT_NE(ParseSize("4 parsecs").status().message().find("parsecs"), std::string::npos);
}

TEST(UnitsTest, Durations) {
  EXPECT_EQ(*ParseDuration("500us"), 500_us);
  EXPECT_EQ(*ParseDuration("4.17ms"), Nanos(4170000));
  EXPECT_EQ(*ParseDuration("30s"), 30_s);
  EXPECT_EQ(*ParseDuration("2min"), 120_s);
  EXPECT_EQ(*ParseDuration("250ns"), 250_ns);
  EXPECT_FALSE(ParseDuration("5").ok());  // needs a unit
  EXPECT_FALSE(ParseDuration("5 fortnights").ok());
  EXPECT_FALSE(ParseDuration("-1s").ok());
}

TEST(UnitsTest, Rates) {
  EXPECT_DOUBLE_EQ(*ParseRate("117.7MB/s"), 117.7e6);
  EXPECT_DOUBLE_EQ(*ParseRate("6Gb/s"), 6e9 / 8);
  EXPECT_DOUBLE_EQ(*ParseRate("500MiB/s"), 500.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(*ParseRate("1.5 GB/s"), 1.5e9);
  EXPECT_DOUBLE_EQ(*ParseRate("0B/s"), 0);
  EXPECT_FALSE(ParseRate("117MB").ok());  // per what?
  EXPECT_FALSE(ParseRate("fast").ok());
  EXPECT_FALSE(ParseRate("3 furlongs/s").ok());
}

TEST(UnitsTest, FormattingRoundTrips) {
  for (Nanos d : {0_ns, 250_ns, 53_us, Nanos(4170000), 30_s, Nanos(1234567891)}) {
    auto back = ParseDuration(FormatDuration(d));
    ASSERT_TRUE(back.ok()) << FormatDuration(d);
    EXPECT_EQ(*back, d) << FormatDuration(d);
  }
  EXPECT_EQ(FormatDuration(Nanos(4170000)), "4.17ms");
  for (double r : {117.7e6, 6e9 / 8, 1.1e9, 450e3}) {
    auto back = ParseRate(FormatRate(r));
    ASSERT_TRUE(back.ok()) << FormatRate(r);
    EXPECT_NEAR(*back, r, r * 1e-6) << FormatRate(r);
  }
  EXPECT_EQ(FormatSize(65536), "64.0 KiB");
}

// Found by fuzzing (tests/fuzz/regression/units/): sizes and durations are
// exact to the byte and nanosecond at any magnitude, and huge rates are
// refused rather than printed wrong.
TEST(UnitsTest, ExactBeyondDoublePrecision) {
  EXPECT_EQ(*ParseSize("9007199254740993"), 9007199254740993u);  // 2^53 + 1
  EXPECT_EQ(*ParseSize("18446744073709551615"), UINT64_MAX);
  EXPECT_FALSE(ParseSize("18446744073709551616").ok());
  EXPECT_EQ(*ParseSize("1.5e3KiB"), 1536000u);
  EXPECT_FALSE(ParseSize("1.0000000000000000000000001KiB").ok());  // not whole
  EXPECT_EQ(*ParseDuration("4475807.192368548s"), Nanos(4475807192368548));
  EXPECT_EQ(*ParseDuration("1.0000000005ns"), 1_ns);  // nearest, halves up
  EXPECT_EQ(*ParseDuration("1.5ns"), 2_ns);
  for (Nanos d : {Nanos(4475807192368548), Nanos(9'199'999'999'999'999'999)}) {
    EXPECT_EQ(*ParseDuration(FormatDuration(d)), d) << FormatDuration(d);
  }
  EXPECT_EQ(FormatDuration(Nanos(-1500)), "-1.5us");
  EXPECT_EQ(FormatDuration(Nanos(INT64_MIN)), "-9223372036.854775808s");
  EXPECT_FALSE(ParseRate(".1e183/sec").ok());
  EXPECT_EQ(FormatRate(1e30), "1000000000000000000000GB/s");
}

}  // namespace units_test
}  // namespace storlab
