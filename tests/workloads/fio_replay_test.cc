// Trace replay (read_iolog, replay_*) and recording (write_iolog) in
// virtual time, against fio 3.33's own logs in golden/iolog/.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/workloads/blktrace_encode.h"
#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/iolog_read.h"

namespace storlab::fio {
namespace fio_replay_test {

using testing::Encode;
using testing::RamStack;
using testing::ReadGolden;
using testing::RunArgs;
using testing::SampleTrace;
using testing::Split;
using testing::TempDir;

// Parses fio's "queue: io_u" debug lines (golden/iolog/README.md).
struct Op {
  int ddir;  // fio's: 0 read, 1 write, 3 sync
  std::string file;
  uint64_t offset, length;
  bool operator==(const Op&) const = default;
};

std::vector<Op> FioQueued(const std::string& text) {
  std::vector<Op> out;
  std::regex re("off=0x([0-9a-f]+),len=0x([0-9a-f]+),ddir=([0-9]+),file=(.*)");
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, re)) continue;
    out.push_back(
        {std::stoi(m[3]), m[4], std::stoull(m[1], nullptr, 16), std::stoull(m[2], nullptr, 16)});
  }
  return out;
}

// The I/O lines of a v3 log storlab wrote; a sync's offset is not compared
// (fio's is whatever the io_u held).
std::vector<Op> LoggedOps(const std::string& text) {
  std::vector<Op> out;
  std::regex re("[0-9]+ (\\S+) (read|write|sync|datasync) ([0-9]+) ([0-9]+)");
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, re)) continue;
    const int ddir = m[2] == "read" ? 0 : m[2] == "write" ? 1 : 3;
    out.push_back({ddir, m[1], std::stoull(m[3]), std::stoull(m[4])});
  }
  return out;
}

