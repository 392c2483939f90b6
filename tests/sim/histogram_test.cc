#include "sim/histogram.h"

#include <gtest/gtest.h>

namespace storlab {
namespace histogram_test {

TEST(HistogramTest, SmallValuesAreExact) {
  for (uint64_t v = 0; v < 128; ++v) {
    EXPECT_EQ(LatencyHistogram::ValueToIndex(v), v);
    EXPECT_EQ(LatencyHistogram::IndexToValue(static_cast<unsigned>(v)), v);
  }
}

TEST(HistogramTest, BucketsFollowFiosGeometry) {
  // 128..255 is split into buckets of 2; 1 ms falls into a bucket of 2^13 ns.
  EXPECT_EQ(LatencyHistogram::ValueToIndex(128), 128u);
  EXPECT_EQ(LatencyHistogram::ValueToIndex(129), 128u);
  EXPECT_EQ(LatencyHistogram::ValueToIndex(130), 129u);
  EXPECT_EQ(LatencyHistogram::IndexToValue(128), 129u);  // midpoint of [128, 130)
  // The relative error is small across the tracked range (fio tracks up to
  // 2^34 ns, about 17 s; larger values share the last bucket).
  for (uint64_t v = 200; v < (uint64_t{1} << 34); v = v * 3 / 2 + 7) {
    uint64_t back = LatencyHistogram::IndexToValue(LatencyHistogram::ValueToIndex(v));
    EXPECT_LE(std::abs(static_cast<double>(back) - static_cast<double>(v)),
              static_cast<double>(v) / 64.0)
        << v;
  }
  // Huge values land in the last bucket rather than overflowing.
  EXPECT_EQ(LatencyHistogram::ValueToIndex(UINT64_MAX), LatencyHistogram::kBuckets - 1);
}

TEST(HistogramTest, PercentilesAndMomentsMatchFio) {
  LatencyHistogram h;
  for (uint64_t v = 1; v <= 100; ++v) h.Add(v);
  EXPECT_EQ(h.samples(), 100u);
  EXPECT_EQ(h.min(), 1u);
  EXPECT_EQ(h.max(), 100u);
  EXPECT_DOUBLE_EQ(h.mean(), 50.5);
  EXPECT_NEAR(h.stddev(), 29.011491975882016, 1e-9);
  EXPECT_EQ(h.Percentile(50), 50u);
  EXPECT_EQ(h.Percentile(1), 1u);
  EXPECT_EQ(h.Percentile(99.99), 100u);
  auto all = h.Percentiles(LatencyHistogram::DefaultPercentiles());
  ASSERT_EQ(all.size(), 17u);
  EXPECT_EQ(all[0], 1u);    // 1st
  EXPECT_EQ(all[6], 50u);   // 50th
  EXPECT_EQ(all[12], 99u);  // 99th
}

TEST(HistogramTest, MergeEqualsAddingEverything) {
  LatencyHistogram a, b, all;
  for (uint64_t v = 0; v < 1000; ++v) {
    uint64_t x = v * v * 37 % 100003;
    (v % 3 ? a : b).Add(x);
    all.Add(x);
  }
  a.Merge(b);
  EXPECT_EQ(a.samples(), all.samples());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_NEAR(a.mean(), all.mean(), 1e-6);
  EXPECT_NEAR(a.stddev(), all.stddev(), 1e-6);
  EXPECT_EQ(a.Percentiles(LatencyHistogram::DefaultPercentiles()),
            all.Percentiles(LatencyHistogram::DefaultPercentiles()));
}

TEST(HistogramTest, EmptyHistogramReportsZeros) {
  LatencyHistogram h;
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.Percentile(50), 0u);
  EXPECT_EQ(h.stddev(), 0);
}

}  // namespace histogram_test
}  // namespace storlab
