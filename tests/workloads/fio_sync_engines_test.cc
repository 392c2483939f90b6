// The synchronous engines beside sync and psync (engines.h): pvsync and
// pvsync2 (engines/sync.c fio_pvsyncio_queue(), fio_pvsyncio2_queue(),
// hipri), vsync's merged runs (fio_vsyncio_queue(), fio_vsyncio_commit():
// job_runner_vsync.cc), mmap's page faults and its "not really direct"
// direct=1 (engines/mmap.c: job_runner_engines.cc) and splice's rounds
// through a pipe (engines/splice.c). Virtual time: the figures are exact.
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_sync_engines_test {

using testing::RamStack;
using testing::RunArgs;
using testing::RunInDir;
using testing::Split;

Status RunError(const std::string& args) {
  return RunArgs(RamStack(), Split("--name=t --directory=/d " + args)).status;
}

const OpStats& Disk(const testing::Sim& s, Op op) { return s.host->device().stats().op(op); }

uint64_t ClatMin(const testing::Sim& s, int dir) { return s.Job(0).dir[dir].clat.min(); }

TEST(FioSyncEnginesTest, PvsyncAndPvsync2CostPsyncsCallAndTheIovec) {
  const std::string job = "--rw=randread --bs=4k --size=64k --direct=1 --ioengine=";
  auto psync = RunInDir(job + "psync");
  auto pvsync = RunInDir(job + "pvsync");
  auto pvsync2 = RunInDir(job + "pvsync2");
  EXPECT_EQ(ClatMin(pvsync, kRead), ClatMin(psync, kRead) + 60);  // engines.cc: +30 ns a side
  EXPECT_EQ(ClatMin(pvsync2, kRead), ClatMin(pvsync, kRead));
  EXPECT_EQ(Disk(pvsync2, Op::kRead).ops, 16u);
  // hipri: RWF_HIPRI changes no timing here (job_spec_fixup.cc).
  auto hipri = RunInDir(job + "pvsync2 --hipri --hipri_percentage=50");
  EXPECT_EQ(ClatMin(hipri, kRead), ClatMin(pvsync2, kRead));
  EXPECT_EQ(hipri.Job(0).dir[kRead].clat.max(), pvsync2.Job(0).dir[kRead].clat.max());
}

TEST(FioSyncEnginesTest, HipriBelongsToPvsync2) {
  Status st = RunError("--rw=read --size=64k --ioengine=psync --hipri");
  EXPECT_NE(st.message().find("hipri and hipri_percentage are modelled with ioengine=pvsync2 "
                              "only, not with ioengine=psync"),
            std::string::npos)
      << st.ToString();
  st = RunError("--rw=read --size=64k --ioengine=libaio --hipri_percentage=10");
  EXPECT_NE(st.message().find("not with ioengine=libaio"), std::string::npos) << st.ToString();
  st = RunError("--rw=read --size=64k --ioengine=pvsync2 --hipri_percentage=101");
  EXPECT_NE(st.message().find("hipri_percentage"), std::string::npos) << st.ToString();
}

TEST(FioSyncEnginesTest, VsyncMergesContiguousIosIntoOneRequest) {
  const std::string job = "--ioengine=vsync --rw=read --bs=4k --size=64k --direct=1 ";
  // fio's default iodepth_batch=1: every I/O is committed alone.
  auto alone = RunInDir(job + "--iodepth=4");
  EXPECT_EQ(Disk(alone, Op::kRead).ops, 16u);
  // iodepth_batch=4: runs of four 4 KiB reads, one 16 KiB readv each.
  auto merged = RunInDir(job + "--iodepth=4 --iodepth_batch=4");
  EXPECT_EQ(Disk(merged, Op::kRead).ops, 4u);
  EXPECT_EQ(Disk(merged, Op::kRead).bytes, 64u << 10);
  const ThreadStat& ts = merged.Job(0);
  EXPECT_EQ(ts.dir[kRead].total_ios, 16u);
  // A run's I/Os are queued 530 ns apart (fio's work per I/O) and reaped
  // together when the call returns.
  EXPECT_EQ(ts.dir[kRead].clat.max() - ts.dir[kRead].clat.min(), 3u * 530);
  // Nothing contiguous (rw=read:4k skips 4 KiB after each I/O, and wraps
  // at the end: 128 KiB of I/O): no merge.
  auto gaps = RunInDir(
      "--ioengine=vsync --rw=read:4k --bs=4k --size=128k --direct=1 --iodepth=4 "
      "--iodepth_batch=4");
  EXPECT_EQ(gaps.Job(0).dir[kRead].total_ios, 32u);
  EXPECT_EQ(Disk(gaps, Op::kRead).ops, 32u);
}

TEST(FioSyncEnginesTest, VsyncRunsCarryTheirData) {
  // Writes gathered into one writev, read back (scattered) and verified.
  auto s = testing::RunWithHost(RamStack(),
                                Split("--name=t --directory=/d --ioengine=vsync --rw=write "
                                      "--bs=4k --size=256k --direct=1 --iodepth=8 "
                                      "--iodepth_batch=8 --verify=crc32c"),
                                true);
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).error, 0);
  EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 64u);  // the verify pass
  EXPECT_EQ(Disk(s, Op::kWrite).ops, 8u);         // 8 runs of 32 KiB
}

