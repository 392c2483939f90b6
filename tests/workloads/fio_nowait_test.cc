// The engine flags nowait (RWF_NOWAIT: pvsync2, libaio, io_uring) and
// force_async (IOSQE_ASYNC: io_uring) as fio 3.33 sets them and Linux
// answers them (job_spec_flags.cc, job_runner_nowait.cc,
// workloads/host/sim_host_nowait.cc). Each case was run with real fio 3.33
// on ext4 and on a loop device here first; the errors are its errors.
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_nowait_test {

using testing::RamStack;
using testing::Split;

constexpr const char* kEagain =
    "file:io_u.c:1876, func=io_u error, error=Resource temporarily unavailable";
constexpr const char* kEopnotsupp =
    "file:io_u.c:1876, func=io_u error, error=Operation not supported";

testing::Sim RunJob(const std::string& args) {
  return testing::RunArgs(RamStack(), Split("--name=u --filename=/d/f --size=1m --bs=4k " + args));
}

uint64_t Bytes(const testing::Sim& s, size_t job) {
  return s.Job(job).dir[kRead].io_bytes + s.Job(job).dir[kWrite].io_bytes;
}

// A buffered read of pages not in the cache: EAGAIN at the first I/O, with
// every engine that has the flag (fio: err=11 at offset 0's read).
TEST(NowaitTest, AnUncachedBufferedReadWouldBlock) {
  for (const char* eng : {"pvsync2", "libaio", "io_uring"}) {
    auto s = RunJob(std::string("--rw=read --nowait=1 --ioengine=") + eng);
    ASSERT_TRUE(s.status.ok()) << s.status.ToString();
    EXPECT_EQ(s.Job(0).error, 11) << eng;
    EXPECT_EQ(s.Job(0).verror, kEagain) << eng;
    EXPECT_EQ(Bytes(s, 0), 0u) << eng;
  }
  // Without the flag the same job reads the file.
  auto s = RunJob("--rw=read --ioengine=pvsync2");
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.Job(0).error, 0);
  EXPECT_EQ(Bytes(s, 0), 1u << 20);
}

