// How a job's files are set up (fio_run_setup.cc, fio 3.33's filesetup.c):
// create_serialize, allow_file_create, file_append, offset=N%,
// offset_increment=N% and offset_align, each against what real fio 3.33
// did with the same job on a file in /tmp (ioengine=psync, write_iolog).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_file_setup_test {

using testing::IologIos;
using testing::RamStack;
using testing::Split;

// A host that keeps data, on which several runs follow one another (each
// sees the files the last left, as fio's runs in one /tmp do).
std::unique_ptr<SimHost> SetupHost(const std::string& cap = "1GiB") {
  HostOptions ho;
  ho.stack = "test.toml";
  ho.stack_text = RamStack("100us", cap);
  ho.keep_data = true;
  auto host = SimHost::Create(ho);
  EXPECT_TRUE(host.ok());
  return std::move(*host);
}

testing::Sim RunOnSetupHost(SimHost& host, const std::string& args) {
  testing::Sim s;
  auto sections = ParseCommandLine(Split(args));
  EXPECT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  if (!jobs.ok()) {
    s.status = jobs.status();
    return s;
  }
  s.run = std::make_unique<FioRun>(host, std::move(*jobs));
  s.status = s.run->Prepare();
  if (s.status.ok()) s.status = s.run->Run(nullptr);
  return s;
}

// The "op offset length" lines of job `i`'s iolog.
std::vector<std::string> JobIos(const testing::Sim& s, size_t i) {
  const IologWriter* w = s.run->runners()[i]->iolog();
  return w ? IologIos(w->text()) : std::vector<std::string>{};
}

// `n` sequential I/Os of `op` from `first`, `bs` bytes each.
std::vector<std::string> Seq(const std::string& op, uint64_t first, uint64_t bs, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(op + " " + std::to_string(first + bs * static_cast<uint64_t>(i)) + " " +
                  std::to_string(bs));
  }
  return out;
}

constexpr const char* kLog = " --write_iolog=/nonexistent/x.log";

// create_serialize=0 (backend.c thread_main()): the stonewalled read job
// sets its file up when it starts, after the write job, and so reads the
// file the write job left. Real fio 3.33 with surface-scan.fio's two
// phases on a 1 MiB file (write-phase size=1m, verify-phase no size):
// verify-phase reads 16 × 64 KiB from 0, verifies, err=0.
TEST(CreateSerializeTest, StonewalledJobSetsUpAfterTheJobsBefore) {
  auto host = SetupHost();
  const std::string common =
      " --bs=64k --ioengine=psync --verify=meta --verify_pattern=0xaa555aa5 "
      "--verify_interval=512 --filename=/d/datafile.tmp";
  auto s = RunOnSetupHost(*host, "--name=write-phase --rw=write --size=1m --do_verify=0" + common +
                                     " --name=verify-phase --stonewall "
                                     "--create_serialize=0 --rw=read --do_verify=1" +
                                     common + kLog);
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).dir[kWrite].io_bytes, 1u << 20);
  EXPECT_EQ(s.Job(1).error, 0);
  EXPECT_EQ(s.Job(1).dir[kRead].io_bytes, 1u << 20);
  EXPECT_EQ(JobIos(s, 1), Seq("read", 0, 65536, 16));
}

// surface-scan.fio itself: fill the file system, then read it all back,
// verifying, in one run.
TEST(CreateSerializeTest, SurfaceScanInOneRun) {
  auto host = SetupHost("16MiB");
  const std::string common =
      " --thread --bs=64k --direct=1 --ioengine=sync --verify=meta --verify_pattern=0xaa555aa5 "
      "--verify_interval=512 --filename=/d/datafile.tmp";
  auto s =
      RunOnSetupHost(*host, "--name=write-phase --rw=write --fill_device=1 --do_verify=0" + common +
                                " --name=verify-phase --stonewall "
                                "--create_serialize=0 --rw=read --do_verify=1" +
                                common);
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).error, 0);
  EXPECT_EQ(s.Job(0).dir[kWrite].io_bytes, 16u << 20);
  EXPECT_EQ(s.Job(1).error, 0);
  EXPECT_EQ(s.Job(1).dir[kRead].io_bytes, 16u << 20);
}