TEST(FioSyncEnginesTest, MmapFaultsOnFirstTouchInsteadOfASystemCall) {
  // Every write touches a new page: a write fault (1.4 us) and no call
  // (psync's 1.2 us); the page-cache copy is the same.
  const std::string job = "--rw=write --bs=4k --size=64k --ioengine=";
  auto psync = RunInDir(job + "psync");
  auto mmap = RunInDir(job + "mmap");
  EXPECT_EQ(ClatMin(mmap, kWrite), ClatMin(psync, kWrite) - 1200 + 1400);
  // Reads of cached pages: one read fault (5.5 us) per 64 KiB mapped.
  auto r = RunArgs(RamStack(), Split("--directory=/d --name=w --rw=write --bs=4k --size=256k "
                                     "--name=t --stonewall --rw=read --bs=4k --size=256k "
                                     "--ioengine=mmap --invalidate=0 --filename=w.0.0"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  const ThreadStat& rs = r.Job(1);
  EXPECT_EQ(rs.dir[kRead].total_ios, 64u);
  EXPECT_EQ(rs.dir[kRead].clat.max() - rs.dir[kRead].clat.min(), 5500u);
  EXPECT_EQ(Disk(r, Op::kRead).ops, 0u);  // the page cache had them
}

TEST(FioSyncEnginesTest, MmapDirectIsBufferedWithAnMsyncPerWrite) {
  auto s = RunInDir("--rw=write --bs=4k --size=64k --ioengine=mmap --direct=1");
  EXPECT_EQ(Disk(s, Op::kWrite).ops, 16u);  // each write written back in its I/O
  EXPECT_GE(Disk(s, Op::kFlush).ops, 16u);  // and flushed (msync: fsync's path)
  // The block size must be a page multiple (fio_mmapio_init()).
  Status st = RunError("--rw=write --bs=2k --size=64k --ioengine=mmap --direct=1");
  EXPECT_NE(st.message().find("option 'bs': 2048: mmap options (direct=1, fsync=, fdatasync=) "
                              "dictate a minimum block size of 4096 bytes"),
            std::string::npos)
      << st.ToString();
  EXPECT_TRUE(RunError("--rw=write --bs=2k --size=64k --ioengine=mmap").ok());
}

TEST(FioSyncEnginesTest, SpliceGoesThroughAPipeIn64KiBRounds) {
  const std::string job = "--size=1m --direct=1 --ioengine=";
  auto pr = RunInDir("--rw=read --bs=4k " + job + "psync");
  auto sr = RunInDir("--rw=read --bs=4k " + job + "splice");
  EXPECT_EQ(ClatMin(sr, kRead), ClatMin(pr, kRead) + 430);
  auto pw = RunInDir("--rw=write --bs=4k " + job + "psync");
  auto sw = RunInDir("--rw=write --bs=4k " + job + "splice");
  EXPECT_EQ(ClatMin(sw, kWrite), ClatMin(pw, kWrite) + 1450);
  // 128 KiB: two rounds, the second a whole call more.
  auto pb = RunInDir("--rw=read --bs=128k " + job + "psync");
  auto sb = RunInDir("--rw=read --bs=128k " + job + "splice");
  EXPECT_EQ(ClatMin(sb, kRead), ClatMin(pb, kRead) + 2 * 430 + 1200);
  EXPECT_EQ(Disk(sb, Op::kRead).ops, 8u);  // direct: one request per I/O
}

}  // namespace fio_sync_engines_test
}  // namespace storlab::fio
