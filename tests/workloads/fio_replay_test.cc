// Trace replay (read_iolog: fio's iolog v2/v3 and blktrace files) and
// recording (write_iolog), against fio 3.33's own logs in golden/iolog/.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/iolog_read.h"

namespace storlab::fio {
namespace {

using testing::RamStack;
using testing::ReadGolden;
using testing::RunArgs;
using testing::Split;
using testing::TempDir;

Result<ReplayTrace> Parse(const std::string& text, const std::string& opts = "") {
  JobOptions o;
  for (const std::string& w : Split(opts)) {
    const size_t eq = w.find('=');
    Status st = ApplyOption(&o, w.substr(0, eq), w.substr(eq + 1), true, "test");
    EXPECT_TRUE(st.ok()) << st.message();
  }
  return ParseReplayTrace("t.log", text, o);
}

TEST(IologReadTest, Version2EntriesScaleAndAlign) {
  const std::string log =
      "fio version 2 iolog\n/f add\n/f open\n/f read 8192 4096\n/f wait 5 0\n"
      "/f write 12288 512\n/f sync 0 0\n/f trim 4096 4096\n/f close\n";
  auto t = Parse(log);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->version, 2);
  ASSERT_EQ(t->files, std::vector<std::string>{"/f"});
  ASSERT_EQ(t->entries.size(), 8u);
  EXPECT_EQ(t->entries[2].kind, ReplayEntry::kRead);
  EXPECT_EQ(t->entries[2].offset, 8192u);
  EXPECT_EQ(t->entries[2].where, 4u);
  EXPECT_EQ(t->entries[3].kind, ReplayEntry::kWait);
  EXPECT_EQ(t->entries[3].delay_us, 5u);  // ms after the start, as fio reads it
  EXPECT_EQ(t->entries[4].length, 512u);
  EXPECT_EQ(t->ios[0], 1u);
  EXPECT_EQ(t->ios[1], 1u);
  EXPECT_EQ(t->syncs, 1u);
  EXPECT_EQ(t->trims, 1u);
  EXPECT_EQ(t->max_bs[1], 512u);
  // replay_scale divides, then replay_align rounds down (ipo_bytes_align()).
  auto s = Parse(log, "replay_scale=3 replay_align=1024");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->entries[2].offset, 8192u / 3 / 1024 * 1024);
  EXPECT_EQ(s->entries[4].offset, 12288u / 3 / 1024 * 1024);
  // replay_no_stall drops the waits.
  auto n = Parse(log, "replay_no_stall=1");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->entries.size(), 7u);
}

TEST(IologReadTest, Version3DelaysFollowDelaySinceTtime) {
  const std::string log =
      "fio version 3 iolog\n0 /f add\n10 /f open\n100 /f read 0 4096\n1100 /f write 4096 4096\n"
      "900 /f read 0 4096\n3100 /f close\n";
  auto t = Parse(log);
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->entries.size(), 6u);
  // The first entry, and the one after a zero timestamp, get no delay.
  EXPECT_EQ(t->entries[0].delay_us, 0u);
  EXPECT_EQ(t->entries[1].delay_us, 0u);
  EXPECT_EQ(t->entries[2].delay_us, 90u);
  EXPECT_EQ(t->entries[3].delay_us, 1000u);
  EXPECT_EQ(t->entries[4].delay_us, 0u);  // time went backwards
  EXPECT_EQ(t->entries[5].delay_us, 2200u);
  auto fast = Parse(log, "replay_time_scale=200");
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(fast->entries[3].delay_us, 500u);
  auto none = Parse(log, "replay_no_stall=1");
  ASSERT_TRUE(none.ok());
  for (const auto& e : none->entries) EXPECT_EQ(e.delay_us, 0u);
  // replay_redirect: every file name becomes the one given.
  auto r = Parse(log, "replay_redirect=/other");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->files, std::vector<std::string>{"/other"});
}

