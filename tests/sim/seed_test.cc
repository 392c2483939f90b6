// What --seed perturbs (docs/sim.md "Seeds"): each model's initial state and
// per-event timing, exactly 0 for seed 1 (the reference run, byte for byte
// what it was before seeds perturbed anything), different for other seeds,
// and the same seed always the same run.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "sim/random.h"
#include "sim/virtual_driver.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace seed_test {

TEST(SeedTest, InitialOffsetsAreZeroForSeedOneAndUniformOtherwise) {
  double sum = 0;
  int n = 0;
  for (const char* name : {"disk/spindle", "disk.3/head", "nvme/stripe", ""}) {
    EXPECT_EQ(Random::InitialOffset(1, name), 0.0) << name;
    for (uint64_t seed = 2; seed < 2000; ++seed) {
      const double v = Random::InitialOffset(seed, name);
      ASSERT_GE(v, 0.0);
      ASSERT_LT(v, 1.0);
      sum += v;
      ++n;
    }
  }
  EXPECT_NEAR(sum / n, 0.5, 0.02);
  EXPECT_NE(Random::InitialOffset(2, "a"), Random::InitialOffset(3, "a"));
  EXPECT_NE(Random::InitialOffset(2, "a"), Random::InitialOffset(2, "b"));
}

TEST(SeedTest, JitterIsZeroForSeedOneAndSymmetricOtherwise) {
  Jitter one(1, "x", 1000);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(one.Next(), 0.0);
  Jitter off(7, "x", 0);
  EXPECT_EQ(off.Next(), 0.0);
  Jitter j(7, "x", 1000);
  double sum = 0, lo = 0, hi = 0;
  for (int i = 0; i < 100000; ++i) {
    const double v = j.Next();
    sum += v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_NEAR(sum / 100000, 0, 5);  // triangular on (-1000, 1000): sd 408
  EXPECT_LT(lo, -900);
  EXPECT_GT(hi, 900);
}

// QD1 random reads on a disk: the total time depends on the seed through
// the spindle, the head and each seek's jitter; seed 1 is what the model
// gave before it had seeds.
Nanos DiskRun(const std::string& stack, uint64_t seed) {
  Engine e;
  auto s = stack.find('[') == std::string::npos
               ? testing::MustLoad(stack, e, seed, DataMode::Kind::kNone)
               : testing::MustLoadText(stack, e, seed, DataMode::Kind::kNone);
  Node& root = s.stack->root();
  Random offsets(42);
  const uint64_t span = uint64_t{1} << 30;
  for (int i = 0; i < 300; ++i) {
    const uint64_t off = offsets.Uniform(span / 4096) * 4096;
    EXPECT_TRUE(testing::DoIo(e, root, Op::kRead, off, 4096, nullptr).status.ok());
  }
  return e.now();
}

TEST(SeedTest, DisksDependOnTheSeedAndRepeatForOne) {
  const Nanos one = DiskRun("hdd-7200", 1);
  EXPECT_EQ(DiskRun("hdd-7200", 1), one);
  EXPECT_EQ(DiskRun("hdd-7200", 5), DiskRun("hdd-7200", 5));
  std::set<int64_t> seen = {one.count()};
  for (uint64_t seed = 2; seed <= 6; ++seed) seen.insert(DiskRun("hdd-7200", seed).count());
  EXPECT_EQ(seen.size(), 6u);
  // seek_jitter = "0ms": only the start differs (the spindle's angle, where
  // the head rests), so a run differs from seed 1's by less than a
  // revolution (8.3 ms) plus a full-stroke seek (16 ms).
  const std::string quiet = "[node.d]\nuse = \"hdd-7200\"\nseek_jitter = \"0ms\"\n";
  const Nanos quiet_one = DiskRun(quiet, 1);
  EXPECT_EQ(quiet_one, one);
  for (uint64_t seed = 2; seed <= 6; ++seed) {
    const Nanos d = DiskRun(quiet, seed) - quiet_one;
    EXPECT_LT(std::abs(d.seconds()), 0.0245) << seed;
  }
}

}  // namespace seed_test
}  // namespace storlab
