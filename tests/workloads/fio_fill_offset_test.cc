// fill_device / fill_fs, offset / offset_increment and verify_async
// (fio_run.cc, job_runner_errors.cc, job_spec.cc, job_runner_verify.cc).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/node_faults.h"
#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_fill_offset_test {

using testing::IologIos;
using testing::RamStack;
using testing::Split;

// The "op offset length" lines of job `i`'s iolog.
std::vector<std::string> Ios(const testing::Sim& s, size_t i) {
  const IologWriter* w = s.run->runners()[i]->iolog();
  return w ? IologIos(w->text()) : std::vector<std::string>{};
}

// fill_device: sequential writes until the file system is full; the ENOSPC
// is logged and ends the job without an error (backend.c).
TEST(FillDeviceTest, WritesUntilEnospcWithoutError) {
  for (const char* opt : {"--fill_device=1", "--fill_fs=1"}) {
    auto s = testing::RunArgs(
        RamStack("100us", "16MiB"),
        Split(std::string("--name=w --rw=write --bs=64k --direct=1 --directory=/d ") + opt));
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    const ThreadStat& t = s.Job(0);
    EXPECT_EQ(t.error, 0) << opt;
    EXPECT_EQ(t.total_err_count, 0u) << opt;
    // The 16 MiB file system holds 256 writes of 64 KiB; the 257th meets
    // ENOSPC (counted in total_ios, as fio's td_io_queue() counts it).
    EXPECT_EQ(s.host->fs().capacity(), 16u << 20);
    EXPECT_EQ(t.dir[kWrite].io_bytes, 16u << 20) << opt;
    EXPECT_EQ(t.dir[kWrite].total_ios, 257u) << opt;
    const auto& m = s.run->runners()[0]->messages();
    ASSERT_EQ(m.size(), 1u) << opt;
    EXPECT_EQ(m[0],
              "fio: io_u error on file /d/w.0.0: No space left on device: write "
              "offset=16777216, buflen=65536");
  }
  // Without it, the same writes past the space left are the job's error.
  auto s = testing::RunArgs(RamStack("100us", "16MiB"),
                            Split("--name=w --rw=write --bs=64k --direct=1 --directory=/d "
                                  "--size=32m --fallocate=none"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).error, 28);
}

// Runs `args` on `host` (a second run sees what the first left, as a
// second `storlab sim` on a saved state would).
testing::Sim RunOn(SimHost& host, const std::string& args) {
  testing::Sim s;
  auto sections = ParseCommandLine(Split(args));
  EXPECT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  EXPECT_TRUE(jobs.ok()) << jobs.status().message();
  s.run = std::make_unique<FioRun>(host, std::move(*jobs));
  s.status = s.run->Prepare();
  if (s.status.ok()) s.status = s.run->Run(nullptr);
  return s;
}

// surface-scan.fio's two phases: fill with verify=meta + a pattern at
// 512-byte intervals, then read it all back, verifying, as two runs on
// one host. (In one job file, with create_serialize=0:
// fio_file_setup_test.cc, CreateSerializeTest.SurfaceScanInOneRun.)
TEST(FillDeviceTest, FillThenVerify) {
  HostOptions ho;
  ho.stack = "test.toml";
  ho.stack_text = RamStack("100us", "16MiB");
  ho.keep_data = true;
  auto host = SimHost::Create(ho);
  ASSERT_TRUE(host.ok());
  const std::string common =
      " --bs=64k --direct=1 --ioengine=sync --verify=meta --verify_pattern=0xaa555aa5 "
      "--verify_interval=512 --filename=/d/datafile.tmp";
  auto w = RunOn(**host, "--name=write-phase --rw=write --fill_device=1 --do_verify=0" + common);
  ASSERT_TRUE(w.status.ok()) << w.status.message();
  EXPECT_EQ(w.Job(0).error, 0);
  EXPECT_EQ(w.Job(0).dir[kWrite].io_bytes, 16u << 20);
  auto r = RunOn(**host, "--name=verify-phase --rw=read --do_verify=1" + common);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.Job(0).error, 0);
  EXPECT_EQ(r.Job(0).dir[kRead].io_bytes, w.Job(0).dir[kWrite].io_bytes);
  // A byte of the pattern gone bad is found.
  (*host)->device().faults().corrupt.insert(1 << 20);
  r = RunOn(**host, "--name=verify-phase --rw=read --do_verify=1" + common);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.Job(0).error, 84);
}

