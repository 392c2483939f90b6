// fio's profiles (workloads/fio/profiles.h): --profile=tiobench's jobs as
// real fio 3.33 makes them (fio --profile=tiobench --debug=parse, on a
// machine of 24105 MiB: size=98734080, bs=4096, loops=1, directory=./,
// numjobs=1, runtime=600, group_reporting, thread, overwrite=1, the four
// .fio.tio files, ioengine=sync; then seqwrite, randwrite, seqread,
// randread, each after the one before), the profile's options without
// effect, and profile= in a job file without effect (fio 3.33 reads it
// from nowhere).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/job_spec.h"
#include "workloads/fio/profiles.h"

namespace storlab::fio {
namespace fio_profile_test {

using testing::RamStack;
using testing::RunArgs;
using testing::Split;

TEST(FioProfileTest, TiobenchMakesFiosFourJobs) {
  auto sections = ProfileSections("tiobench", uint64_t{24105} << 20);
  ASSERT_TRUE(sections.ok()) << sections.status().message();
  auto jobs = BuildJobs(*sections, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  ASSERT_EQ(jobs->jobs.size(), 4u);
  const char* names[] = {"seqwrite", "randwrite", "seqread", "randread"};
  for (size_t i = 0; i < 4; ++i) {
    const JobSpec& j = jobs->jobs[i];
    EXPECT_EQ(j.name, names[i]);
    EXPECT_EQ(j.segment, static_cast<int>(i)) << "stonewall";
    EXPECT_EQ(j.opts.size, 98734080u);
    EXPECT_EQ(j.opts.bs[0], 4096u);
    EXPECT_EQ(j.opts.loops, 1);
    EXPECT_EQ(j.opts.directory, "./");
    EXPECT_EQ(j.opts.numjobs, 1);
    EXPECT_EQ(j.opts.runtime, Nanos(600'000'000'000));
    EXPECT_TRUE(j.opts.group_reporting);
    EXPECT_TRUE(j.opts.thread);
    EXPECT_TRUE(j.opts.overwrite);
    EXPECT_TRUE(j.opts.direct);  // buffered=0
    EXPECT_EQ(j.opts.ioengine, "sync");
    EXPECT_EQ(j.opts.filename, ".fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4");
    EXPECT_EQ(j.files.size(), 4u);
    EXPECT_EQ(j.random, i % 2 == 1);
    EXPECT_EQ(j.do_write, i < 2);
    EXPECT_EQ(j.opts.end_fsync, i < 2);
  }
}

TEST(FioProfileTest, ActAndUnknownProfilesAreErrors) {
  auto act = ProfileSections("act", uint64_t{1} << 30);
  ASSERT_FALSE(act.ok());
  EXPECT_NE(act.status().message().find("--profile=act is not supported"), std::string::npos);
  auto none = ProfileSections("nosuch", uint64_t{1} << 30);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("fio: profile 'nosuch' not found"), std::string::npos)
      << none.status().message();
}

// fio 3.33 accepts the profile's options and profile= in any job and does
// nothing with them: a job runs as without them.
TEST(FioProfileTest, ProfileOptionsInAJobHaveNoEffect) {
  const std::string job = "--name=j --filename=/f --size=64k --rw=read";
  auto plain = RunArgs(RamStack(), Split(job));
  auto with = RunArgs(RamStack(), Split(job + " --profile=tiobench --block=8192 --numruns=3 "
                                              "--dir=/x --threads=3"));
  ASSERT_TRUE(plain.status.ok()) << plain.status.message();
  ASSERT_TRUE(with.status.ok()) << with.status.message();
  EXPECT_EQ(with.run->runners().size(), 1u);
  EXPECT_EQ(with.Job(0).dir[0].total_ios, plain.Job(0).dir[0].total_ios);
  EXPECT_EQ(with.Job(0).dir[0].total_ios, 16u);
  auto bad = RunArgs(RamStack(), Split(job + " --block=x"));
  ASSERT_FALSE(bad.status.ok());
  EXPECT_NE(bad.status.message().find("block"), std::string::npos);
}

}  // namespace fio_profile_test
}  // namespace storlab::fio
