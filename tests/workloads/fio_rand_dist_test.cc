// random_distribution (workloads/fio/rand_dist.h, rand_dist_gen.h): fio's
// parsing rules and limits, and the shape of each distribution against
// real fio 3.33's. The reference figures come from fio's own offsets:
//   fio --name=rd --filename=/tmp/rd.dat --size=4m --io_size=80m --bs=4k
//       --rw=randread --ioengine=psync --random_distribution=D
//       --write_iolog=rd.log
// (20480 reads over 1024 blocks), counting per block the share of I/Os in
// the most used 1% (10 blocks) and 10% (102 blocks) and the blocks used.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "workloads/fio/options.h"
#include "workloads/fio/rand_dist.h"
#include "workloads/fio/rand_dist_gen.h"

namespace storlab::fio {
namespace fio_rand_dist_test {

using Kind = RandDist::Kind;

RandDist Parse(const std::string& v) {
  auto d = ParseRandDist(v);
  EXPECT_TRUE(d.ok()) << v << ": " << d.status().message();
  return d.ok() ? *d : RandDist{};
}

std::string Error(const std::string& v) {
  auto d = ParseRandDist(v);
  EXPECT_FALSE(d.ok()) << v;
  return d.ok() ? "" : d.status().message();
}

TEST(RandDistTest, ParsesFiosForms) {
  EXPECT_EQ(Parse("random").kind, Kind::kRandom);
  RandDist z = Parse("zipf");
  EXPECT_EQ(z.kind, Kind::kZipf);
  EXPECT_DOUBLE_EQ(z.value, 1.1);  // fio.h FIO_DEF_ZIPF
  EXPECT_DOUBLE_EQ(z.center, -1);
  z = Parse("zipf:0.5:0.25");
  EXPECT_DOUBLE_EQ(z.value, 0.5);
  EXPECT_DOUBLE_EQ(z.center, 0.25);
  EXPECT_DOUBLE_EQ(Parse("pareto").value, 0.2);  // FIO_DEF_PARETO
  EXPECT_DOUBLE_EQ(Parse("normal:10").value, 10);
  // zoned.fio's and rand-zones.fio's: the last zone takes what is left.
  RandDist zo = Parse("zoned:50/5:30/15:20/");
  ASSERT_EQ(zo.zones.size(), 3u);
  EXPECT_EQ(zo.zones[0].access_perc, 50u);
  EXPECT_EQ(zo.zones[2].access_perc, 20u);
  EXPECT_EQ(zo.zones[2].size, 80u);
  RandDist za = Parse("zoned_abs:60/1m:40/3m");
  EXPECT_EQ(za.kind, Kind::kZonedAbs);
  EXPECT_EQ(za.zones[1].size, 3u << 20);
}

TEST(RandDistTest, BadValuesSayWhatIsWrong) {
  // fio's own messages (options.c str_random_distribution_cb,
  // zone_split_ddir).
  EXPECT_NE(Error("zipf:1").find("zipf theta must different than 1.0"), std::string::npos);
  EXPECT_NE(Error("pareto:1.5").find("pareto input out of range"), std::string::npos);
  EXPECT_NE(Error("normal:100").find("normal deviation out of range"), std::string::npos);
  EXPECT_NE(Error("zipf:1.2:2").find("center out of range"), std::string::npos);
  EXPECT_NE(Error("zipf:fast").find("'fast' is not a number"), std::string::npos);
  EXPECT_NE(Error("zoned:50/5:30/15")
                .find("don't add up to 100 for zoned random distribution "
                      "(got=80)"),
            std::string::npos);
  EXPECT_NE(Error("zoned:60/50:60/50").find("more than 100%"), std::string::npos);
  EXPECT_NE(Error("zoned:50").find("is not PERCENT/SIZE"), std::string::npos);
  EXPECT_NE(Error("uniform").find("expected random, zipf"), std::string::npos);
}

TEST(RandDistTest, TheOptionNamesOptionAndValue) {
  JobOptions o;
  Status st = ApplyOption(&o, "random_distribution", "zipf:1", true, "job.fio:3");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(),
            "job.fio:3: option 'random_distribution': 'zipf:1': zipf theta must different than "
            "1.0");
  ASSERT_TRUE(ApplyOption(&o, "random_distribution", "pareto:0.9", true, "job.fio:4").ok());
  EXPECT_EQ(o.random_distribution, "pareto:0.9");
}

struct Shape {
  double top1, top10;  // share of I/Os on the most used 1% and 10% of blocks
  size_t distinct;     // blocks used
  double first5;       // share of I/Os on the file's first 5%
};

Shape Draw(const std::string& dist) {
  constexpr uint64_t kBlocks = 1024;
  constexpr int kIos = 20480;
  RandDistGen g(Parse(dist), kBlocks, 4096, 7);
  std::vector<int> hits(kBlocks, 0);
  for (int i = 0; i < kIos; ++i) {
    uint64_t b = g.Next();
    EXPECT_LT(b, kBlocks);
    if (b < kBlocks) ++hits[b];
  }
  Shape s{};
  for (uint64_t b = 0; b < kBlocks; ++b) {
    if (hits[b]) ++s.distinct;
    if (b < kBlocks * 5 / 100) s.first5 += hits[b];
  }
  s.first5 /= kIos;
  std::sort(hits.begin(), hits.end(), std::greater<>());
  for (int i = 0; i < 102; ++i) (i < 10 ? s.top1 : s.top10) += hits[i];
  s.top10 = (s.top10 + s.top1) / kIos;
  s.top1 /= kIos;
  return s;
}

// fio 3.33 (see the top of this file): zipf:1.2 top1 0.589, top10 0.844,
// 918 blocks; pareto:0.9 0.194, 0.902, 273; normal:10 0.049, 0.431, 567;
// zoned:50/5:30/15:20/ puts 0.501 on the first 5%.
TEST(RandDistTest, ShapesMatchRealFio) {
  Shape z = Draw("zipf:1.2");
  EXPECT_NEAR(z.top1, 0.589, 0.02);
  EXPECT_NEAR(z.top10, 0.844, 0.02);
  EXPECT_NEAR(static_cast<double>(z.distinct), 918, 40);
  Shape p = Draw("pareto:0.9");
  EXPECT_NEAR(p.top1, 0.194, 0.02);
  EXPECT_NEAR(p.top10, 0.902, 0.02);
  EXPECT_NEAR(static_cast<double>(p.distinct), 273, 40);
  Shape n = Draw("normal:10");
  EXPECT_NEAR(n.top1, 0.049, 0.02);
  EXPECT_NEAR(n.top10, 0.431, 0.02);
  EXPECT_NEAR(static_cast<double>(n.distinct), 567, 40);
  Shape zo = Draw("zoned:50/5:30/15:20/");
  EXPECT_NEAR(zo.first5, 0.501, 0.02);
}

TEST(RandDistTest, SameSeedSameBlocks) {
  RandDistGen a(Parse("zipf:1.2"), 1000, 4096, 3), b(Parse("zipf:1.2"), 1000, 4096, 3);
  RandDistGen c(Parse("zipf:1.2"), 1000, 4096, 4);
  int same = 0;
  for (int i = 0; i < 1000; ++i) {
    uint64_t x = a.Next();
    ASSERT_EQ(x, b.Next());
    same += x == c.Next();
  }
  EXPECT_LT(same, 1000);
}

}  // namespace fio_rand_dist_test
}  // namespace storlab::fio
