// Trim verify: trim_percentage, trim_backlog, trim_backlog_batch and
// trim_verify_zero (fio 3.33 trim.c, io_u.c check_get_trim(), iolog.c
// log_io_piece(), verify.c verify_trimmed_io_u(); verify_trims.h), in
// virtual time on a RAM disk, whose discards read back as zeros. The order
// of the I/Os is real fio's on a loop device (tests/workloads/golden/trim/).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/verify.h"

namespace storlab::fio {
namespace fio_trim_verify_test {

using testing::IologIos;
using testing::RamStack;
using testing::ReadGolden;
using testing::Split;

constexpr const char* kJob =
    "--name=t --filename=/dev/sdb --bs=4k --size=128k --verify=crc32c --trim_backlog=8 ";

testing::Sim RunKept(const std::string& args) {
  return testing::RunWithHost(RamStack(), Split(args + " --write_iolog=/nonexistent/x.log"),
                              /*keep_data=*/true);
}

std::vector<std::string> Ios(const testing::Sim& s) {
  const IologWriter* w = s.run->runners()[0]->iolog();
  return w ? IologIos(w->text()) : std::vector<std::string>{};
}

// With trim_percentage=100 every block written goes on the list, so the
// order is fio's own, I/O for I/O: after every 8th block written, batches
// of trim_backlog_batch + 1 trims of the oldest, as long as the blocks not
// yet verified are a multiple of 8 — with trim_verify_zero=1 the trimmed
// blocks stay, so a batch follows a batch until the list is empty; then
// the verify pass reads every block, the trimmed ones as zeros.
TEST(FioTrimVerifyTest, OrderIsRealFiosWithVerifyZero) {
  auto s =
      RunKept(std::string(kJob) + "--rw=trimwrite --trim_percentage=100 --trim_backlog_batch=2");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.error, 0);
  EXPECT_EQ(ts.dir[kWrite].total_ios, 32u);
  EXPECT_EQ(ts.dir[kTrim].total_ios, 64u);  // real fio: 64 (32 its own, 32 verify's)
  EXPECT_EQ(ts.dir[kRead].total_ios, 32u);
  EXPECT_EQ(Ios(s), IologIos(ReadGolden("trim/trimverify_zero1_v3.log")));
  EXPECT_TRUE(s.run->runners()[0]->messages().empty());
}

// trim_verify_zero=0: a block trimmed leaves the verify list, so the blocks
// not yet verified shrink and a batch starts only at the next multiple of
// 8; the last blocks on the list are never trimmed ("leaked", as fio says
// on stderr), and only they are read back.
TEST(FioTrimVerifyTest, OrderIsRealFiosWithoutVerifyZero) {
  auto s = RunKept(std::string(kJob) +
                   "--rw=trimwrite --trim_percentage=100 --trim_backlog_batch=2 "
                   "--trim_verify_zero=0");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.error, 0);
  EXPECT_EQ(ts.dir[kTrim].total_ios, 59u);  // real fio: 59
  EXPECT_EQ(ts.dir[kRead].total_ios, 5u);   // real fio: 5
  EXPECT_EQ(Ios(s), IologIos(ReadGolden("trim/trimverify_zero0_v3.log")));
  const auto& m = s.run->runners()[0]->messages();
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "fio: 5 trim entries leaked?");
}

// trim_percentage=50: about half the blocks go on the list (real fio 3.33,
// 64 blocks of 4k, trim_backlog=8: 30 of them; the draws are ours).
TEST(FioTrimVerifyTest, PercentageTrimsAShare) {
  auto s = RunKept(
      "--name=t --filename=/dev/sdb --bs=4k --size=256k --verify=crc32c "
      "--rw=trimwrite --trim_percentage=50 --trim_backlog=8");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.error, 0);
  EXPECT_EQ(ts.dir[kWrite].total_ios, 64u);
  EXPECT_EQ(ts.dir[kRead].total_ios, 64u);  // trimmed ones read back as zeros
  EXPECT_NEAR(static_cast<double>(ts.dir[kTrim].total_ios) - 64, 32, 10);
}

// Without trim_backlog nothing trims the list's blocks: fio 3.33 says so
// at the end of the I/O (rw=write, trim_percentage=50, 64 blocks: "fio: 30
// trim entries leaked?") and verifies them all as written.
TEST(FioTrimVerifyTest, WithoutBacklogTheListLeaks) {
  auto s = RunKept(
      "--name=t --filename=/dev/sdb --bs=4k --size=256k --verify=crc32c "
      "--rw=write --trim_percentage=50");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.error, 0);
  EXPECT_EQ(ts.dir[kTrim].total_ios, 0u);
  EXPECT_EQ(ts.dir[kRead].total_ios, 64u);
  const auto& m = s.run->runners()[0]->messages();
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].rfind("fio: ", 0), 0u);
  const int leaked = std::stoi(m[0].substr(5));
  EXPECT_NEAR(leaked, 32, 10);
  EXPECT_EQ(m[0], "fio: " + std::to_string(leaked) + " trim entries leaked?");
}

// Real fio 3.33 aborts (fio.h fio_ro_check(): a trim needs td_trim()) when
// a job that writes without trimming reaches its first trim of the list.
TEST(FioTrimVerifyTest, AWriteJobThatWouldTrimIsAnError) {
  auto s = RunKept(std::string(kJob) + "--rw=write --trim_percentage=10");
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("job 't'"), std::string::npos) << s.status.message();
  EXPECT_NE(s.status.message().find("trim_percentage"), std::string::npos);
  EXPECT_NE(s.status.message().find("fio_ro_check"), std::string::npos);
}

TEST(FioTrimVerifyTest, BadValuesNameTheOption) {
  for (const char* bad : {"--trim_percentage=101", "--trim_percentage=x", "--trim_backlog=x",
                          "--trim_backlog_batch=-1", "--trim_verify_zero=2"}) {
    auto s = RunKept(std::string(kJob) + "--rw=trimwrite " + bad);
    const std::string opt = std::string(bad).substr(2, std::string(bad).find('=') - 2);
    EXPECT_NE(s.status.message().find("option '" + opt + "'"), std::string::npos)
        << bad << ": " << s.status.message();
  }
}

// verify_trimmed_io_u(): the first byte that is not zero, as fio says it.
TEST(FioTrimVerifyTest, TrimmedBlockMustBeZeros) {
  std::vector<uint8_t> buf(4096, 0);
  EXPECT_FALSE(CheckTrimmed("/dev/sdb", 8192, buf.data(), buf.size()).failed);
  buf[100] = 1;
  const VerifyOutcome v = CheckTrimmed("/dev/sdb", 8192, buf.data(), buf.size());
  EXPECT_TRUE(v.failed);
  EXPECT_EQ(v.messages,
            "trim: verify failed at file /dev/sdb offset 8192, length 4096, block offset 100\n");
}

}  // namespace fio_trim_verify_test
}  // namespace storlab::fio
