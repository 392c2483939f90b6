// experimental_verify (fio 3.33 backend.c do_verify(), do_io(): no
// log_io_piece(); the verify pass regenerates the job's I/Os and reads
// back each write, and each trim as zeros): against real fio 3.33.
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_experimental_verify_test {

using testing::RamStack;
using testing::Split;

testing::Sim RunExp(const std::string& args) {
  return testing::RunWithHost(RamStack(), Split(args + " --experimental_verify=1"),
                              /*keep_data=*/true);
}

// Real fio 3.33, 16 blocks of 4k, verify=crc32c: write and randwrite read
// back 16 blocks, in write order; randrw reads back its writes only.
TEST(ExperimentalVerifyTest, ReadsBackEveryWrite) {
  for (const char* rw : {"write", "randwrite"}) {
    auto s = RunExp(
        std::string("--name=t --filename=/d/f --size=64k --bs=4k --verify=crc32c --rw=") + rw);
    ASSERT_TRUE(s.status.ok()) << s.status.ToString();
    EXPECT_EQ(s.Job(0).error, 0) << rw;
    EXPECT_EQ(s.Job(0).dir[kWrite].total_ios, 16u) << rw;
    EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 16u) << rw;
  }
  auto s = RunExp("--name=t --filename=/d/f --size=64k --bs=4k --verify=crc32c --rw=randrw");
  ASSERT_TRUE(s.status.ok());
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.error, 0);
  EXPECT_EQ(ts.dir[kRead].total_ios, 16u);  // the job's reads and one per write
}

// Every write is read again, not only the last of a block: with
// norandommap a block written twice fails at its first write's turn (real
// fio 3.33: "verify: bad header numberio 10, wanted 2 ...", EILSEQ).
TEST(ExperimentalVerifyTest, ABlockWrittenTwiceFails) {
  auto s = RunExp(
      "--name=t --filename=/d/f --size=64k --bs=4k --verify=crc32c --rw=randwrite "
      "--norandommap");
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.Job(0).error, 84);  // EILSEQ
  auto plain = testing::RunWithHost(RamStack(),
                                    Split("--name=t --filename=/d/f --size=64k --bs=4k "
                                          "--verify=crc32c --rw=randwrite --norandommap"),
                                    true);
  EXPECT_EQ(plain.Job(0).error, 0);  // the normal pass reads each block's last write
}

// A trim is read back as zeros, so trimwrite (trim, then write the block)
// fails at once, as in real fio 3.33 on a loop device: "trim: verify
// failed at file /dev/loop0 offset 0, length 4096, block offset 0".
TEST(ExperimentalVerifyTest, TrimsReadBackAsZeros) {
  auto s = RunExp("--name=t --filename=/dev/sdb --size=64k --bs=4k --verify=crc32c --rw=trimwrite");
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.Job(0).error, 84);
  const auto& m = s.run->runners()[0]->messages();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[0], "trim: verify failed at file /dev/sdb offset 0, length 4096, block offset 0");
}

TEST(ExperimentalVerifyTest, BadValueNamesTheOption) {
  auto s = testing::RunArgs(RamStack(), Split("--name=t --filename=/d/f --size=64k "
                                              "--verify=crc32c --experimental_verify=2"));
  EXPECT_NE(s.status.message().find("option 'experimental_verify'"), std::string::npos)
      << s.status.message();
}

}  // namespace fio_experimental_verify_test
}  // namespace storlab::fio
