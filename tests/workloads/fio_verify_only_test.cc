// verify_only (option_table_verify.cc, job_runner_verify.cc): a writing
// job that only verifies what an earlier one wrote, compared with real fio
// 3.33 on a file in /tmp.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_verify_only_test {

using testing::RamStack;
using testing::Split;

const std::string kJob = "--filename=/d/f --rw=write --bs=4k --size=256k --direct=1 ";

// Real fio 3.33: `--rw=write --bs=4k --size=256k --verify=crc32c
// --do_verify=0`, then the same with `--verify_only` (or both in one job
// file, the second stonewalled): the second makes no write, reads and
// checks 64 blocks, err=0; its write figures are the dry run's: 64 I/Os,
// 256 KiB, runtime 0, bw 0.
TEST(VerifyOnlyTest, VerifiesWhatAnEarlierJobWrote) {
  auto s = testing::RunWithHost(
      RamStack("100us"),
      Split("--name=w " + kJob + "--verify=crc32c --do_verify=0 --name=v --stonewall " + kJob +
            "--verify=crc32c --verify_only"),
      true);
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  const ThreadStat& v = s.Job(1);
  EXPECT_EQ(v.error, 0) << v.verror;
  EXPECT_EQ(v.dir[kRead].total_ios, 64u);
  EXPECT_EQ(v.dir[kRead].io_bytes, 256u << 10);
  EXPECT_EQ(v.dir[kWrite].total_ios, 64u);
  EXPECT_EQ(v.dir[kWrite].io_bytes, 256u << 10);
  EXPECT_EQ(v.dir[kWrite].runtime_ms, 0u);
  EXPECT_GT(v.dir[kRead].runtime_ms + v.dir[kRead].clat.max(), 0u);
  // Only the first job wrote (direct: 64 device writes); both read nothing else.
  EXPECT_EQ(s.host->device().stats().op(Op::kWrite).ops, 64u);
  EXPECT_EQ(s.host->device().stats().op(Op::kRead).ops, 64u);
  // Given without a value, it is not in "job options" (fio's JSON neither).
  EXPECT_EQ(s.Json().find("\"verify_only\""), std::string::npos);
}

// Real fio 3.33: a file written without verify=, then `--verify=crc32c
// --verify_only`: "verify: bad magic header e035, wanted acca at file
// /tmp/h5/vf offset 0, length 4096 (requested block: offset=0,
// length=4096)", err=84 (EILSEQ) after one read.
TEST(VerifyOnlyTest, DataNotWrittenWithVerifyFails) {
  auto s = testing::RunWithHost(
      RamStack("100us"),
      Split("--name=w " + kJob + "--name=v --stonewall " + kJob + "--verify=crc32c --verify_only"),
      true);
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  const ThreadStat& v = s.Job(1);
  EXPECT_EQ(v.error, EILSEQ);
  EXPECT_EQ(v.dir[kRead].total_ios, 1u);
  const auto& msgs = s.run->runners()[1]->messages();
  ASSERT_FALSE(msgs.empty());
  EXPECT_NE(msgs[0].find("verify: bad magic header"), std::string::npos) << msgs[0];
  EXPECT_NE(msgs[0].find("wanted acca at file /d/f offset 0, length 4096"), std::string::npos)
      << msgs[0];
}

// A job that only reads: verify_only changes nothing (fio: td_write() only).
TEST(VerifyOnlyTest, ReadOnlyJobVerifiesAsBefore) {
  const std::string w = "--name=w " + kJob + "--verify=crc32c --do_verify=0 --name=r --stonewall ";
  const std::string r = "--filename=/d/f --rw=read --bs=4k --size=256k --direct=1 --verify=crc32c";
  auto plain = testing::RunWithHost(RamStack("100us"), Split(w + r), true);
  auto only = testing::RunWithHost(RamStack("100us"), Split(w + r + " --verify_only"), true);
  ASSERT_TRUE(plain.status.ok() && only.status.ok());
  EXPECT_EQ(only.Job(1).error, plain.Job(1).error);
  EXPECT_EQ(only.Job(1).dir[kRead].total_ios, plain.Job(1).dir[kRead].total_ios);
  EXPECT_EQ(only.Job(1).dir[kRead].clat.mean(), plain.Job(1).dir[kRead].clat.mean());
}

TEST(VerifyOnlyTest, BadValueNamesTheOptionAndTheJob) {
  auto sections = ParseJobText("[job1]\nfilename=/d/f\nsize=16k\nverify_only=abc\n", "bad.fio", ".",
                               ProcessEnv());
  ASSERT_TRUE(sections.ok());
  auto s = testing::RunJobs(RamStack(), *sections);
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("bad.fio:4: option 'verify_only'"), std::string::npos)
      << s.status.message();
}

}  // namespace fio_verify_only_test
}  // namespace storlab::fio
