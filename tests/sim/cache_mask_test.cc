#include "sim/layers/cache/cache_mask.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/random.h"

namespace storlab {
namespace cache_mask_test {

using Runs = std::vector<std::pair<uint32_t, uint32_t>>;

// The runs of `want` bits in [first, first + count), sector by sector.
Runs SlowRuns(const std::vector<bool>& bits, uint32_t first, uint32_t count, bool want) {
  Runs out;
  for (uint32_t i = first; i < first + count; ++i) {
    if (bits[i] != want) continue;
    if (!out.empty() && out.back().first + out.back().second == i) {
      ++out.back().second;
    } else {
      out.emplace_back(i, 1);
    }
  }
  return out;
}

// Sets (or clears) [first, first + count) in the mask and in its model.
void Apply(BlockMask& m, std::vector<bool>& bits, uint32_t first, uint32_t count, bool set) {
  if (set) {
    m.Set(first, count);
  } else {
    m.Clear(first, count);
  }
  for (uint32_t i = first; i < first + count; ++i) bits[i] = set;
}

TEST(BlockMaskTest, RunsAgreeWithASectorBySectorScan) {
  Random rng(7);
  for (const uint32_t sectors : {1u, 8u, 63u, 64u, 65u, 128u, 200u, 256u}) {
    for (int trial = 0; trial < 200; ++trial) {
      BlockMask m(sectors);
      std::vector<bool> bits(sectors, false);
      // A few runs set, some cleared again: long runs across words, and
      // single sectors.
      for (int k = 0; k < 4; ++k) {
        const auto first = static_cast<uint32_t>(rng.Uniform(sectors));
        const auto count = static_cast<uint32_t>(1 + rng.Uniform(sectors - first));
        Apply(m, bits, first, count, rng.Bernoulli(0.6));
      }
      const auto first = static_cast<uint32_t>(rng.Uniform(sectors));
      const auto count = static_cast<uint32_t>(rng.Uniform(sectors - first + 1));
      for (const bool want : {true, false}) {
        const BlockMask::RunList got = m.Runs(first, count, want);
        EXPECT_EQ(Runs(got.begin(), got.end()), SlowRuns(bits, first, count, want))
            << sectors << " sectors, [" << first << ", +" << count << "), want " << want;
      }
      const BlockMask::RunList all = m.Runs();
      EXPECT_EQ(Runs(all.begin(), all.end()), SlowRuns(bits, 0, sectors, true));
    }
  }
}

// Set, Clear, Count, AllSet and AnySet against a sector-by-sector model,
// in one word (at most 64 sectors: inline) and in several, with empty
// ranges anywhere, the end included.
TEST(BlockMaskTest, RangeQueriesAgreeWithASectorBySectorModel) {
  Random rng(11);
  for (const uint32_t sectors : {1u, 8u, 63u, 64u, 65u, 200u}) {
    BlockMask m(sectors);
    std::vector<bool> bits(sectors, false);
    for (int step = 0; step < 2000; ++step) {
      const auto first = static_cast<uint32_t>(rng.Uniform(sectors + 1));
      const auto count = static_cast<uint32_t>(rng.Uniform(sectors - first + 1));
      uint32_t n = 0;
      bool all = true, any = false;
      for (uint32_t i = first; i < first + count; ++i) {
        n += bits[i];
        all = all && bits[i];
        any = any || bits[i];
      }
      ASSERT_EQ(m.Count(first, count), n) << sectors << " [" << first << ", +" << count << ")";
      ASSERT_EQ(m.AllSet(first, count), all) << sectors << " [" << first << ", +" << count << ")";
      ASSERT_EQ(m.AnySet(first, count), any) << sectors << " [" << first << ", +" << count << ")";
      Apply(m, bits, first, count, rng.Bernoulli(0.5));
      uint32_t total = 0;
      for (const bool b : bits) total += b;
      ASSERT_EQ(m.Count(), total);
      ASSERT_EQ(m.all(), total == sectors);
      ASSERT_EQ(m.any(), total > 0);
    }
  }
}

}  // namespace cache_mask_test
}  // namespace storlab