TEST(IologReadTest, AppendedLogsReadAsOne) {
  // write_iolog appends: two runs' logs in one file.
  const std::string run = "fio version 3 iolog\n0 /f add\n3 /f open\n9 /f write 0 4096\n";
  auto t = Parse(run + run);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->files.size(), 1u);
  EXPECT_EQ(t->ios[1], 2u);
}

TEST(IologReadTest, BadTextLogsNameFileAndLine) {
  struct Case {
    std::string log, want;
  };
  const std::vector<Case> cases = {
      {"", "t.log:1: not a fio iolog"},
      {"fio version 1 iolog\n", "t.log:1: not a fio iolog"},
      {"fio version 2 iolog\n/f add\n/f frobnicate 0 4096\n", "t.log:3: bad iolog file action"},
      {"fio version 2 iolog\n/f add\n/f read x 4096\n", "t.log:3: bad offset"},
      {"fio version 2 iolog\n/f add\n/f read 0 99999999999\n", "t.log:3: bad length"},
      {"fio version 2 iolog\n/f add\n/f read 0\n", "t.log:3: bad iolog2 entry"},
      {"fio version 2 iolog\n/g read 0 4096\n", "t.log:2: file '/g' was not added"},
      {"fio version 2 iolog\n/f add\n/f remove\n", "t.log:3: bad iolog file action"},
      {"fio version 3 iolog\n-1 /f add\n", "t.log:2: bad iolog3 timestamp"},
      {"fio version 3 iolog\n0 /f add\n0 /f open\n", "t.log: no reads, writes or syncs"},
  };
  for (const Case& c : cases) {
    auto t = Parse(c.log);
    ASSERT_FALSE(t.ok()) << c.log;
    EXPECT_NE(t.status().message().find(c.want), std::string::npos)
        << c.log << " -> " << t.status().message();
  }
}

// One blk_io_trace record (layout: fio's blktrace_api.h, see blktrace_read.cc).
struct Rec {
  uint32_t magic = 0x65617407, seq = 0;
  uint64_t time = 0, sector = 0;
  uint32_t bytes = 0, action = 0, pid = 1, device = (8u << 20) | 16u, cpu = 0;
  uint16_t error = 0, pdu_len = 0;
};

void Put(std::string* s, uint64_t v, int n, bool big) {
  for (int i = 0; i < n; ++i) {
    const int shift = 8 * (big ? n - 1 - i : i);
    s->push_back(static_cast<char>((v >> shift) & 0xff));
  }
}

std::string Encode(const std::vector<Rec>& recs, bool big) {
  std::string s;
  for (const Rec& r : recs) {
    Put(&s, r.magic, 4, big);
    Put(&s, r.seq, 4, big);
    Put(&s, r.time, 8, big);
    Put(&s, r.sector, 8, big);
    Put(&s, r.bytes, 4, big);
    Put(&s, r.action, 4, big);
    Put(&s, r.pid, 4, big);
    Put(&s, r.device, 4, big);
    Put(&s, r.cpu, 4, big);
    Put(&s, r.error, 2, big);
    Put(&s, r.pdu_len, 2, big);
    s.append(r.pdu_len, 'x');
  }
  return s;
}

constexpr uint32_t kQueue = 1, kComplete = 8, kIssue = 7;
constexpr uint32_t Act(uint32_t ta, uint32_t tc) { return ta | (tc << 16); }
constexpr uint32_t kRead = 1, kWrite = 2, kFlush = 4, kNotify = 1u << 10, kDiscard = 1u << 13;

