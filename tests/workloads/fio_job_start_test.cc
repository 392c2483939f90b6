// Options that decide when a job starts, what its files are called and
// which engine it runs (issue 17): wait_for (backend.c waitee_running()),
// filename_format (init.c make_filename()), ioengine=cpp_null (engines/
// null.c as C++). Virtual time: the times are exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_job_start_test {

using testing::RamStack;

testing::Sim RunText(const std::string& text) {
  auto sections = ParseJobText(text, "t.fio", "/nonexistent",
                               [](const std::string&) { return std::optional<std::string>(); });
  EXPECT_TRUE(sections.ok()) << sections.status().ToString();
  return testing::RunJobs(RamStack("100us"), *sections);
}

Nanos Start(const testing::Sim& s, size_t job) { return s.run->runners()[job]->extras().start; }
Nanos End(const testing::Sim& s, size_t job) { return s.run->runners()[job]->extras().end; }

// waitfor.fio's shape: the readers (two clones) start when both writers
// have exited, not before; a job that waits for nobody starts at once.
TEST(FioWaitForTest, AJobStartsWhenEveryCloneOfItsWaiteeHasExited) {
  auto s = RunText(
      "[global]\nfilename=data\nfilesize=1m\nioengine=psync\ndirect=1\n"
      "[writers]\nrw=write\nnumjobs=2\nnumber_ios=30\n"
      "[readers]\nnew_group\nwait_for=writers\nrw=randread\nnumber_ios=10\nnumjobs=2\n"
      "[other]\nnew_group\nrw=read\nnumber_ios=5\n");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  Nanos writers_end = Max(End(s, 0), End(s, 1));
  EXPECT_EQ(Start(s, 0), Start(s, 4));  // "other" is not fenced
  EXPECT_EQ(Start(s, 2), writers_end);
  EXPECT_EQ(Start(s, 3), writers_end);
  EXPECT_EQ(s.Job(2).dir[kRead].total_ios, 10u);
}

TEST(FioWaitForTest, StartdelayCountsFromTheStartNotFromTheWaitee) {
  auto s = RunText(
      "[global]\nfilename=data\nfilesize=1m\nioengine=psync\ndirect=1\n"
      "[a]\nrw=read\nnumber_ios=10\n"                               // ends after ~1 ms
      "[b]\nwait_for=a\nstartdelay=50ms\nrw=read\nnumber_ios=1\n"   // starts at 50 ms
      "[c]\nwait_for=b\nstartdelay=1ms\nrw=read\nnumber_ios=1\n");  // when b ends
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(Start(s, 1) - Start(s, 0), Nanos(50'000'000));
  EXPECT_EQ(Start(s, 2), End(s, 1));
}

// init.c wait_for_ok(): fio's three errors.
TEST(FioWaitForTest, TheWaiteeMustBeOneEarlierJobAndNotItself) {
  auto err = [](const std::string& args) {
    return testing::RunArgs(RamStack(), testing::Split(args)).status.ToString();
  };
  EXPECT_NE(err("--name=a --size=1m --wait_for=a")
                .find("a: a job cannot wait for itself "
                      "(wait_for=a)"),
            std::string::npos);
  EXPECT_NE(err("--name=a --size=1m --wait_for=b --name=b").find("a: waitee job b unknown"),
            std::string::npos);
  EXPECT_NE(
      err("--name=b --size=1m --name=b --name=c --wait_for=b").find("c: multiple waitees b found"),
      std::string::npos);
}

// init.c make_filename(): keywords in any case, each occurrence; a
// filename= wins; the default is $jobname.$jobnum.$filenum.
TEST(FioFilenameFormatTest, NamesTheFilesAsFioDoes) {
  auto files = [](const std::string& args) {
    auto s = testing::RunArgs(RamStack(), testing::Split(args));
    EXPECT_TRUE(s.status.ok()) << s.status.ToString();
    std::vector<std::string> out;
    for (const auto& r : s.run->runners()) {
      for (const auto& f : r->spec().files) out.push_back(f);
    }
    return out;
  };
  EXPECT_EQ(files("--name=w --size=64k --nrfiles=2 --numjobs=2"),
            (std::vector<std::string>{"w.0.0", "w.0.1", "w.1.0", "w.1.1"}));
  EXPECT_EQ(files("--name=w --size=64k --nrfiles=2 --numjobs=2 --directory=d "
                  "--filename_format=x.$FILENUM-$jobname.$jobnum.$filenum"),
            (std::vector<std::string>{"d/x.0-w.0.0", "d/x.1-w.0.1", "d/x.0-w.1.0", "d/x.1-w.1.1"}));
  // ime.fio's: every job reads the files the write jobs wrote.
  EXPECT_EQ(files("--filename_format=f.$jobnum.$filenum --size=64k --name=wr --rw=write "
                  "--name=rd --stonewall"),
            (std::vector<std::string>{"f.0.0", "f.0.0"}));
  EXPECT_EQ(files("--name=w --size=64k --filename=given --filename_format=$jobname.x"),
            (std::vector<std::string>{"given"}));
}

