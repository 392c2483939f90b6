// rw=trim, randtrim, trimwrite, randtrimwrite (fio 3.33: io_u.c
// set_rw_ddir(), get_next_block(), do_io_u_trim(); backend.c
// io_bytes_exceeded()): the counts are real fio's with ioengine=null, the
// order of a trimwrite job's I/Os real fio's write_iolog
// (tests/workloads/golden/trim/), and a trim of a regular file fails as
// real fio's does on a file in /tmp.
#include <gtest/gtest.h>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_trim_test {

using testing::IologIos;
using testing::RamStack;
using testing::ReadGolden;
using testing::RecordedLog;
using testing::RunArgs;
using testing::Split;

constexpr const char* kDevice = "--filename=/dev/sdb --size=1m --bs=4k --direct=1 ";

TEST(FioTrimTest, CountsAreRealFios) {
  // fio 3.33, --ioengine=null --size=1m --bs=4k: trim and randtrim 256
  // trims; trimwrite and randtrimwrite 256 trims and 256 writes (size=
  // counts the writes).
  for (const char* rw : {"trim", "randtrim", "trimwrite", "randtrimwrite"}) {
    auto s = RunArgs(RamStack(), Split(std::string("--name=t --rw=") + rw + " " + kDevice +
                                       "--ioengine=libaio --iodepth=4"));
    ASSERT_TRUE(s.status.ok()) << rw << ": " << s.status.ToString();
    const ThreadStat& ts = s.Job(0);
    const bool tw = std::string(rw).find("write") != std::string::npos;
    EXPECT_EQ(ts.error, 0) << rw;
    EXPECT_EQ(ts.dir[kTrim].total_ios, 256u) << rw;
    EXPECT_EQ(ts.dir[kTrim].io_bytes, 1u << 20) << rw;
    EXPECT_EQ(ts.dir[kWrite].total_ios, tw ? 256u : 0u) << rw;
    EXPECT_EQ(ts.dir[kRead].total_ios, 0u) << rw;
    // The trims reached the device as discards.
    EXPECT_EQ(s.host->stack().Find("disk")->stats().op(Op::kTrim).ops, 256u) << rw;
  }
}

TEST(FioTrimTest, TrimsAreSynchronousWhateverTheIodepth) {
  // Every engine calls do_io_u_trim() inside its queue function: one trim
  // at a time, each the RAM disk's 100 us.
  auto s = RunArgs(RamStack(), Split(std::string("--name=t --rw=randtrim ") + kDevice +
                                     "--ioengine=libaio --iodepth=16"));
  ASSERT_TRUE(s.status.ok());
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.io_u_map[0], 256u);  // all at depth 1
  EXPECT_EQ(ts.dir[kTrim].slat.samples(), 0u);
  EXPECT_GE(ts.dir[kTrim].clat.min(), 100000u);
  EXPECT_GE(ts.dir[kTrim].runtime_ms, 25u);
}

TEST(FioTrimTest, TrimwriteWritesEachBlockAfterTrimmingItAsRealFio) {
  const auto fio = IologIos(ReadGolden("trim/trimwrite_v3.log"));
  ASSERT_EQ(fio.size(), 32u);
  EXPECT_EQ(IologIos(RecordedLog(RamStack(),
                                 "--name=t --filename=/dev/sdb --size=64k --bs=4k --rw=trimwrite")),
            fio);
}

TEST(FioTrimTest, RandtrimwriteWritesWhereItTrimmed) {
  const auto ios = IologIos(RecordedLog(
      RamStack(), "--name=t --filename=/dev/sdb --size=64k --bs=4k --rw=randtrimwrite"));
  ASSERT_EQ(ios.size(), 32u);
  for (size_t i = 0; i + 1 < ios.size(); i += 2) {
    ASSERT_EQ(ios[i].rfind("trim ", 0), 0u) << ios[i];
    EXPECT_EQ(ios[i + 1], "write " + ios[i].substr(5));
  }
}

TEST(FioTrimTest, ARegularFileCannotBeTrimmedAsInRealFio) {
  // fio 3.33 on a file in /tmp: "fio: pid=..., err=25/file:ioengines.c:399,
  // func=td_io_queue, error=Inappropriate ioctl for device", issued rwts
  // total=0,0,1,0 (os_trim() is BLKDISCARD).
  auto s = RunArgs(RamStack(), Split("--name=t --size=1m --bs=4k --rw=trim"));
  ASSERT_TRUE(s.status.ok());
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.error, 25);
  EXPECT_EQ(ts.verror,
            "file:ioengines.c:399, func=td_io_queue, error=Inappropriate ioctl for device");
  EXPECT_EQ(ts.dir[kTrim].total_ios, 1u);
  EXPECT_EQ(s.host->stack().Find("disk")->stats().op(Op::kTrim).ops, 0u);
  EXPECT_NE(s.Normal().find("err=25 (file:ioengines.c:399, func=td_io_queue"), std::string::npos);
}

TEST(FioTrimTest, ADeviceWithoutDiscardFailsWithEopnotsupp) {
  const std::string hdd = "[node.disk]\ntype = \"hdd\"\ncapacity = \"1TB\"\n";
  auto s = RunArgs(hdd, Split("--name=t --filename=/dev/sdb --size=1m --bs=4k --rw=trim"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).error, 95);  // BLKDISCARD without discard support
}

TEST(FioTrimTest, NormalOutputHasFiosTrimSections) {
  auto s = RunArgs(RamStack(), Split(std::string("--name=t --rw=trimwrite ") + kDevice));
  ASSERT_TRUE(s.status.ok());
  const std::string out = s.Normal();
  EXPECT_NE(out.find("\n  trim: IOPS="), std::string::npos) << out;
  EXPECT_NE(out.find("\n   TRIM: bw="), std::string::npos) << out;
  EXPECT_NE(out.find("issued rwts: total=0,256,256,0"), std::string::npos) << out;
  const auto j = s.JsonObject();
  EXPECT_EQ(j["jobs"][0]["trim"]["total_ios"], 256);
}

}  // namespace fio_trim_test
}  // namespace storlab::fio
