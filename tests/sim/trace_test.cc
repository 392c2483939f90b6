// The trace (sim/trace.h): the lines every node writes for free, the lines
// models with volatile memory add, the limit; reading it back
// (sim/trace_read.h) and its summary (sim/trace_summary.h).
#include "sim/trace.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/trace_read.h"
#include "sim/trace_summary.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace trace_test {

using testing::Flush;
using testing::MustLoadText;
using testing::Pattern;
using testing::Write;

constexpr char kRam[] = R"(
[node.disk]
type = "ram"
capacity = "1MiB"
latency = "1ms"
)";

constexpr char kCached[] = R"(
[node.cache]
type = "cache"
child = "disk"
size = "256KiB"
block_size = "4KiB"
dirty_expire = "10ms"

[node.disk]
type = "ram"
capacity = "1MiB"
latency = "1ms"
)";

TEST(Trace, EveryNodeWritesSubmitAndComplete) {
  Engine e;
  auto s = MustLoadText(kRam, e);
  Tracer t(1000);
  s.stack->SetTracer(&t);
  auto buf = Pattern(4096, 1);
  ASSERT_TRUE(Write(e, s.stack->root(), 8192, buf, kFua).status.ok());
  ASSERT_TRUE(Flush(e, s.stack->root()).status.ok());
  ASSERT_TRUE(t.Close().ok());
  EXPECT_EQ(t.text(),
            "storlab-trace 1\n"
            "# time_ns event id node op offset length flags status\n"
            "node disk ram 0 -\n"
            "0 submit 1 disk write 8192 4096 fua -\n"
            "1000000 complete 1 disk write 8192 4096 fua ok\n"
            "1000000 durable - disk write 8192 4096 - -\n"
            "1000000 submit 2 disk flush 0 0 - -\n"
            "2000000 complete 2 disk flush 0 0 - ok\n");
}

TEST(Trace, CacheLayerDestagesAndThePowerCutIsALine) {
  Engine e;
  auto s = MustLoadText(kCached, e);
  Tracer t(1000);
  s.stack->SetTracer(&t);
  auto buf = Pattern(4096, 1);
  ASSERT_TRUE(Write(e, s.stack->root(), 0, buf).status.ok());
  VirtualDriver(e).RunUntilIdle();
  s.stack->PowerCut();
  ASSERT_TRUE(t.Close().ok());
  const std::string& x = t.text();
  EXPECT_NE(x.find("node cache cache traced disk\n"), std::string::npos) << x;
  EXPECT_NE(x.find(" destaged - cache write 0 4096 - -\n"), std::string::npos) << x;
  EXPECT_NE(x.find(" durable - disk write 0 4096 - -\n"), std::string::npos) << x;
  EXPECT_NE(x.find(" power-cut - - - 0 0 - -\n"), std::string::npos) << x;

  auto parsed = ParseTrace(x, "mem");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  auto lives = WriteLives(*parsed);
  ASSERT_EQ(lives.size(), 1u);
  EXPECT_EQ(parsed->nodes[static_cast<size_t>(lives[0].node)].name, "cache");
  ASSERT_EQ(lives[0].held.size(), 1u);
  EXPECT_EQ(parsed->nodes[static_cast<size_t>(lives[0].held[0].node)].name, "cache");
  EXPECT_GT(lives[0].durable_ns, lives[0].ack_ns);
  // dirty_expire (10 ms), then the disk's 1 ms: destaged when the disk has it.
  EXPECT_GE(lives[0].held[0].to_ns, lives[0].ack_ns + 11'000'000);
  EXPECT_EQ(lives[0].held[0].to_ns, lives[0].durable_ns);
}

