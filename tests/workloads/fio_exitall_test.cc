// exitall, exit_what and exitall_on_error (backend.c thread_main, libfio.c
// fio_terminate_threads): when a job ends, which other jobs end with it.
// Virtual time: the times are exact.
#include <gtest/gtest.h>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace {

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

TEST(FioExitallTest, BadExitWhatNamesTheChoices) {
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "exit_what", "some", true, "j.fio:2").message(),
            "j.fio:2: option 'exit_what': 'some' is not one of group, stonewall, all");
}

}  // namespace
}  // namespace storlab::fio