// Cached pages are read as without the flag; a read that reaches a page
// carrying PG_readahead stops there (IOCB_NOIO: no asynchronous
// read-ahead). The warm job reads 1 MiB of a 4 MiB file 4 KiB at a time
// with fio's POSIX_FADV_SEQUENTIAL (a 64-page window): its last window
// is pages [316, 380), marked at 316, so the nowait job reads 316 pages.
TEST(NowaitTest, CachedPagesReadUntilTheReadaheadMarker) {
  const std::string global = "--filename=/d/f --size=4m --bs=4k --invalidate=0 ";
  auto s = testing::RunArgs(RamStack(), Split(global + "--name=warm --rw=read --name=nowait "
                                                       "--stonewall --rw=read --ioengine=io_uring "
                                                       "--nowait=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).error, 0);
  EXPECT_EQ(s.Job(1).error, 0);
  EXPECT_EQ(Bytes(s, 1), 4u << 20);

  auto p = testing::RunArgs(RamStack(), Split(global + "--name=warm --rw=read --io_size=1m "
                                                       "--name=nowait --stonewall --rw=read "
                                                       "--ioengine=pvsync2 --nowait=1"));
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.Job(1).error, 11);
  EXPECT_EQ(Bytes(p, 1), 316u * 4096);
  ASSERT_FALSE(p.run->runners()[1]->messages().empty());
  EXPECT_NE(p.run->runners()[1]->messages()[0].find("read offset=1294336, buflen=4096"),
            std::string::npos)
      << p.run->runners()[1]->messages()[0];
}

// A buffered write: ext4_buffered_write_iter() and blkdev_write_iter()
// refuse IOCB_NOWAIT (EOPNOTSUPP, err=95); io_uring's io_write() answers
// -EAGAIN itself (err=11). Real fio 3.33: the same on an ext4 file and on
// /dev/loop0.
TEST(NowaitTest, ABufferedWriteIsRefused) {
  for (const char* file : {"/d/f", "/dev/sdb"}) {
    for (const char* eng : {"pvsync2", "libaio", "io_uring"}) {
      auto s = testing::RunArgs(
          RamStack(), Split(std::string("--name=u --size=1m --bs=4k --rw=randwrite --nowait=1 ") +
                            "--filename=" + file + " --ioengine=" + eng));
      ASSERT_TRUE(s.status.ok()) << s.status.ToString();
      const bool uring = std::string(eng) == "io_uring";
      EXPECT_EQ(s.Job(0).error, uring ? 11 : 95) << file << " " << eng;
      EXPECT_EQ(s.Job(0).verror, uring ? kEagain : kEopnotsupp) << file << " " << eng;
      EXPECT_EQ(Bytes(s, 0), 0u);
    }
  }
}

// Direct I/O: reads go on; a write goes on where it overwrites allocated
// blocks (ext4_overwrite_io()), fio's preallocated file (fallocate=native)
// included, and would block where it extends the file (fallocate=none).
TEST(NowaitTest, DirectWritesMustOverwrite) {
  for (const char* rw : {"randread", "randwrite"}) {
    auto s = RunJob(std::string("--nowait=1 --direct=1 --ioengine=libaio --iodepth=4 --rw=") + rw);
    ASSERT_TRUE(s.status.ok()) << s.status.ToString();
    EXPECT_EQ(s.Job(0).error, 0) << rw;
    EXPECT_EQ(Bytes(s, 0), 1u << 20) << rw;
  }
  auto pre = RunJob("--rw=write --nowait=1 --direct=1 --ioengine=pvsync2 --fallocate=native");
  ASSERT_TRUE(pre.status.ok());
  EXPECT_EQ(pre.Job(0).error, 0);
  auto grow = RunJob("--rw=write --nowait=1 --direct=1 --ioengine=pvsync2 --fallocate=none");
  ASSERT_TRUE(grow.status.ok());
  EXPECT_EQ(grow.Job(0).error, 11);
  EXPECT_EQ(Bytes(grow, 0), 0u);
}

// File systems that set no FMODE_NOWAIT: ZFS (zpl_open()) and NFS
// (nfs_file_open()): every read and write is EOPNOTSUPP.
TEST(NowaitTest, ZfsAndNfsRefuseTheFlag) {
  for (const char* stack : {"ssd-zfs", "nfs-1gbe"}) {
    HostOptions ho;
    ho.stack = stack;
    auto host = SimHost::Create(ho);
    ASSERT_TRUE(host.ok()) << host.status().message();
    auto sections = ParseCommandLine(
        Split("--name=u --filename=/d/f --size=1m --bs=4k --rw=randread --direct=1 --nowait=1 "
              "--ioengine=io_uring"));
    ASSERT_TRUE(sections.ok());
    auto jobs = BuildJobs(*sections, 1);
    ASSERT_TRUE(jobs.ok()) << jobs.status().message();
    FioRun run(**host, std::move(*jobs));
    ASSERT_TRUE(run.Prepare().ok());
    ASSERT_TRUE(run.Run(nullptr).ok());
    EXPECT_EQ(run.runners()[0]->stat().error, 95) << stack;
  }
}

// io_uring_cmd: the sqe's rw_flags are its uring_cmd_flags, and
// io_uring_cmd_prep() refuses flags it does not know (EINVAL).
TEST(NowaitTest, IoUringCmdRefusesRwFlags) {
  auto s = testing::RunArgs(RamStack(), Split("--name=u --filename=/dev/ng0n1 --size=1m --bs=4k "
                                              "--rw=randread --ioengine=io_uring_cmd --nowait=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).error, 22);
  EXPECT_EQ(Bytes(s, 0), 0u);
}

TEST(NowaitTest, TheFlagsBelongToTheirEngines) {
  auto a = RunJob("--rw=read --ioengine=psync --nowait=1");
  EXPECT_NE(a.status.message().find("nowait is an option of ioengine=pvsync2, libaio, io_uring"),
            std::string::npos)
      << a.status.message();
  auto b = RunJob("--rw=read --ioengine=libaio --force_async=2");
  EXPECT_NE(b.status.message().find("force_async is an option of ioengine=io_uring"),
            std::string::npos)
      << b.status.message();
  auto c = RunJob("--rw=read --ioengine=io_uring --force_async=-1");
  EXPECT_FALSE(c.status.ok());
}

// force_async=N: every Nth I/O prepared waits for an io-wq worker to wake
// (engines.cc: 3 us) before it reaches the stack; its submission costs the
// same. Buffered writes go through io-wq anyway: no change.
TEST(ForceAsyncTest, EveryNthIoWaitsForAWorker) {
  const std::string job = "--rw=randread --direct=1 --ioengine=io_uring ";  // 256 I/Os
  auto base = RunJob(job);
  ASSERT_TRUE(base.status.ok()) << base.status.ToString();
  const DirStat& b = base.Job(0).dir[kRead];
  for (int n : {1, 2, 4}) {
    auto s = RunJob(job + "--force_async=" + std::to_string(n));
    ASSERT_TRUE(s.status.ok()) << s.status.ToString();
    const DirStat& d = s.Job(0).dir[kRead];
    ASSERT_EQ(d.clat.samples(), 256u);
    EXPECT_EQ(d.slat.mean(), b.slat.mean()) << n;
    EXPECT_NEAR(d.clat.mean() - b.clat.mean(), 3000.0 / n, 1e-6) << n;
  }
  auto w0 = RunJob("--rw=randwrite --ioengine=io_uring --number_ios=500");
  auto w1 = RunJob("--rw=randwrite --ioengine=io_uring --number_ios=500 --force_async=1");
  ASSERT_TRUE(w0.status.ok() && w1.status.ok());
  EXPECT_EQ(w0.Job(0).dir[kWrite].clat.mean(), w1.Job(0).dir[kWrite].clat.mean());
}

}  // namespace fio_nowait_test
}  // namespace storlab::fio