TEST(Trace, TracingChangesNoTime) {
  std::vector<int64_t> done[2];
  for (int traced = 0; traced < 2; ++traced) {
    Engine e;
    auto s = MustLoadText(kCached, e);
    Tracer t(5);  // the limit cuts it short, too
    if (traced) s.stack->SetTracer(&t);
    for (uint64_t i = 0; i < 8; ++i) {
      auto buf = Pattern(4096, i);
      done[traced].push_back(Write(e, s.stack->root(), i * 8192, buf).done_at.count());
    }
    done[traced].push_back(Flush(e, s.stack->root()).done_at.count());
    if (traced) {
      ASSERT_TRUE(t.Close().ok());
      EXPECT_EQ(t.written(), 5u);
      EXPECT_GT(t.dropped(), 0u);
      EXPECT_NE(t.text().find("# truncated: the trace limit of 5 lines was reached at "),
                std::string::npos);
      auto parsed = ParseTrace(t.text(), "mem");
      ASSERT_TRUE(parsed.ok());
      EXPECT_TRUE(parsed->truncated);
    }
  }
  EXPECT_EQ(done[0], done[1]);
}

// A trace as a reader sees it: a page cache over a disk, three writes, a
// flush, a power cut.
constexpr char kTrace[] =
    "storlab-trace 1\n"
    "node disk hdd traced -\n"
    "node pc page_cache traced disk\n"
    "0 submit 1 pc write 0 4096 - -\n"
    "1000 complete 1 pc write 0 4096 - ok\n"
    "2000 submit 2 pc write 4096 4096 - -\n"
    "3000 complete 2 pc write 4096 4096 - ok\n"
    "4000 submit 3 disk write 0 8192 bg -\n"
    "5000 complete 3 disk write 0 8192 bg ok\n"
    "5000 destaged - pc write 0 8192 - -\n"
    "6000 durable - disk write 0 4096 - -\n"
    "6500 submit 4 pc write 8192 4096 - -\n"
    "7000 power-cut - - - 0 0 - -\n"
    "8000 durable - disk write 4096 4096 - -\n";

TEST(TraceSummary, EachWriteAndWhatTheCutKept) {
  auto t = ParseTrace(kTrace, "t.trace");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(SummarizeTrace(*t),
            "trace t.trace: 11 events, 3 client writes (times in ms from the jobs' start)\n"
            "   # node                   offset   length     submit        ack    durable "
            "ack->durable  held volatile by (from-to)\n"
            "   1 pc                          0     4096      0.000      0.001      0.006 "
            "       0.005  pc 0.001-0.005, disk 0.005-0.006\n"
            "   2 pc                       4096     4096      0.002      0.003      0.008 "
            "       0.005  pc 0.003-0.005, disk 0.005-0.008\n"
            "   3 pc                       8192     4096      0.006          -          - "
            "           -  -\n"
            "flushes (fsync) by the jobs: none\n"
            "\n"
            "power cut at 0.007 ms (line 13):\n"
            "  survived, durable before the cut: 1 #1\n"
            "  lost, acknowledged but still volatile: 1 #2 (in disk)\n"
            "  in flight, never acknowledged (no promise made): 1 #3\n");
}

TEST(TraceRead, BadInputNamesFileAndLine) {
  auto garbage = ParseTrace("hello world\n", "g.txt");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.status().message(),
            "g.txt:1: not a storlab trace (the first line should be 'storlab-trace 1'; write "
            "one with storlab sim --trace FILE)");
  auto bad = ParseTrace("storlab-trace 1\nnode d ram 0 -\n5 submit 1 d write x 4096 - -\n", "b");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "b:3: offset and length must be numbers (got 'x' and '4096')");
  auto unknown = ParseTrace("storlab-trace 1\n5 submit 1 d write 0 4096 - -\n", "u");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "u:2: node 'd' has no node line before it");
  auto version = ParseTrace("storlab-trace 2\n", "v");
  ASSERT_FALSE(version.ok());
  EXPECT_EQ(version.status().message(),
            "v:1: trace format version '2' is not supported (this storlab reads 1)");
  auto missing = ReadTrace("/nonexistent/trace");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "/nonexistent/trace: cannot read: No such file or directory");
}

}  // namespace trace_test
}  // namespace storlab