// offset=: the I/O covers [offset, offset + size) of a file that long.
TEST(OffsetTest, StartsAtTheOffset) {
  auto s = testing::RunArgs(RamStack(), Split("--name=w --rw=write --bs=4k --size=16k "
                                              "--offset=1m --filename=/d/f "
                                              "--write_iolog=/nonexistent/x.log"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(Ios(s, 0), (std::vector<std::string>{"write 1048576 4096", "write 1052672 4096",
                                                 "write 1056768 4096", "write 1060864 4096"}));
  EXPECT_EQ(s.host->fs().file(s.host->fs().Lookup("/d/f")).size, (1u << 20) + 16384);
  EXPECT_EQ(s.Job(0).dir[kWrite].io_bytes, 16384u);
  // Random: the same region, each block once.
  s = testing::RunArgs(RamStack(), Split("--name=w --rw=randread --bs=4k --size=16k "
                                         "--offset=8k --filename=/d/g "
                                         "--write_iolog=/nonexistent/x.log"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  std::vector<std::string> ios = Ios(s, 0);
  std::sort(ios.begin(), ios.end());
  EXPECT_EQ(ios, (std::vector<std::string>{"read 12288 4096", "read 16384 4096", "read 20480 4096",
                                           "read 8192 4096"}));
  // filesize=: the file keeps its size, the I/O is what is past the offset.
  s = testing::RunArgs(RamStack(), Split("--name=w --rw=write --bs=4k --filesize=16k "
                                         "--offset=8k --filename=/d/h"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).dir[kWrite].io_bytes, 8192u);
  // Past the end of the file: an error naming the job.
  s = testing::RunArgs(RamStack(), Split("--name=w --rw=write --bs=4k --filesize=16k "
                                         "--offset=16k --filename=/d/h"));
  EXPECT_NE(s.status.message().find("job 'w': offset 16384 leaves no room for I/O in file"),
            std::string::npos)
      << s.status.message();
}

// offset_increment: job n of numjobs starts subjob_number * increment
// further, fio's clones numbered from the last (init.c add_job()): real
// fio 3.33 with numjobs=3 offset_increment=4k puts thread 2 at 8k and
// thread 3 at 4k.
TEST(OffsetTest, OffsetIncrementPerSubjob) {
  auto s = testing::RunArgs(RamStack(), Split("--name=w --rw=write --bs=4k --size=4k "
                                              "--numjobs=3 --offset_increment=4k "
                                              "--filename=/d/shared "
                                              "--write_iolog=/nonexistent/x.log"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(Ios(s, 0), std::vector<std::string>{"write 0 4096"});
  EXPECT_EQ(Ios(s, 1), std::vector<std::string>{"write 8192 4096"});
  EXPECT_EQ(Ios(s, 2), std::vector<std::string>{"write 4096 4096"});
  s = testing::RunArgs(RamStack(), Split("--name=w --rw=write --bs=4k --size=4k --numjobs=2 "
                                         "--offset=1m --offset_increment=1m --filename=/d/s2 "
                                         "--write_iolog=/nonexistent/x.log"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(Ios(s, 1), std::vector<std::string>{"write 2097152 4096"});
  s = testing::RunArgs(RamStack(), Split("--name=w --size=4k --offset_increment=fast"));
  EXPECT_NE(s.status.message().find("option 'offset_increment': 'fast'"), std::string::npos)
      << s.status.message();
}

// verify_async: the same checks at the same moments, reported as fio's
// verifier thread reports them (flags 0x84, func=async_verify).
TEST(VerifyAsyncTest, SameTimingVerifierThreadsReport) {
  auto run = [](const std::string& extra, bool corrupt) {
    return testing::RunWithHost(
        RamStack("100us"),
        Split("--name=w --rw=write --bs=4k --size=64k --direct=1 --verify=crc32c " + extra),
        /*keep_data=*/true, [corrupt](SimHost& h) {
          if (!corrupt) return;
          h.engine().At(h.engine().now() + Nanos(1000000),
                        [&h] { h.device().faults().corrupt.insert(4096 + 512); });
        });
  };
  auto sync = run("", false);
  auto async = run("--verify_async=2", false);
  ASSERT_TRUE(async.status.ok()) << async.status.message();
  EXPECT_EQ(async.Job(0).error, 0);
  EXPECT_EQ(async.Job(0).dir[kRead].total_ios, 16u);
  EXPECT_EQ(async.Job(0).dir[kRead].runtime_ms, sync.Job(0).dir[kRead].runtime_ms);
  EXPECT_EQ(async.Job(0).dir[kRead].clat.mean(), sync.Job(0).dir[kRead].clat.mean());
  auto bad = run("--verify_async=2", true);
  ASSERT_TRUE(bad.status.ok()) << bad.status.message();
  EXPECT_EQ(bad.Job(0).error, 84);
  EXPECT_EQ(bad.Job(0).verror,
            "file:verify.c:1441, func=async_verify, error=Invalid or incomplete multibyte or "
            "wide character");
  const auto& m = bad.run->runners()[0]->messages();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[0],
            "crc32c: verify failed at file w.0.0 offset 4096, length 4096 (requested block: "
            "offset=4096, length=4096, flags=84)");
  auto neg = run("--verify_async=-1", false);
  EXPECT_NE(neg.status.message().find("option 'verify_async': '-1' out of range"),
            std::string::npos)
      << neg.status.message();
}

}  // namespace fio_fill_offset_test
}  // namespace storlab::fio
