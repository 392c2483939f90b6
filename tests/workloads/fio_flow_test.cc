// flow, flow_id, flow_sleep (workloads/fio/flow.h): jobs of one flow issue
// I/O in the ratio of their weights, as fio's flow.c makes them. Real fio
// 3.33, fio's examples/flow.fio scaled down (libaio, iodepth=16, 3 s, a
// file on ext4): weights 1:8 with flow_sleep=1000 did 3984 writes and
// 31865 reads (8.00); weights 1:3 without flow_sleep 2039 and 6118 (3.00).
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_flow_test {

using testing::RamStack;
using testing::RunArgs;
using testing::Sim;
using testing::Split;

uint64_t Ios(const Sim& s, size_t job) {
  return s.Job(job).dir[0].total_ios + s.Job(job).dir[1].total_ios;
}

std::string FlowJobs(const std::string& global, int w1, int w2) {
  return "--time_based --runtime=1 --direct=1 --ioengine=libaio --iodepth=16 --size=64m "
         "--bs=8k --norandommap " +
         global + " --name=job2 --rw=write --flow=" + std::to_string(w1) +
         " --name=job1 --rw=randread --flow=" + std::to_string(w2);
}

TEST(FioFlowTest, SleepingJobsKeepTheirWeightsRatio) {
  Sim s = RunArgs(RamStack("100us"), Split(FlowJobs("--flow_sleep=1000", 1, 8)));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  const double ratio = static_cast<double>(Ios(s, 1)) / static_cast<double>(Ios(s, 0));
  EXPECT_NEAR(ratio, 8.0, 0.05) << Ios(s, 1) << " / " << Ios(s, 0);
}

TEST(FioFlowTest, SpinningJobsKeepTheirWeightsRatio) {
  Sim s = RunArgs(RamStack("100us"), Split(FlowJobs("", 1, 3)));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  const double ratio = static_cast<double>(Ios(s, 1)) / static_cast<double>(Ios(s, 0));
  EXPECT_NEAR(ratio, 3.0, 0.01) << Ios(s, 1) << " / " << Ios(s, 0);
}

// Another flow_id is another flow: the jobs do not hold each other back.
TEST(FioFlowTest, FlowIdsAreSeparate) {
  Sim s = RunArgs(RamStack("100us"), Split(FlowJobs("--flow_sleep=1000", 1, 8) + " --flow_id=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  Sim alone = RunArgs(RamStack("100us"),
                      Split("--time_based --runtime=1 --direct=1 --ioengine=libaio --iodepth=16 "
                            "--size=64m --bs=8k --norandommap --name=job2 --rw=write"));
  ASSERT_TRUE(alone.status.ok());
  // job1 is alone in flow 1, job2 alone in flow 0: each is let through.
  EXPECT_GT(Ios(s, 0), Ios(alone, 0) / 2);
}

TEST(FioFlowTest, WeightAboveFiosMaximumIsAnError) {
  Sim s = RunArgs(RamStack("100us"), Split("--name=t --rw=read --size=1m --flow=1001"));
  EXPECT_FALSE(s.status.ok());
}

}  // namespace fio_flow_test
}  // namespace storlab::fio