// A job that sets up its own files and finds no size: fio 3.33's error in
// that job (err=22, func=total_file_size), not the run's.
TEST(CreateSerializeTest, NoSizeIsTheJobsError) {
  auto host = SetupHost();
  auto s = RunOnSetupHost(*host, "--name=a --filename=/d/nofile --rw=read --create_serialize=0");
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).error, 22);
  EXPECT_EQ(s.Job(0).verror, "file:filesetup.c:1155, func=total_file_size, error=Invalid argument");
  EXPECT_EQ(s.Job(0).dir[kRead].io_bytes, 0u);
  const auto m = s.run->Messages();
  EXPECT_NE(std::find(m.begin(), m.end(),
                      "fio: pid=0, err=22/file:filesetup.c:1155, func=total_file_size, "
                      "error=Invalid argument"),
            m.end());
  // Serialised (the default), the same job is an error before the run.
  s = RunOnSetupHost(*host, "--name=a --filename=/d/nofile --rw=read");
  EXPECT_NE(s.status.message().find("need size= or filesize="), std::string::npos);
  s = RunOnSetupHost(*host, "--name=a --filename=/d/f --size=1m --create_serialize=sometimes");
  EXPECT_NE(s.status.message().find("create_serialize"), std::string::npos) << s.status.message();
}

// allow_file_create=0: real fio 3.33 says "fio: file creation disallowed
// by allow_file_create=0", the job does no I/O with error 0, and fio
// exits with 1; an existing file is used.
TEST(AllowFileCreateTest, MissingFileFailsTheSetup) {
  auto host = SetupHost();
  auto s = RunOnSetupHost(
      *host, "--name=a --filename=/d/nof --rw=write --bs=4k --size=16k --allow_file_create=0");
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).error, 0);
  EXPECT_TRUE(s.run->runners()[0]->setup_failed());
  EXPECT_EQ(s.Job(0).dir[kWrite].io_bytes, 0u);
  EXPECT_EQ(host->fs().Lookup("/d/nof"), 0u);
  const auto m = s.run->Messages();
  EXPECT_NE(std::find(m.begin(), m.end(), "fio: file creation disallowed by allow_file_create=0"),
            m.end());
  ASSERT_TRUE(
      RunOnSetupHost(*host, "--name=a --filename=/d/f --rw=write --bs=4k --size=16k").status.ok());
  s = RunOnSetupHost(*host,
                     "--name=a --filename=/d/f --rw=read --bs=4k --size=16k --allow_file_create=0");
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_FALSE(s.run->runners()[0]->setup_failed());
  EXPECT_EQ(s.Job(0).dir[kRead].io_bytes, 16384u);
  s = RunOnSetupHost(*host, "--name=a --filename=/d/f --size=1m --allow_file_create=2");
  EXPECT_NE(s.status.message().find("allow_file_create"), std::string::npos);
}

// file_append: the I/O starts at the file's end (get_start_offset()), and
// the file is neither unlinked nor laid out again. Real fio 3.33, a 64 KiB
// file, rw=write bs=4k size=16k file_append=1: writes at 65536, 69632,
// 73728, 77824; the file is 81920 bytes.
TEST(FileAppendTest, WritesAtTheEnd) {
  auto host = SetupHost();
  ASSERT_TRUE(
      RunOnSetupHost(*host, "--name=a --filename=/d/f1 --rw=write --bs=4k --size=64k").status.ok());
  auto s = RunOnSetupHost(
      *host, "--name=a --filename=/d/f1 --rw=write --bs=4k --size=16k --file_append=1" +
                 std::string(kLog));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(JobIos(s, 0), Seq("write", 65536, 4096, 4));
  EXPECT_EQ(host->fs().file(host->fs().Lookup("/d/f1")).size, 81920u);
  s = RunOnSetupHost(*host, "--name=a --filename=/d/f1 --size=1m --file_append=maybe");
  EXPECT_NE(s.status.message().find("file_append"), std::string::npos);
}

