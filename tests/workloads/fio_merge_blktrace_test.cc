// merge_blktrace_file, merge_blktrace_scalars, merge_blktrace_iters as fio
// 3.33 runs them (workloads/fio/blktrace_merge.cc): never a merge. Each
// case below was run with real fio 3.33 (psync, replay_redirect onto a
// file) and gave the messages, file and outcome asserted here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/workloads/blktrace_encode.h"
#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/iolog_read.h"

namespace storlab::fio {
namespace fio_merge_blktrace_test {

using testing::Act;
using testing::Encode;
using testing::kTaQueue;
using testing::kTcRead;
using testing::kTcWrite;
using testing::RamStack;
using testing::Rec;
using testing::RunArgs;
using testing::Split;
using testing::TempDir;

// Four queued I/Os, reads and writes in turn, 1 ms apart from `t0`.
std::string Trace(uint64_t t0, uint64_t sector0) {
  std::vector<Rec> v;
  for (uint32_t i = 0; i < 4; ++i) {
    Rec r;
    r.time = t0 + i * 1000000;
    r.action = Act(kTaQueue, i % 2 ? kTcWrite : kTcRead);
    r.sector = sector0 + i * 8;
    r.bytes = 4096;
    v.push_back(r);
  }
  return Encode(v, false);
}

bool HasNote(const testing::Sim& s, const std::string& text) {
  const auto& notes = s.run->Messages();
  return std::find(notes.begin(), notes.end(), text) != notes.end();
}

struct Traces {
  TempDir dir;
  std::string a = dir.Put("a.bt", Trace(1000000, 0));
  std::string b = dir.Put("b.bt", Trace(1500000, 1000));
  std::string merged = dir.path + "/merged.bt";
  std::string Args(const std::string& iolog, const std::string& extra = "") const {
    return "--name=m --read_iolog=" + iolog + " --merge_blktrace_file=" + merged + " " + extra;
  }
};

// fio 3.33: "fio: iolog short read" (read_trace() reads 8 bytes into a
// pointer), the merged file created empty, the first trace replayed: 2
// reads and 2 writes, as without the option.
TEST(FioMergeBlktraceTest, Fio333ReplaysTheListUnmerged) {
  Traces t;
  auto s = RunArgs(RamStack(), Split(t.Args(t.a + ":" + t.b, "--merge_blktrace_scalars=50:200")));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_TRUE(HasNote(s, "fio: iolog short read"));
  EXPECT_EQ(s.Job(0).dir[0].total_ios, 2u);
  EXPECT_EQ(s.Job(0).dir[1].total_ios, 2u);
  ASSERT_TRUE(std::filesystem::exists(t.merged));
  EXPECT_EQ(std::filesystem::file_size(t.merged), 0u);
  // numjobs=2: each clone runs the merge, and replays its own file.
  auto two = RunArgs(RamStack(), Split(t.Args(t.a + ":" + t.b, "--numjobs=2")));
  ASSERT_TRUE(two.status.ok()) << two.status.message();
  const std::vector<std::string> notes = two.run->Messages();
  EXPECT_EQ(std::count(notes.begin(), notes.end(), "fio: iolog short read"), 2);
  EXPECT_EQ(two.Job(1).dir[0].total_ios, 2u);
}

// init_merge_param_list(): the values up to the first 0 count; another
// count than read_iolog's files is a message, no file, no merge.
TEST(FioMergeBlktraceTest, ListLengthsOtherThanTheFilesAreFiosMessage) {
  Traces t;
  auto s = RunArgs(RamStack(), Split(t.Args(t.a + ":" + t.b, "--merge_blktrace_scalars=100")));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_TRUE(HasNote(s, "fio: merge_blktrace_scalars(1) != nr_logs(2)"));
  EXPECT_FALSE(std::filesystem::exists(t.merged));
  s = RunArgs(RamStack(), Split(t.Args(t.a + ":" + t.b, "--merge_blktrace_iters=2:3:4")));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_TRUE(HasNote(s, "fio: merge_blktrace_iters(3) != nr_logs(2)"));
  s = RunArgs(RamStack(), Split(t.Args(t.a + ":" + t.b, "--merge_blktrace_scalars=100:0:50")));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_TRUE(HasNote(s, "fio: merge_blktrace_scalars(1) != nr_logs(2)"));
  EXPECT_EQ(s.Job(0).dir[0].total_ios, 2u);
}

// The first file decides: not a blktrace fails the job (fio exits 1), a
// missing one is a message (the replay then fails to open it, as in fio).
TEST(FioMergeBlktraceTest, FirstFileNotABlktraceFailsTheJob) {
  Traces t;
  const std::string log =
      t.dir.Put("t.log", "fio version 2 iolog\n/f add\n/f open\n/f read 0 4096\n/f close\n");
  auto s = RunArgs(RamStack(), Split(t.Args(log + ":" + t.a)));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("fio: file is not a blktrace: " + log), std::string::npos)
      << s.status.message();
  EXPECT_TRUE(std::filesystem::exists(t.merged));
  s = RunArgs(RamStack(), Split(t.Args(t.dir.path + "/nope.bt:" + t.a)));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("read_iolog: cannot open"), std::string::npos);
  // Where fio 3.33 crashes (no directory for the merged file): an error.
  s = RunArgs(RamStack(), Split("--name=m --read_iolog=" + t.a + ":" + t.b +
                                " --merge_blktrace_file=" + t.dir.path + "/no/x.bt"));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("merge_blktrace_file: cannot create"), std::string::npos)
      << s.status.message();
}

TEST(FioMergeBlktraceTest, BadListsNameTheOption) {
  Traces t;
  auto s = RunArgs(RamStack(), Split(t.Args(t.a, "--merge_blktrace_scalars=abc")));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("merge_blktrace_scalars"), std::string::npos);
  EXPECT_NE(s.status.message().find("'abc' is not a floating point value"), std::string::npos)
      << s.status.message();
  std::string many = "1";
  for (int i = 2; i <= 21; ++i) many += ":" + std::to_string(i);
  s = RunArgs(RamStack(), Split(t.Args(t.a, "--merge_blktrace_iters=" + many)));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("at most 20 values"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(t.merged));
  EXPECT_TRUE(CheckMergeList("150:-5:2e1").ok());
}

}  // namespace fio_merge_blktrace_test
}  // namespace storlab::fio
