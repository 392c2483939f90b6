// exitall, exit_what and exitall_on_error (backend.c thread_main, libfio.c
// fio_terminate_threads): when a job ends, which other jobs end with it.
// Virtual time: the times are exact.
#include <gtest/gtest.h>

#include <cerrno>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_exitall_test {

using testing::RamStack;

// A short job (100 reads of 100 µs each) beside a long one (time_based,
// 10 s), then, after a stonewall, a third.
testing::Sim RunExit(const std::string& exit_what, bool exitall = true) {
  std::string text = std::string("[global]\nioengine=psync\ndirect=1\nsize=1m\n") +
                     (exitall ? "exitall\n" : "") + "exit_what=" + exit_what +
                     "\n[short]\nrw=read\nnumber_ios=100\n"
                     "[long]\nrw=randread\nruntime=10\ntime_based\n"
                     "[later]\nstonewall\nrw=read\nnumber_ios=50\n";
  auto sections = ParseJobText(text, "exit.fio", "/nonexistent",
                               [](const std::string&) { return std::optional<std::string>(); });
  EXPECT_TRUE(sections.ok()) << sections.status().ToString();
  return testing::RunJobs(RamStack("100us"), *sections);
}

uint64_t Ios(const testing::Sim& s, size_t job) { return s.Job(job).dir[kRead].total_ios; }
Nanos End(const testing::Sim& s, size_t job) { return s.run->runners()[job]->extras().end; }

TEST(FioExitallTest, WithoutExitallEveryJobRunsItsCourse) {
  auto s = RunExit("group", /*exitall=*/false);
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(Ios(s, 0), 100u);
  EXPECT_GE(End(s, 1) - End(s, 0), Nanos(9'000'000'000));
  EXPECT_EQ(Ios(s, 2), 50u);
}

TEST(FioExitallTest, GroupEndsTheJobsOfItsGroup) {
  auto s = RunExit("group");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(Ios(s, 0), 100u);
  // The long job stops where the short one ended (its one I/O in flight
  // drains), and the job after the stonewall, a group of its own, runs.
  EXPECT_LT(End(s, 1) - End(s, 0), Nanos(1'000'000));
  EXPECT_LT(Ios(s, 1), 200u);
  EXPECT_EQ(Ios(s, 2), 50u);
}

TEST(FioExitallTest, StonewallEndsWhatRunsAndTheNextStonewallGoesOn) {
  auto s = RunExit("stonewall");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_LT(End(s, 1) - End(s, 0), Nanos(1'000'000));
  EXPECT_EQ(Ios(s, 2), 50u);
}

TEST(FioExitallTest, AllEndsEverythingAndLaterJobsNeverRun) {
  auto s = RunExit("all");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_LT(End(s, 1) - End(s, 0), Nanos(1'000'000));
  EXPECT_EQ(Ios(s, 2), 0u);  // exitwhat.fio's "runsnever"
}

// rate_min (backend.c __check_min_rate): 4 KiB reads of 100 µs each make
// 40 MB/s; after the 2 s settle and one ratecycle a job that wants more
// ends with EIO and fio's message, one that wants less runs its course.
TEST(FioRateMinTest, AJobBelowItsMinimumRateEndsWithEio) {
  auto run = [](const std::string& min) {
    return testing::RunArgs(RamStack("100us"),
                            testing::Split("--name=m --ioengine=psync --direct=1 --rw=randread "
                                           "--size=16m --runtime=10 --time_based --rate_min=" +
                                           min));
  };
  auto ok = run("1m");
  ASSERT_TRUE(ok.status.ok()) << ok.status.ToString();
  EXPECT_EQ(ok.Job(0).error, 0);
  EXPECT_GE(End(ok, 0), Nanos(10'000'000'000));
  auto slow = run("100m");
  ASSERT_TRUE(slow.status.ok()) << slow.status.ToString();
  EXPECT_EQ(slow.Job(0).error, EIO);
  EXPECT_EQ(slow.Job(0).verror,
            "file:backend.c:1131, func=check_min_rate, error=Input/output error");
  EXPECT_LT(End(slow, 0), Nanos(3'100'000'000));  // 2 s settle + a 1 s cycle
  const auto m = slow.run->Messages();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m.back().rfind("m: rate_min=104857600B/s not met, got ", 0), 0u) << m.back();
}

TEST(FioExitallTest, BadExitWhatNamesTheChoices) {
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "exit_what", "some", true, "j.fio:2").message(),
            "j.fio:2: option 'exit_what': 'some' is not one of group, stonewall, all");
}

}  // namespace fio_exitall_test
}  // namespace storlab::fio
