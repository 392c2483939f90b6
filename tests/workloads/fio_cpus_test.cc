// cpumask, cpus_allowed and cpus_allowed_policy (option_table_cpu.cc): the
// host cores a job's CPU bursts may run on (workloads/host/cpu_pool.h),
// parsed and checked as fio 3.33's options.c does.
#include <gtest/gtest.h>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_cpus_test {

using testing::RunArgs;
using testing::Split;

// Two null-engine jobs for 100 ms on a 2-core host: each is CPU-bound (fio's
// own work per I/O), so two jobs on one core do half the I/O.
uint64_t TotalIos(const std::string& extra) {
  auto s =
      RunArgs("[host]\ncores = 2\n" + testing::RamStack(),
              Split("--ioengine=null --size=256m --bs=4k --rw=read --runtime=100ms --time_based "
                    "--numjobs=2 --name=c " +
                    extra));
  EXPECT_TRUE(s.status.ok()) << s.status.ToString();
  if (!s.status.ok()) return 0;
  return s.Job(0).dir[kRead].total_ios + s.Job(1).dir[kRead].total_ios;
}

TEST(FioCpusTest, JobsPinnedToOneCoreShareIt) {
  const uint64_t free = TotalIos("");
  const uint64_t one = TotalIos("--cpus_allowed=0");
  EXPECT_NEAR(static_cast<double>(one) / static_cast<double>(free), 0.5, 0.02)
      << free << " " << one;
  EXPECT_EQ(TotalIos("--cpumask=0x2"), one);  // CPU 1 alone: the same
  EXPECT_EQ(TotalIos("--cpus_allowed=0-1"), free);
  // split: each job keeps one CPU of the set, (thread_number - 1) % 2.
  EXPECT_EQ(TotalIos("--cpus_allowed=0,1 --cpus_allowed_policy=split"), free);
  EXPECT_EQ(TotalIos("--cpus_allowed=1 --cpus_allowed_policy=split"), one);
}

TEST(FioCpusTest, SplitPicksOneCpuPerJob) {
  auto sections = ParseCommandLine(
      Split("--name=s --numjobs=3 --cpus_allowed=1-2,5 --cpus_allowed_policy=split"));
  ASSERT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  EXPECT_EQ(jobs->jobs[0].cpus, std::vector<uint32_t>{1});
  EXPECT_EQ(jobs->jobs[1].cpus, std::vector<uint32_t>{2});
  EXPECT_EQ(jobs->jobs[2].cpus, std::vector<uint32_t>{5});
  EXPECT_EQ(jobs->jobs[0].opts.cpus, (std::vector<uint32_t>{1, 2, 5}));
}

TEST(FioCpusTest, BadValuesNameTheOptionAndChangeNothing) {
  struct Bad {
    const char* option;
    const char* value;
  };
  for (const Bad& b :
       {Bad{"cpus_allowed", "abc"}, Bad{"cpus_allowed", "3-1"}, Bad{"cpus_allowed", "0-1024"},
        Bad{"cpumask", "0"}, Bad{"cpumask", "0xzz"}, Bad{"cpus_allowed_policy", "half"}}) {
    JobOptions o;
    Status st = ApplyOption(&o, b.option, b.value, true, "job.fio:3");
    ASSERT_FALSE(st.ok()) << b.option << "=" << b.value;
    EXPECT_EQ(st.message().rfind(std::string("job.fio:3: option '") + b.option + "'", 0), 0u)
        << st.message();
    EXPECT_TRUE(o.cpus.empty());
    EXPECT_TRUE(o.cpus_allowed.empty() && o.cpumask.empty());
    EXPECT_EQ(o.cpus_allowed_policy, "shared");
  }
  // A CPU the simulated host does not have, as fio's "CPU 2 too large".
  auto s = RunArgs("[host]\ncores = 2\n" + testing::RamStack(),
                   Split("--name=big --ioengine=null --size=1m --cpus_allowed=0,2"));
  EXPECT_EQ(s.status.message(),
            "job 'big': option 'cpus_allowed': CPU 2 too large (max=1): the simulated host has 2 "
            "cores ([host] cores, --host-cores)");
}

}  // namespace fio_cpus_test
}  // namespace storlab::fio
