// The run coding of the SSD's saved arrays (sim/devices/ssd_state_runs.h):
// values added one at a time or a run at a time give the same bytes, which
// read back as runs (not expanded) to the same values.
#include "sim/devices/ssd_state_runs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/random.h"
#include "sim/state_coding.h"

namespace storlab {
namespace ssd_state_runs_test {

using ssd_state::kAnySize;
using ssd_state::RunList;
using ssd_state::RunWriter;

// Values in stretches: equal, counting up or down by a step, or random.
std::vector<uint32_t> Stretches(uint64_t seed) {
  Random r(seed);
  std::vector<uint32_t> v;
  while (v.size() < 2000) {
    const uint64_t n = 1 + r.Uniform(40);
    const int64_t step = static_cast<int64_t>(r.Uniform(5)) - 2;
    int64_t x = static_cast<int64_t>(r.Uniform(1000)) + 200;
    const bool random = r.Uniform(4) == 0;
    for (uint64_t i = 0; i < n; ++i, x += step) {
      v.push_back(static_cast<uint32_t>(random ? r.Uniform(100) : x));
    }
  }
  return v;
}

TEST(SsdStateRuns, RunsAddedWholeWriteTheBytesOfTheirValues) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<uint32_t> v = Stretches(seed);
    StateWriter one, whole;
    ssd_state::PutInts(one, v);
    {
      RunWriter runs(whole, v.size());
      // Cut into pieces at random, each piece that counts by one step added
      // as a run.
      Random r(seed + 100);
      for (size_t i = 0; i < v.size();) {
        size_t n = 1 + r.Uniform(10);
        n = std::min(n, v.size() - i);
        if (n >= 2) {
          const int64_t step = int64_t{v[i + 1]} - int64_t{v[i]};
          size_t k = 2;
          while (k < n && int64_t{v[i + k]} - int64_t{v[i + k - 1]} == step) ++k;
          runs.Add(v[i], k, step);
          i += k;
        } else {
          runs.Add(v[i]);
          ++i;
        }
      }
    }
    EXPECT_EQ(whole.data(), one.data()) << seed;
    StateReader in(one.data(), "test");
    const RunList<uint32_t> list(in, v.size(), "values");
    ASSERT_TRUE(in.ok()) << in.status().message();
    EXPECT_EQ(list.Expand(0, list.size()), v);
    EXPECT_EQ(list.Expand(100, 250), std::vector<uint32_t>(v.begin() + 100, v.begin() + 250));
    for (size_t i = 0; i < v.size(); i += 37) EXPECT_EQ(list.at(i), v[i]);
  }
}

TEST(SsdStateRuns, APaddedArrayReadsBackWithoutExpandingItsTail) {
  StateWriter w;
  const uint64_t n = uint64_t{1} << 28;  // a 1 TiB drive's units
  ssd_state::PutPadded(w, std::vector<uint32_t>{5, 6, 7, 0xffffffffu}, n, 0xffffffffu);
  EXPECT_LT(w.data().size(), 40u);
  StateReader in(w.data(), "test");
  const RunList<uint32_t> list(in, n, "map");
  ASSERT_TRUE(in.ok());
  EXPECT_TRUE(list.Follows(0, 3, 5, 1));
  EXPECT_FALSE(list.Follows(0, 4, 5, 1));
  EXPECT_TRUE(list.Follows(3, n, 0xffffffffu, 0));
  EXPECT_FALSE(list.Follows(2, n, 0xffffffffu, 0));
  EXPECT_EQ(list.Expand(1, 4), (std::vector<uint32_t>{6, 7, 0xffffffffu}));
}

TEST(SsdStateRuns, BadRunsAreRefusedNamingTheArray) {
  struct Case {
    std::vector<uint64_t> fields;  // U64s as written (steps zigzagged)
    size_t n;
    const char* error;
  };
  const Case cases[] = {
      {{3, 2, 3}, 4, "map: another size"},
      {{3, 2, 4}, 3, "map: a run past the end"},
      {{3, 2, 0}, 3, "map: a run past the end"},
      {{2, 1, 1, 4, 1}, 2, "map: a value out of range"},           // 0 - 2 < 0
      {{2, 0x1fe, 1, 2, 1}, 2, "map: a value out of range"},       // 255 + 1 > uint8
      {{uint64_t{1} << 29, 0, 1}, kAnySize, "map: another size"},  // past kMostEntries
      {{2, 2}, 2, "truncated"},
  };
  for (const Case& c : cases) {
    StateWriter w;
    for (uint64_t f : c.fields) w.U64(f);
    StateReader in(w.data(), "test");
    const RunList<uint8_t> list(in, c.n, "map");
    EXPECT_FALSE(in.ok());
    EXPECT_NE(in.status().message().find(c.error), std::string::npos) << in.status().message();
    EXPECT_EQ(list.size(), 0u);
  }
}

}  // namespace ssd_state_runs_test
}  // namespace storlab