TEST(FioReplayTest, ReplaysRealFiosLogAsFioDoes) {
  TempDir dir;
  const std::string log = dir.Put("rec.log", ReadGolden("iolog/randrw_2files_v3.log"));
  auto s = RunArgs(RamStack("100us"),
                   Split("--name=rep --read_iolog=" + log + " --write_iolog=" + dir.path + "/w"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  ASSERT_NE(s.run->runners()[0]->iolog(), nullptr);
  std::vector<Op> ours = LoggedOps(s.run->runners()[0]->iolog()->text());
  std::vector<Op> fios = FioQueued(ReadGolden("iolog/randrw_2files_replay_queue.txt"));
  ASSERT_EQ(fios.size(), 51u);
  ASSERT_EQ(ours.size(), fios.size());
  for (size_t i = 0; i < fios.size(); ++i) {
    if (fios[i].ddir == 3) fios[i].offset = ours[i].offset;
    EXPECT_EQ(ours[i], fios[i]) << "I/O " << i;
  }
  const auto syncs = static_cast<uint64_t>(
      std::count_if(fios.begin(), fios.end(), [](const Op& o) { return o.ddir == 3; }));
  const ThreadStat& ts = s.Job(0);
  EXPECT_EQ(ts.dir[0].total_ios + ts.dir[1].total_ios, fios.size() - syncs);
  EXPECT_EQ(ts.sync_total, syncs);
  // read_iolog overrides write_iolog: fio's note, and no file written.
  const auto& notes = s.run->Messages();
  EXPECT_NE(std::find(notes.begin(), notes.end(), "fio: read iolog overrides write_iolog"),
            notes.end());
}

TEST(FioReplayTest, WaitsForTimestampsInSimulatedTime) {
  TempDir dir;
  std::string text = "fio version 3 iolog\n1 /f add\n1 /f open\n";
  for (int i = 0; i < 10; ++i) {
    text += std::to_string(1 + i * 10000) + " /f write " + std::to_string(i * 4096) + " 4096\n";
  }
  const std::string log = dir.Put("t.log", text);
  auto run = [&](const std::string& extra) {
    auto s = RunArgs(RamStack("100us"), Split("--name=r --read_iolog=" + log + " " + extra));
    EXPECT_TRUE(s.status.ok()) << s.status.message();
    const auto& x = s.run->runners()[0]->extras();
    return (x.io_end - x.start).count();
  };
  // 9 gaps of 10 ms after the issue before; the last write takes ~100 us.
  const int64_t paced = run("");
  EXPECT_GE(paced, 90000000);
  EXPECT_LT(paced, 91000000);
  const int64_t half = run("--replay_time_scale=200");
  EXPECT_GE(half, 45000000);
  EXPECT_LT(half, 46000000);
  EXPECT_LT(run("--replay_no_stall=1"), 2000000);
}

TEST(FioReplayTest, BlktraceReplaysAtItsDepth) {
  TempDir dir;
  const std::string log = dir.Put("t.blktrace", Encode(SampleTrace(), true));
  auto s = RunArgs(RamStack("100us"),
                   Split("--name=b --ioengine=libaio --direct=1 --read_iolog=" + log));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.run->runners()[0]->spec().iodepth, 2u);
  EXPECT_EQ(s.Job(0).dir[0].total_ios, 2u);
  EXPECT_EQ(s.Job(0).dir[1].total_ios, 1u);
  EXPECT_EQ(s.Job(0).sync_total, 1u);
  const auto& notes = s.run->Messages();
  EXPECT_NE(std::find_if(notes.begin(), notes.end(),
                         [](const std::string& n) {
                           return n.find("1 trim entries are skipped") != std::string::npos;
                         }),
            notes.end());
}

TEST(FioReplayTest, WriteIologRecordsFiosFormatAndReplaysTheSame) {
  TempDir dir;
  const std::string path = dir.path + "/rec.log";
  auto s = RunArgs(RamStack("100us"),
                   Split("--name=rec --filename=/data --size=1m --rw=randrw --fsync=4 "
                         "--number_ios=40 --write_iolog=" +
                         path));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  const IologWriter* w = s.run->runners()[0]->iolog();
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->Write().ok());
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  // The line shapes of real fio's log (golden/iolog/randrw_2files_v3.log).
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0], "fio version 3 iolog");
  EXPECT_TRUE(std::regex_match(lines[1], std::regex("[0-9]+ /data add")));
  EXPECT_TRUE(std::regex_match(lines[2], std::regex("[0-9]+ /data open")));
  EXPECT_TRUE(std::regex_match(lines.back(), std::regex("[0-9]+ /data close")));
  const std::regex io("[0-9]+ /data (read|write|sync) [0-9]+ [0-9]+");
  for (size_t i = 3; i + 1 < lines.size(); ++i) {
    EXPECT_TRUE(std::regex_match(lines[i], io)) << lines[i];
  }
  const std::vector<Op> recorded = LoggedOps(w->text());
  EXPECT_EQ(recorded.size(), 40u + s.Job(0).sync_total);
  EXPECT_GT(s.Job(0).sync_total, 0u);
  // Replaying it issues the same I/O.
  auto r = RunArgs(RamStack("100us"),
                   Split("--name=rep --read_iolog=" + path + " --write_iolog=" + dir.path + "/x"));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(LoggedOps(r.run->runners()[0]->iolog()->text()), recorded);
}

TEST(FioReplayTest, BadReplayInputsAreClearErrors) {
  TempDir dir;
  const std::string big =
      dir.Put("big.log", "fio version 2 iolog\n/f add\n/f read 0 4096\n/f write 8589934592 4096\n");
  auto s = RunArgs(RamStack("100us", "1GiB"), Split("--name=r --read_iolog=" + big));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find(big + ":4: I/O up to byte 8589938688 of '/f' is past the "
                                          "simulated device"),
            std::string::npos)
      << s.status.message();
  s = RunArgs(RamStack(), Split("--name=r --size=1m --read_iolog=" + big));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find(":4: I/O up to byte 8589938688 of '/f' is past its size"),
            std::string::npos)
      << s.status.message();
  s = RunArgs(RamStack(), Split("--name=r --read_iolog=" + dir.path + "/missing"));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("read_iolog: cannot open"), std::string::npos);
  s = RunArgs(RamStack(), Split("--name=r --replay_align=3000 --read_iolog=" + big));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("replay_align=3000 is not a power of 2"), std::string::npos);
  s = RunArgs(RamStack(), Split("--name=r --replay_time_scale=0 --read_iolog=" + big));
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("replay_time_scale"), std::string::npos) << s.status.message();
}

}  // namespace fio_replay_test
}  // namespace storlab::fio