std::vector<Rec> SampleTrace() {
  std::vector<Rec> v;
  auto add = [&](uint64_t time, uint32_t act, uint64_t sector, uint32_t bytes) {
    Rec r;
    r.time = time;
    r.action = act;
    r.sector = sector;
    r.bytes = bytes;
    v.push_back(r);
  };
  Rec notify;
  notify.action = Act(0, kNotify);  // BLK_TN_PROCESS, with a name as payload
  notify.pdu_len = 6;
  v.push_back(notify);
  add(1000000, Act(kQueue, kRead), 8, 4096);
  add(1500000, Act(kQueue, kRead), 16, 4096);  // two queued: depth 2
  add(1600000, Act(kIssue, kRead), 8, 4096);
  add(2000000, Act(kComplete, kRead), 8, 4096);
  add(3000000, Act(kQueue, kWrite), 2048, 8192);
  add(3500000, Act(kQueue, kWrite | kFlush), 0, 0);
  add(4000000, Act(kQueue, kWrite | kDiscard), 4096, 4096);
  add(4100000, Act(kQueue, kWrite), 100, 0);  // empty: skipped, as fio does
  return v;
}

TEST(BlktraceReadTest, QueueEventsInBothByteOrders) {
  for (bool big : {false, true}) {
    auto t = Parse(Encode(SampleTrace(), big));
    ASSERT_TRUE(t.ok()) << t.status().message();
    EXPECT_TRUE(t->blktrace);
    ASSERT_EQ(t->files, std::vector<std::string>{"/dev/block/8:16"});
    ASSERT_EQ(t->entries.size(), 5u);
    EXPECT_EQ(t->entries[0].kind, ReplayEntry::kRead);
    EXPECT_EQ(t->entries[0].offset, 8u * 512);
    EXPECT_EQ(t->entries[0].delay_us, 0u);
    EXPECT_EQ(t->entries[0].where, 2u);  // the notify was record 1
    EXPECT_EQ(t->entries[1].delay_us, 500u);
    EXPECT_EQ(t->entries[2].kind, ReplayEntry::kWrite);
    EXPECT_EQ(t->entries[2].offset, 2048u * 512);
    EXPECT_EQ(t->entries[2].length, 8192u);
    EXPECT_EQ(t->entries[2].delay_us, 1500u);  // since the last queue event
    EXPECT_EQ(t->entries[3].kind, ReplayEntry::kSync);
    EXPECT_EQ(t->entries[4].kind, ReplayEntry::kTrim);
    EXPECT_EQ(t->depth, 2u);
    EXPECT_EQ(t->max_bs[0], 4096u);
    EXPECT_EQ(t->max_bs[1], 8192u);
  }
  auto r = Parse(Encode(SampleTrace(), false), "replay_redirect=/data");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->files, std::vector<std::string>{"/data"});
}

TEST(BlktraceReadTest, BadRecordsNameTheRecord) {
  std::string truncated = Encode(SampleTrace(), false);
  truncated.resize(truncated.size() - 10);
  auto t = Parse(truncated);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("blktrace record 9 (byte"), std::string::npos)
      << t.status().message();
  EXPECT_NE(t.status().message().find("truncated"), std::string::npos);

  auto bad_magic = SampleTrace();
  bad_magic[2].magic = 0x12345607;
  t = Parse(Encode(bad_magic, false));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("t.log: blktrace record 3 (byte 102): bad magic"),
            std::string::npos)
      << t.status().message();

  auto bad_version = SampleTrace();
  bad_version[1].magic = 0x65617406;
  t = Parse(Encode(bad_version, false));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("record 2 (byte 54): bad blktrace version 6"),
            std::string::npos)
      << t.status().message();

  auto bad_action = SampleTrace();
  bad_action[3].action = Act(40, kRead);
  t = Parse(Encode(bad_action, false));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("record 4 (byte 150): unknown blktrace action 0x10028"),
            std::string::npos)
      << t.status().message();

  auto pdu = SampleTrace();
  pdu.back().pdu_len = 200;
  std::string short_pdu = Encode(pdu, false);
  short_pdu.resize(short_pdu.size() - 100);
  t = Parse(short_pdu);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("payload of 200 bytes is truncated"), std::string::npos);
}

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

}  // namespace
}  // namespace storlab::fio
