// The trace readers (read_iolog): fio's iolog v2/v3 text logs and blktrace
// binary files, parsed into a ReplayTrace; bad input names file and line or
// record.
#include "workloads/fio/iolog_read.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/workloads/blktrace_encode.h"
#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace iolog_read_test {

using testing::Act;
using testing::Encode;
using testing::Rec;
using testing::SampleTrace;
using testing::Split;

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
  bad_action[3].action = Act(40, testing::kTcRead);
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

}  // namespace iolog_read_test
}  // namespace storlab::fio
