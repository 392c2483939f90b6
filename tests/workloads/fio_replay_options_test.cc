// replay_skip and read_iolog_chunked (option_table_iolog.cc), compared with
// real fio 3.33 replaying the same blktrace onto a file in /tmp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/workloads/blktrace_encode.h"
#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_replay_options_test {

using testing::Act;
using testing::Encode;
using testing::RamStack;
using testing::Rec;
using testing::Split;
using testing::TempDir;

Rec Queue(uint64_t time, uint32_t tc, uint64_t sector, uint32_t bytes) {
  Rec r;
  r.time = time;
  r.action = Act(testing::kTaQueue, tc);
  r.sector = sector;
  r.bytes = bytes;
  return r;
}

// 6 reads of 4 KiB and 6 writes of 8 KiB in turn, a flush, a discard and
// one more read: the trace /tmp/h5/mkbt.py wrote for real fio.
std::vector<Rec> MixedTrace() {
  std::vector<Rec> v;
  uint64_t t = 1000000;
  for (uint64_t i = 0; i < 6; ++i) {
    v.push_back(Queue(t, testing::kTcRead, 8 * i, 4096));
    t += 100000;
    v.push_back(Queue(t, testing::kTcWrite, 1000 + 8 * i, 8192));
    t += 100000;
  }
  v.push_back(Queue(t, testing::kTcWrite | testing::kTcFlush, 0, 0));
  t += 100000;
  v.push_back(Queue(t, testing::kTcWrite | testing::kTcDiscard, 4096, 4096));
  t += 100000;
  v.push_back(Queue(t, testing::kTcRead, 64, 4096));
  return v;
}

// Real fio 3.33 (psync, replay_redirect to a 4 MiB file in /tmp, strace):
//   replay_skip   reads writes fsyncs  error
//   (none)          6     6      1     25 (ENOTTY: the discard, on a file)
//   read            0     6      1     25
//   write           6     0      1     25
//   sync            6     6      0     25
//   trim,sync       7     6      0      0 (the read after the discard too)
// storlab replays no trims (skipped with a note, docs/sim.md), so its
// last read always happens and there is no ENOTTY; the rest is fio's.
// A text iolog (v3) replays its reads with replay_skip=read all the same
// (iolog.c does not look at it). "flush" is "Unknown skip type".
TEST(ReplaySkipTest, BlktraceEventsOfTheKindsNamedAreNotReplayed) {
  TempDir dir;
  const std::string log = dir.Put("t.blktrace", Encode(MixedTrace(), false));
  struct Case {
    const char* skip;
    uint64_t reads, writes, syncs;
  };
  for (const Case& c : {Case{"", 7, 6, 1}, Case{"read", 0, 6, 1}, Case{"write", 7, 0, 1},
                        Case{"sync", 7, 6, 0}, Case{"trim,sync", 7, 6, 0}}) {
    std::string job = "--name=b --ioengine=psync --read_iolog=" + log + " --replay_redirect=/d/dev";
    if (*c.skip) job += std::string(" --replay_skip=") + c.skip;
    auto s = testing::RunArgs(RamStack("100us"), Split(job));
    ASSERT_TRUE(s.status.ok()) << c.skip << ": " << s.status.message();
    EXPECT_EQ(s.Job(0).dir[kRead].io_bytes, c.reads * 4096) << c.skip;
    EXPECT_EQ(s.Job(0).dir[kWrite].io_bytes, c.writes * 8192) << c.skip;
    EXPECT_EQ(s.Job(0).sync_total, c.syncs) << c.skip;
    EXPECT_EQ(s.Job(0).error, 0) << c.skip;
  }
  // A text log: replay_skip does nothing.
  const std::string v3 = dir.Put("r.log",
                                 "fio version 3 iolog\n0 /d/f add\n0 /d/f open\n"
                                 "10 /d/f read 0 4096\n20 /d/f write 8192 4096\n"
                                 "30 /d/f read 4096 4096\n40 /d/f close\n");
  auto s = testing::RunArgs(RamStack("100us"),
                            Split("--name=b --read_iolog=" + v3 + " --replay_skip=read"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 2u);
  EXPECT_EQ(s.Job(0).dir[kWrite].total_ios, 1u);
}

// Real fio 3.33, libaio direct=1, a blktrace that queues 4 reads before
// they complete (64 reads): iodepth_level 4 = 95.3 % as it is, 1 = 100 %
// with read_iolog_chunked=1 (read_blktrace() returns before it probes the
// depth). The same reads either way.
TEST(ReadIologChunkedTest, SameIoButNoProbedDepth) {
  std::vector<Rec> v;
  uint64_t t = 1000000;
  for (uint64_t i = 0; i < 64; i += 4) {
    for (uint64_t k = 0; k < 4; ++k, t += 1000)
      v.push_back(Queue(t, testing::kTcRead, 8 * (i + k), 4096));
    for (uint64_t k = 0; k < 4; ++k, t += 1000) {
      Rec r = Queue(t, testing::kTcRead, 8 * (i + k), 4096);
      r.action = Act(testing::kTaComplete, testing::kTcRead);
      v.push_back(r);
    }
  }
  TempDir dir;
  const std::string log = dir.Put("d4.blktrace", Encode(v, false));
  const std::string job =
      "--name=b --ioengine=libaio --direct=1 --replay_no_stall=1 "
      "--replay_redirect=/d/dev --read_iolog=" +
      log;
  auto probed = testing::RunArgs(RamStack("100us"), Split(job));
  ASSERT_TRUE(probed.status.ok()) << probed.status.message();
  auto chunked = testing::RunArgs(RamStack("100us"), Split(job + " --read_iolog_chunked=1"));
  ASSERT_TRUE(chunked.status.ok()) << chunked.status.message();
  EXPECT_EQ(probed.run->runners()[0]->spec().iodepth, 4u);
  EXPECT_EQ(chunked.run->runners()[0]->spec().iodepth, 1u);
  EXPECT_EQ(probed.Job(0).dir[kRead].total_ios, 64u);
  EXPECT_EQ(chunked.Job(0).dir[kRead].total_ios, 64u);
  // iodepth= given: that depth either way.
  auto given =
      testing::RunArgs(RamStack("100us"), Split(job + " --read_iolog_chunked=1 --iodepth=4"));
  ASSERT_TRUE(given.status.ok()) << given.status.message();
  EXPECT_EQ(given.run->runners()[0]->spec().iodepth, 4u);
}

TEST(ReplayOptionsTest, BadValuesNameTheOptionAndTheJob) {
  for (const char* bad : {"replay_skip=flush", "replay_skip=read,,write",
                          "replay_skip=", "read_iolog_chunked=yes please"}) {
    auto sections = ParseJobText(std::string("[job1]\nread_iolog=/nonexistent\n") + bad + "\n",
                                 "bad.fio", ".", ProcessEnv());
    ASSERT_TRUE(sections.ok());
    auto s = testing::RunJobs(RamStack(), *sections);
    ASSERT_FALSE(s.status.ok()) << bad;
    const std::string opt = std::string(bad).substr(0, std::string(bad).find('='));
    EXPECT_NE(s.status.message().find("bad.fio:3: option '" + opt + "'"), std::string::npos)
        << bad << ": " << s.status.message();
  }
}

}  // namespace fio_replay_options_test
}  // namespace storlab::fio
