// fio's semantics in virtual time, asserted exactly where the model is
// exact: a RAM disk with a fixed latency and the engines' fixed costs.
#include <gtest/gtest.h>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/engines.h"

namespace storlab::fio {
namespace fio_run_test {

using namespace time_literals;
using testing::RamStack;
using testing::RunArgs;

TEST(FioRunTest, PsyncQd1IsLatencyPlusSyscall) {
  auto s = RunArgs(RamStack("100us"), {"--name=j", "--ioengine=psync", "--direct=1",
                                       "--rw=randread", "--bs=4k", "--size=4m"});
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& ts = s.Job(0);
  const DirStat& r = ts.dir[kRead];
  EXPECT_EQ(r.total_ios, 1024u);
  EXPECT_EQ(r.io_bytes, 4u << 20);
  // clat = syscall entry + device + exit; every I/O the same.
  const EngineModel& e = GetEngineModel(EngineKind::kPsync);
  uint64_t clat = static_cast<uint64_t>((e.submit + 100_us + e.complete).count());
  EXPECT_EQ(r.clat.min(), clat);
  EXPECT_EQ(r.clat.max(), clat);
  EXPECT_EQ(r.slat.samples(), 0u);  // sync engines have no slat
  Nanos per_io = e.prep + e.submit + 100_us + e.complete;
  Nanos elapsed = per_io * 1024;
  EXPECT_EQ(r.runtime_ms, (static_cast<uint64_t>(elapsed.count()) / 1000 + 999) / 1000);
  EXPECT_EQ(ts.io_u_map[0], 1024u);  // depth 1
  auto j = s.JsonObject();
  EXPECT_EQ(j["jobs"][0]["read"]["bw_bytes"].get<uint64_t>(), (4ull << 20) * 1000 / r.runtime_ms);
  EXPECT_EQ(j["jobs"][0]["read"]["clat_ns"]["percentile"]["50.000000"].get<uint64_t>(),
            LatencyHistogram::IndexToValue(LatencyHistogram::ValueToIndex(clat)));
}

TEST(FioRunTest, AsyncEngineKeepsIodepthInFlight) {
  auto s =
      RunArgs(RamStack("100us"), {"--name=j", "--ioengine=libaio", "--direct=1", "--iodepth=8",
                                  "--rw=randread", "--size=64m", "--runtime=1", "--time_based"});
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& ts = s.Job(0);
  // Eight requests of ~100 us each in flight: ~80k IOPS.
  double iops = static_cast<double>(ts.dir[kRead].total_ios) / 1.0;
  EXPECT_GT(iops, 76000);
  EXPECT_LT(iops, 80000);
  EXPECT_GT(ts.io_u_map[3], ts.dir[kRead].total_ios * 99 / 100);  // depth 8
  EXPECT_EQ(ts.dir[kRead].slat.min(), GetEngineModel(EngineKind::kLibaio).submit.count());
  EXPECT_EQ(ts.dir[kRead].runtime_ms, 1001u);  // drain after the last issue
  EXPECT_EQ(ts.dir[kRead].bw.samples, 2u);     // 500 ms windows
}

TEST(FioRunTest, EndFsyncCountsInsideTheRuntime) {
  // Each request (and the flush) takes 300 ms: 4 writes start before 1 s.
  std::vector<std::string> args = {"--name=j", "--ioengine=psync", "--direct=1",  "--rw=write",
                                   "--bs=4k",  "--size=1m",        "--runtime=1", "--time_based"};
  auto plain = RunArgs(RamStack("300ms"), args);
  args.push_back("--end_fsync=1");
  auto fsync = RunArgs(RamStack("300ms"), args);
  ASSERT_TRUE(plain.status.ok() && fsync.status.ok());
  EXPECT_EQ(plain.Job(0).dir[kWrite].total_ios, 4u);
  EXPECT_EQ(fsync.Job(0).dir[kWrite].total_ios, 4u);
  EXPECT_EQ(plain.Job(0).dir[kWrite].runtime_ms, 1201u);
  EXPECT_EQ(fsync.Job(0).dir[kWrite].runtime_ms, 1501u);
  const auto& x = fsync.run->runners()[0]->extras();
  const EngineModel& e = GetEngineModel(EngineKind::kPsync);
  EXPECT_EQ(x.end_fsync, e.submit + 300_ms + e.complete);
  // The bandwidth falls accordingly: same bytes, longer runtime.
  EXPECT_EQ(fsync.Job(0).dir[kWrite].io_bytes, plain.Job(0).dir[kWrite].io_bytes);
}

TEST(FioRunTest, RampTimeIsExcludedFromStatsAndRuntime) {
  auto s = RunArgs(RamStack("1ms"), {"--name=j", "--ioengine=psync", "--direct=1", "--rw=randread",
                                     "--size=16m", "--runtime=2", "--ramp_time=1", "--time_based"});
  ASSERT_TRUE(s.status.ok());
  const ThreadStat& ts = s.Job(0);
  // ~1 ms per I/O: 2 s measured, not 3.
  EXPECT_GT(ts.dir[kRead].total_ios, 1990u);
  EXPECT_LT(ts.dir[kRead].total_ios, 2001u);
  EXPECT_EQ(ts.dir[kRead].runtime_ms, 2001u);
  const auto& x = s.run->runners()[0]->extras();
  EXPECT_EQ(x.epoch - x.start, 1_s);
}

TEST(FioRunTest, GroupReportingSumsBytesOverTheSlowestRuntime) {
  auto sections =
      ParseCommandLine({"--ioengine=psync", "--direct=1", "--rw=write", "--group_reporting",
                        "--name=a", "--size=1m", "--name=b", "--size=2m"});
  auto s = testing::RunJobs(RamStack("100us"), *sections);
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  auto reports = s.run->Reports();
  ASSERT_EQ(reports.size(), 1u);
  const ThreadStat& g = reports[0].ts;
  EXPECT_EQ(g.members, 2);
  EXPECT_EQ(g.name, "a");
  EXPECT_EQ(g.dir[kWrite].io_bytes, 3u << 20);
  uint64_t ra = s.Job(0).dir[kWrite].runtime_ms, rb = s.Job(1).dir[kWrite].runtime_ms;
  EXPECT_LT(ra, rb);
  EXPECT_EQ(g.dir[kWrite].runtime_ms, rb);
  auto groups = s.run->Groups(reports);
  EXPECT_EQ(groups[0].agg[kWrite], (3ull << 20) * 1000 / rb);
  auto j = s.JsonObject();
  ASSERT_EQ(j["jobs"].size(), 1u);
  EXPECT_EQ(j["jobs"][0]["write"]["bw_bytes"].get<uint64_t>(), (3ull << 20) * 1000 / rb);
  EXPECT_NE(s.Normal().find("grou"), std::string::npos);
  EXPECT_NE(s.Normal().find("a: (groupid=0, jobs=2): err= 0"), std::string::npos);
}

TEST(FioRunTest, RateIopsAndThinktimeSlowAJobDown) {
  auto rate =
      RunArgs(RamStack("10us"), {"--name=j", "--ioengine=psync", "--direct=1", "--rw=randread",
                                 "--size=16m", "--runtime=2", "--time_based", "--rate_iops=250"});
  ASSERT_TRUE(rate.status.ok());
  EXPECT_EQ(rate.Job(0).dir[kRead].total_ios, 500u);
  auto think = RunArgs(RamStack("10us"),
                       {"--name=j", "--ioengine=psync", "--direct=1", "--rw=randread", "--size=16m",
                        "--runtime=1", "--time_based", "--thinktime=990", "--thinktime_blocks=1"});
  ASSERT_TRUE(think.status.ok());
  // ~1 ms per I/O (990 us thinking + ~11 us of I/O).
  EXPECT_GT(think.Job(0).dir[kRead].total_ios, 985u);
  EXPECT_LT(think.Job(0).dir[kRead].total_ios, 1000u);
  auto bw = RunArgs(RamStack("10us"),
                    {"--name=j", "--ioengine=libaio", "--iodepth=4", "--direct=1", "--rw=write",
                     "--bs=64k", "--size=64m", "--runtime=2", "--time_based", "--rate=1m"});
  ASSERT_TRUE(bw.status.ok());
  EXPECT_EQ(bw.Job(0).dir[kWrite].io_bytes, 2u << 20);
}

TEST(FioRunTest, FsyncEveryNWritesIsCountedAsSync) {
  auto s = RunArgs(RamStack("100us"), {"--name=j", "--ioengine=psync", "--direct=1", "--rw=write",
                                       "--bs=64k", "--size=4m", "--fsync=8"});
  ASSERT_TRUE(s.status.ok());
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.dir[kWrite].total_ios, 64u);
  EXPECT_EQ(ts.sync_total, 7u);  // as fio: none after the last write
  EXPECT_EQ(ts.sync_lat.samples(), 7u);
  std::string normal = s.Normal();
  EXPECT_NE(normal.find("  fsync/fdatasync/sync_file_range:\n    sync (nsec): min="),
            std::string::npos)
      << normal;
  EXPECT_NE(normal.find("issued rwts: total=0,64,0,7"), std::string::npos);
}

TEST(FioRunTest, SequentialTimeBasedLoopsOverTheFile) {
  auto s = RunArgs(RamStack("1ms"), {"--name=j", "--ioengine=psync", "--direct=1", "--rw=read",
                                     "--bs=64k", "--size=1m", "--runtime=1", "--time_based"});
  ASSERT_TRUE(s.status.ok());
  EXPECT_GT(s.run->runners()[0]->extras().passes, 50u);  // 16 I/Os per pass, ~1000 I/Os
}

TEST(FioRunTest, MixedWorkloadFollowsRwmixread) {
  auto s = RunArgs(RamStack("10us"), {"--name=j", "--ioengine=psync", "--direct=1", "--rw=randrw",
                                      "--rwmixread=70", "--size=64m"});
  ASSERT_TRUE(s.status.ok());
  double reads = static_cast<double>(s.Job(0).dir[kRead].total_ios);
  double writes = static_cast<double>(s.Job(0).dir[kWrite].total_ios);
  EXPECT_EQ(reads + writes, 16384);
  EXPECT_NEAR(reads / (reads + writes), 0.70, 0.02);
}

TEST(FioRunTest, FullFileSystemDuringLayoutAndDuringTheJob) {
  // A read job's file does not fit: fio 3.33 says so (filesetup.c
  // extend_file(); a failed native fallocate is silent) and the job ends
  // with ENOSPC before any I/O, as real fio does on a 1 MiB tmpfs.
  auto s = RunArgs(RamStack("10us", "1MiB"),
                   {"--name=r", "--ioengine=psync", "--direct=1", "--rw=read", "--size=2m"});
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  auto msgs = s.run->Messages();
  ASSERT_GE(msgs.size(), 2u);
  EXPECT_EQ(msgs[0], "fio: ENOSPC on laying out file, stopping");
  EXPECT_EQ(msgs[1],
            "fio: pid=0, err=28/file:filesetup.c:240, func=write, error=No space left on device");
  EXPECT_EQ(s.Job(0).dir[kRead].io_bytes, 0u);
  EXPECT_EQ(s.Job(0).error, 28);
  EXPECT_EQ(s.Job(0).verror, "file:filesetup.c:240, func=write, error=No space left on device");
  // fio's normal output leaves out a job that did no I/O at all.
  EXPECT_EQ(s.Normal().find("r: (groupid=0"), std::string::npos);
  // A write job on a full file system fails with ENOSPC, as fio reports it.
  auto sections = ParseCommandLine({"--ioengine=psync", "--direct=1", "--name=fill", "--rw=write",
                                    "--size=1m", "--name=more", "--rw=write", "--size=1m"});
  auto w = testing::RunJobs(RamStack("10us", "1MiB"), *sections);
  ASSERT_TRUE(w.status.ok()) << w.status.ToString();
  EXPECT_EQ(w.Job(0).error, 0);
  EXPECT_EQ(w.Job(1).error, 28);
  EXPECT_EQ(w.Job(1).verror, "file:io_u.c:1876, func=io_u error, error=No space left on device");
  auto wm = w.run->Messages();
  EXPECT_NE(std::find(wm.begin(), wm.end(),
                      "fio: io_u error on file more.0.0: No space left on device: write "
                      "offset=0, buflen=4096"),
            wm.end());
  EXPECT_NE(w.Normal().find("more: (groupid=0, jobs=1): err=28 (file:io_u.c:1876, func=io_u "
                            "error, error=No space left on device)"),
            std::string::npos);
}

TEST(FioRunTest, StonewallRunsSegmentsOneAfterAnother) {
  auto sections = ParseCommandLine({"--ioengine=psync", "--direct=1", "--rw=write", "--size=1m",
                                    "--name=a", "--name=b", "--stonewall"});
  auto s = testing::RunJobs(RamStack("100us"), *sections);
  ASSERT_TRUE(s.status.ok());
  const auto& a = s.run->runners()[0]->extras();
  const auto& b = s.run->runners()[1]->extras();
  EXPECT_EQ(b.start, a.end);
  EXPECT_EQ(s.run->runners()[1]->spec().groupid, 1);
}

TEST(FioRunTest, SameStackJobAndSeedGiveByteIdenticalOutput) {
  std::vector<std::string> args = {"--name=j",     "--ioengine=libaio", "--direct=1",
                                   "--iodepth=16", "--rw=randrw",       "--size=64m",
                                   "--runtime=1",  "--time_based",      "--numjobs=2"};
  auto a = RunArgs(RamStack("50us", "1GiB", 8), args, 7);
  auto b = RunArgs(RamStack("50us", "1GiB", 8), args, 7);
  ASSERT_TRUE(a.status.ok() && b.status.ok());
  EXPECT_EQ(a.Json(), b.Json());
  EXPECT_EQ(a.Normal(), b.Normal());
  // randrepeat=0 takes the offsets from the seed.
  args.push_back("--randrepeat=0");
  auto c = RunArgs(RamStack("50us", "1GiB", 8), args, 7);
  auto d = RunArgs(RamStack("50us", "1GiB", 8), args, 8);
  EXPECT_EQ(c.Json(), RunArgs(RamStack("50us", "1GiB", 8), args, 7).Json());
  EXPECT_NE(c.JsonObject()["jobs"][0]["read"]["total_ios"],
            d.JsonObject()["jobs"][0]["read"]["total_ios"]);
}

}  // namespace fio_run_test
}  // namespace storlab::fio