// cpp_null.fio: the C++ build of the null engine does what null does.
TEST(FioCppNullTest, RunsAsTheNullEngine) {
  auto run = [](const std::string& engine) {
    auto s = testing::RunArgs(RamStack(), testing::Split("--name=n --bs=4k --size=64m "
                                                         "--rw=randread --norandommap "
                                                         "--gtod_reduce=1 --ioengine=" +
                                                         engine));
    EXPECT_TRUE(s.status.ok()) << s.status.ToString();
    return s;
  };
  auto cpp = run("cpp_null"), null = run("null");
  EXPECT_EQ(cpp.Job(0).dir[kRead].total_ios, 16384u);
  EXPECT_EQ(cpp.Job(0).dir[kRead].runtime_ms, null.Job(0).dir[kRead].runtime_ms);
  EXPECT_EQ(cpp.host->stack().root().stats().op(Op::kRead).ops, 0u);  // nothing reached it
}

// fallocate= (filesetup.c fallocate_file()) for a write job, which gets
// a fresh file and no layout: real fio 3.33, 4 sequential 4 KiB writes
// into size=1m, stat(1) afterwards — none and 0: 16384 bytes, 16 KiB
// allocated; truncate: 1 MiB, 16 KiB; native, posix and 1: 1 MiB, 1 MiB;
// keep: 16384 bytes, 1 MiB.
TEST(FioFallocateTest, DecidesWhatTheFileHoldsBeforeTheJobWrites) {
  auto run = [](const std::string& mode) {
    auto s = testing::RunArgs(RamStack(), testing::Split("--name=fa --filename=fa --size=1m "
                                                         "--rw=write --bs=4k --number_ios=4 "
                                                         "--fallocate=" +
                                                         mode));
    EXPECT_TRUE(s.status.ok()) << s.status.ToString();
    const ExtentFs& fs = s.host->fs();
    const ExtentFs::File& f = fs.file(fs.Lookup("fa"));
    return std::make_pair(f.size, f.allocated);
  };
  EXPECT_EQ(run("none"), std::make_pair(uint64_t{16384}, uint64_t{16384}));
  EXPECT_EQ(run("0"), run("none"));
  EXPECT_EQ(run("truncate"), std::make_pair(uint64_t{1 << 20}, uint64_t{16384}));
  EXPECT_EQ(run("native"), std::make_pair(uint64_t{1 << 20}, uint64_t{1 << 20}));
  EXPECT_EQ(run("posix"), run("native"));
  EXPECT_EQ(run("1"), run("native"));
  // keep (FALLOC_FL_KEEP_SIZE): 1 MiB allocated, the size what was written
  // (real fio 3.33 with --number_ios=1: 4096 bytes, 2048 blocks of 512).
  EXPECT_EQ(run("keep"), std::make_pair(uint64_t{16384}, uint64_t{1 << 20}));
}

// log_prio=1 (iolog.c flush_samples()): the last column is the I/O's
// priority value as 0x%04x (0: no prio= here), as real fio 3.33 writes
// "3, 44112, 0, 4096, 0x0000" and, with log_offset=1, "..., 4096, 0x0000".
TEST(FioLogPrioTest, TheLastColumnIsThePriorityValueInHex) {
  for (const char* offset : {"0", "1"}) {
    auto s = testing::RunArgs(RamStack(), testing::Split(std::string("--name=p --size=64k "
                                                                     "--write_lat_log=pr "
                                                                     "--log_prio=1 --log_offset=") +
                                                         offset));
    ASSERT_TRUE(s.status.ok()) << s.status.ToString();
    testing::TempDir dir;
    ASSERT_TRUE(s.run->runners()[0]->logs()->Write(dir.path).ok());
    std::ifstream in(dir.path + "/pr_lat.1.log");
    size_t n = 0;
    for (std::string l; std::getline(in, l); ++n) {
      EXPECT_EQ(std::count(l.begin(), l.end(), ','), offset[0] == '1' ? 5 : 4) << l;
      EXPECT_EQ(l.substr(l.size() - 8), ", 0x0000") << l;
    }
    EXPECT_EQ(n, 16u);
  }
}

}  // namespace fio_job_start_test
}  // namespace storlab::fio