// offset=N% (get_start_offset()): percent of the file's size, aligned up
// to offset_align or the block size; offset_align leaves a plain offset
// alone. Real fio 3.33 on a 64 KiB file, rw=read bs=4k:
TEST(OffsetPercentTest, PercentOfTheFileAlignedUp) {
  auto host = SetupHost();
  // A new file is 0 bytes when its offset is taken: offset=50% is 0.
  auto s =
      RunOnSetupHost(*host, "--name=a --filename=/d/f1 --rw=write --bs=4k --size=64k --offset=50%" +
                                std::string(kLog));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(JobIos(s, 0), Seq("write", 0, 4096, 16));
  struct Case {
    std::string args;
    uint64_t first;
    int n;
  };
  for (const Case& c : {Case{"--offset=50% --size=16k", 32768, 4},  // real fio: 32768, 4 reads
                        Case{"--offset=30%", 20480, 11},            // 19660 up to 4k
                        Case{"--offset=30% --offset_align=8k", 24576, 10},
                        Case{"--offset=10k --offset_align=8k", 10240, 13}}) {
    s = RunOnSetupHost(*host, "--name=a --filename=/d/f1 --rw=read --bs=4k " + c.args + kLog);
    ASSERT_TRUE(s.status.ok()) << c.args << ": " << s.status.message();
    EXPECT_EQ(JobIos(s, 0), Seq("read", c.first, 4096, c.n)) << c.args;
  }
  // offset_increment=25% with numjobs=2: the clone (subjob 1) at 25% + 25%.
  s = RunOnSetupHost(*host,
                     "--name=a --filename=/d/f1 --rw=read --bs=4k --size=8k --offset=25% "
                     "--offset_increment=25% --numjobs=2" +
                         std::string(kLog));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(JobIos(s, 0), Seq("read", 16384, 4096, 2));
  EXPECT_EQ(JobIos(s, 1), Seq("read", 32768, 4096, 2));
  // Bad values name the option and the value.
  for (const char* bad : {"--offset=150%", "--offset=x%", "--offset_increment=101%"}) {
    s = RunOnSetupHost(*host, std::string("--name=a --filename=/d/f1 --rw=read ") + bad);
    EXPECT_NE(s.status.message().find("a percentage must be 0% to 100%"), std::string::npos)
        << bad << ": " << s.status.message();
  }
  s = RunOnSetupHost(*host, "--name=a --filename=/d/f1 --rw=read --offset_align=abc");
  EXPECT_NE(s.status.message().find("option 'offset_align'"), std::string::npos)
      << s.status.message();
}

// unlink_each_loop (backend.c thread_main(), unlink_all_files()): real
// fio 3.33 (strace) with rw=write size=8k bs=4k loops=3: 2 pwrites, unlink,
// open(O_CREAT), 2 pwrites, unlink, open, 2 pwrites; an 8 KiB file is left.
// With rw=read the second loop's open fails: err=2, "func=open(u2)", 8 KiB
// read.
TEST(UnlinkEachLoopTest, EachLoopGetsAFreshFile) {
  auto host = SetupHost();
  auto s = RunOnSetupHost(*host,
                          "--name=a --filename=/d/u1 --size=8k --bs=4k --rw=write --loops=3 "
                          "--unlink_each_loop=1" +
                              std::string(kLog));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).error, 0);
  EXPECT_EQ(s.Job(0).dir[kWrite].io_bytes, 24576u);
  std::vector<std::string> want;
  for (int loop = 0; loop < 3; ++loop) {
    for (const auto& io : Seq("write", 0, 4096, 2)) want.push_back(io);
  }
  EXPECT_EQ(JobIos(s, 0), want);
  const uint32_t id = host->fs().Lookup("/d/u1");
  ASSERT_NE(id, 0u);
  EXPECT_EQ(host->fs().file(id).size, 8192u);
  // A reader: its second loop cannot open the file.
  s = RunOnSetupHost(*host,
                     "--name=a --filename=/d/u2 --size=8k --bs=4k --rw=read --loops=3 "
                     "--unlink_each_loop=1");
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).error, 2);
  EXPECT_EQ(s.Job(0).verror,
            "file:filesetup.c:805, func=open(/d/u2), error=No such file or directory");
  EXPECT_EQ(s.Job(0).dir[kRead].io_bytes, 8192u);
  EXPECT_EQ(host->fs().Lookup("/d/u2"), 0u);
  s = RunOnSetupHost(*host, "--name=a --filename=/d/u1 --size=8k --unlink_each_loop=always");
  EXPECT_NE(s.status.message().find("option 'unlink_each_loop'"), std::string::npos)
      << s.status.message();
}

}  // namespace fio_file_setup_test
}  // namespace storlab::fio
