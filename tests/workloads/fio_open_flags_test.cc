// sync= (O_SYNC / O_DSYNC writes: job_runner_io.cc), atomic= and pre_read, compared with what
// real fio 3.33 does on a file in /tmp.
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_open_flags_test {

using testing::RamStack;
using testing::Split;

// Real fio 3.33 (strace of `--rw=write --bs=4k --size=16k --sync=dsync`)
// opens the file O_RDWR|O_CREAT|O_DSYNC and makes 4 pwrite64() calls;
// sync=1 the same with O_SYNC. Each such buffered write is written back
// and flushed before it returns: the device sees the 4 writes during the
// job, and each write's clat holds the device's 100 µs. Without sync= the
// writes stay dirty in the page cache.
TEST(SyncOptionTest, BufferedWritesReachTheDeviceBeforeTheyReturn) {
  for (const char* sync : {"sync", "1", "dsync"}) {
    auto s = testing::RunArgs(RamStack("100us"),
                              Split(std::string("--name=a --filename=/d/f --rw=write --bs=4k "
                                                "--size=16k --sync=") +
                                    sync));
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    EXPECT_EQ(s.host->device().stats().op(Op::kWrite).ops, 4u) << sync;
    EXPECT_GE(s.Job(0).dir[kWrite].clat.min(), 100000u) << sync;
  }
  for (const char* none : {"none", "0"}) {
    auto s = testing::RunArgs(RamStack("100us"),
                              Split(std::string("--name=a --filename=/d/f --rw=write --bs=4k "
                                                "--size=16k --sync=") +
                                    none));
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    EXPECT_EQ(s.host->device().stats().op(Op::kWrite).ops, 0u) << none;
    EXPECT_LT(s.Job(0).dir[kWrite].clat.max(), 100000u) << none;
  }
  auto s = testing::RunArgs(RamStack(), Split("--name=a --filename=/d/f --size=16k --sync=osync"));
  EXPECT_NE(s.status.message().find("option 'sync': 'osync' is not one of none, 0, sync, 1, dsync"),
            std::string::npos)
      << s.status.message();
}

// atomic=1: real fio 3.33 (strace) opens the file
// O_RDWR|O_CREAT|O_DIRECT|0x800000 — O_ATOMIC implies O_DIRECT (init.c),
// and Linux ignores the O_ATOMIC bit: direct I/O, past the page cache.
TEST(AtomicOptionTest, ImpliesDirect) {
  auto s = testing::RunArgs(RamStack("100us"), Split("--name=a --filename=/d/f --rw=write --bs=4k "
                                                     "--size=16k --atomic=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_TRUE(s.run->jobs().jobs[0].direct);
  EXPECT_EQ(s.host->device().stats().op(Op::kWrite).ops, 4u);
  EXPECT_GE(s.Job(0).dir[kWrite].clat.min(), 100000u);
  s = testing::RunArgs(RamStack(), Split("--name=a --filename=/d/f --size=16k --atomic=2"));
  EXPECT_NE(s.status.message().find("option 'atomic'"), std::string::npos) << s.status.message();
}

// pre_read=1 (filesetup.c pre_read_file()): the job's files are read
// before its epoch, so its buffered reads hit the page cache. Real fio
// 3.33, rw=read size=64m bs=128k psync on ext4 (/tmp): mean clat 109.7 us
// and runtime 58 ms without, 19.1 us and 11 ms with pre_read. Here, on a
// RAM disk of 100 us a request: every read of the job is a cache hit.
// (fadvise_hint=0: reads of 128 KiB, the default read-ahead window, never
// get ahead of the reader, so every cold read waits; fio's default
// FADV_SEQUENTIAL doubles the window and hides most of the wait.)
TEST(PreReadOptionTest, JobReadsHitTheCache) {
  const std::string job = "--name=a --filename=/d/f --rw=read --bs=128k --size=8m --fadvise_hint=0";
  auto cold = testing::RunArgs(RamStack("100us"), Split(job));
  ASSERT_TRUE(cold.status.ok()) << cold.status.message();
  auto warm = testing::RunArgs(RamStack("100us"), Split(job + " --pre_read=1"));
  ASSERT_TRUE(warm.status.ok()) << warm.status.message();
  EXPECT_EQ(warm.Job(0).dir[kRead].io_bytes, 8u << 20);
  EXPECT_LT(warm.Job(0).dir[kRead].clat.max(), 100000u);
  EXPECT_GT(cold.Job(0).dir[kRead].clat.max(), 100000u);
  EXPECT_LT(warm.Job(0).dir[kRead].runtime_ms * 3, cold.Job(0).dir[kRead].runtime_ms + 1);
  // The pre-read is outside the job's runtime: the job starts after it.
  const auto& x = warm.run->runners()[0]->extras();
  EXPECT_GT(x.start, cold.run->runners()[0]->extras().start);
  // direct=1 reads past the cache: nothing to hit.
  auto direct = testing::RunArgs(RamStack("100us"), Split(job + " --pre_read=1 --direct=1"));
  ASSERT_TRUE(direct.status.ok()) << direct.status.message();
  EXPECT_GE(direct.Job(0).dir[kRead].clat.min(), 100000u);
  auto s = testing::RunArgs(RamStack(), Split(job + " --pre_read=twice"));
  EXPECT_NE(s.status.message().find("option 'pre_read'"), std::string::npos) << s.status.message();
}

}  // namespace fio_open_flags_test
}  // namespace storlab::fio
