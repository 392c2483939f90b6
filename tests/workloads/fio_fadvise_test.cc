// fadvise_hint (fio 3.33 ioengines.c td_io_open_file(); the page cache's
// PageCache::Advise(), mm/fadvise.c generic_fadvise()): by default fio
// advises RANDOM for a random job — its buffered reads read what they ask
// and nothing more — and SEQUENTIAL for a sequential one, whose read-ahead
// window doubles. Measured with real fio 3.33 on a loop device of this
// kernel (reads and sectors from /sys/block/loopN/stat, caches dropped
// before each run): randread 2000 × 4 KiB read 16000 sectors with the
// default hint and 19624 with fadvise_hint=0; a sequential read of 32 MiB
// with fadvise_hint=random went to the device as 8192 reads of 4 KiB.
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_fadvise_test {

using testing::RamStack;
using testing::Split;

struct Reads {
  uint64_t ops = 0, bytes = 0;
};

Reads DeviceReads(const std::string& args) {
  auto s = testing::RunArgs(RamStack("100us", "1GiB"),
                            Split("--name=r --filename=/dev/sdb --bs=4k --size=32m " + args));
  EXPECT_TRUE(s.status.ok()) << s.status.ToString();
  if (!s.status.ok()) return {};
  const OpStats& r = s.host->device().stats().op(Op::kRead);
  return {r.ops, r.bytes};
}

TEST(FadviseTest, RandomJobsReadNoMoreThanTheyAsk) {
  const Reads hinted = DeviceReads("--rw=randread --number_ios=2000");
  EXPECT_EQ(hinted.bytes, 2000u * 4096);
  EXPECT_EQ(hinted.ops, 2000u);
  const Reads plain = DeviceReads("--rw=randread --number_ios=2000 --fadvise_hint=0");
  EXPECT_GT(plain.bytes, hinted.bytes);  // the first read's initial read-ahead at least
}

TEST(FadviseTest, RandomAdviceMakesASequentialReadPageByPage) {
  const Reads r = DeviceReads("--rw=read --fadvise_hint=random");
  EXPECT_EQ(r.ops, 8192u);
  EXPECT_EQ(r.bytes, 32u << 20);
}

// Sequential advice: windows up to 2 × read_ahead_kb, so fewer, larger
// reads than without advice.
TEST(FadviseTest, SequentialAdviceDoublesTheWindow) {
  const Reads plain = DeviceReads("--rw=read --fadvise_hint=0");
  const Reads seq = DeviceReads("--rw=read");
  const Reads named = DeviceReads("--rw=read --fadvise_hint=sequential");
  EXPECT_EQ(seq.ops, named.ops);
  EXPECT_LT(seq.ops, plain.ops);
  EXPECT_GE(seq.bytes, 32u << 20);
  EXPECT_GE(plain.bytes, 32u << 20);
}

// O_DIRECT passes the page cache: the advice changes nothing.
TEST(FadviseTest, DirectIoIsUnchanged) {
  const Reads a = DeviceReads("--rw=randread --number_ios=500 --direct=1");
  const Reads b = DeviceReads("--rw=randread --number_ios=500 --direct=1 --fadvise_hint=0");
  EXPECT_EQ(a.ops, b.ops);
  EXPECT_EQ(a.bytes, b.bytes);
}

TEST(FadviseTest, BadValueNamesTheOption) {
  auto s = testing::RunArgs(RamStack(), Split("--name=r --filename=/dev/sdb --size=1m "
                                              "--fadvise_hint=normal"));
  EXPECT_NE(s.status.message().find("option 'fadvise_hint'"), std::string::npos)
      << s.status.message();
}

}  // namespace fio_fadvise_test
}  // namespace storlab::fio
