// gtod_reduce and disable_lat / disable_clat / disable_slat / disable_bw:
// the figures fio leaves out (io_u.c account_io_completion), checked
// against what real fio 3.33 printed for
//   fio --name=g --filename=F --ioengine=psync --size=256m --rw=randwrite
//       --runtime=2 --time_based --gtod_reduce=1
// (no slat/clat/lat lines, no percentiles, no latency buckets; bandwidth
// and IOPS samples still there).
#include <gtest/gtest.h>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_stat_disable_test {

using testing::RamStack;
using testing::RunArgs;
using testing::Split;

TEST(FioStatDisableTest, GtodReduceLeavesOutLatenciesButKeepsBandwidth) {
  auto s = RunArgs(RamStack("50us"), Split("--name=g --ioengine=libaio --iodepth=4 --size=16m "
                                           "--rw=randwrite --runtime=2 --time_based "
                                           "--gtod_reduce=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& ts = s.Job(0);
  EXPECT_GT(ts.dir[kWrite].total_ios, 1000u);
  EXPECT_EQ(ts.dir[kWrite].clat.samples(), 0u);
  EXPECT_EQ(ts.dir[kWrite].lat.samples(), 0u);
  EXPECT_EQ(ts.dir[kWrite].slat.samples(), 0u);
  EXPECT_GT(ts.dir[kWrite].bw.samples, 0u);
  EXPECT_GT(ts.dir[kWrite].iops.samples, 0u);
  for (uint64_t n : ts.lat_u) EXPECT_EQ(n, 0u);
  const std::string out = s.Normal();
  EXPECT_EQ(out.find("clat ("), std::string::npos) << out;
  EXPECT_EQ(out.find("percentiles"), std::string::npos) << out;
  EXPECT_EQ(out.find("lat (usec)"), std::string::npos) << out;
  EXPECT_NE(out.find("bw ("), std::string::npos) << out;
  auto j = s.JsonObject()["jobs"][0]["write"];
  EXPECT_EQ(j["clat_ns"]["N"], 0);
  EXPECT_FALSE(j["clat_ns"].contains("percentile"));
}

TEST(FioStatDisableTest, EachDisableLeavesOutItsOwn) {
  auto s = RunArgs(RamStack("50us"), Split("--name=d --ioengine=libaio --iodepth=4 --size=4m "
                                           "--rw=randread --disable_clat=1 --lat_percentiles=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.dir[kRead].clat.samples(), 0u);
  EXPECT_GT(ts.dir[kRead].lat.samples(), 0u);   // lat stays,
  EXPECT_GT(ts.dir[kRead].slat.samples(), 0u);  // and slat
  EXPECT_FALSE(ts.clat_percentiles);            // init.c: no clat, no clat percentiles
  EXPECT_TRUE(ts.lat_percentiles);
  auto l = RunArgs(RamStack("50us"), Split("--name=d --ioengine=libaio --iodepth=4 --size=4m "
                                           "--rw=randread --disable_lat=1 --disable_slat=1"));
  ASSERT_TRUE(l.status.ok()) << l.status.ToString();
  EXPECT_EQ(l.Job(0).dir[kRead].lat.samples(), 0u);
  EXPECT_EQ(l.Job(0).dir[kRead].slat.samples(), 0u);
  EXPECT_GT(l.Job(0).dir[kRead].clat.samples(), 0u);
}

}  // namespace fio_stat_disable_test
}  // namespace storlab::fio