namespace storlab::fio {
namespace fio_run_test {

// A 100 MB/s device under a host with 4 GiB of RAM: buffered writes land in
// the page cache at memory speed, direct ones at the device's speed.
std::string SlowDiskHost() {
  return "[host]\nmem = \"4GiB\"\ncores = 4\n" + testing::RamStack("20us", "4GiB", 32, "100MB/s");
}

TEST(FioBufferedTest, BufferedWritesLandInThePageCacheDirectOnesOnTheDevice) {
  std::vector<std::string> args = {"--name=j",   "--ioengine=psync", "--rw=randwrite", "--bs=64k",
                                   "--size=64m", "--runtime=2",      "--time_based"};
  auto buffered = testing::RunArgs(SlowDiskHost(), args);
  args.push_back("--direct=1");
  auto direct = testing::RunArgs(SlowDiskHost(), args);
  ASSERT_TRUE(buffered.status.ok() && direct.status.ok()) << buffered.status.ToString();
  auto bw = [](const testing::Sim& s) {
    const DirStat& d = s.Job(0).dir[kWrite];
    return static_cast<double>(d.io_bytes) / (static_cast<double>(d.runtime_ms) / 1000.0);
  };
  EXPECT_GT(bw(buffered), 1e9);  // memory speed: 64 MiB stays under the dirty limits
  EXPECT_GT(bw(direct), 90e6);
  EXPECT_LT(bw(direct), 100e6);
  // Most buffered bytes rewrote pages that were still dirty.
  const PageCache* pc = buffered.host->page_cache();
  ASSERT_NE(pc, nullptr);
  EXPECT_GT(pc->counters().rewritten_dirty_bytes, pc->counters().absorbed_bytes / 2);
  EXPECT_EQ(direct.host->page_cache()->counters().absorbed_bytes, 0u);
}

TEST(FioBufferedTest, EndFsyncPaysForTheDirtyPagesInsideTheRuntime) {
  std::vector<std::string> args = {"--name=j",     "--ioengine=psync", "--rw=randwrite",
                                   "--bs=64k",     "--size=64m",       "--runtime=2",
                                   "--time_based", "--end_fsync=1"};
  auto s = testing::RunArgs(SlowDiskHost(), args);
  ASSERT_TRUE(s.status.ok());
  const auto& x = s.run->runners()[0]->extras();
  // Up to 64 MiB dirty at 100 MB/s: ~0.6 s of flush, counted in the runtime.
  EXPECT_GT(x.end_fsync, Nanos(300'000'000));
  EXPECT_LT(x.end_fsync, Nanos(800'000'000));
  EXPECT_EQ(s.Job(0).dir[kWrite].runtime_ms,
            (static_cast<uint64_t>((x.end - x.epoch).count()) / 1000 + 999) / 1000);
}

}  // namespace fio_run_test
}  // namespace storlab::fio
