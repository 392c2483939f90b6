// Faults at run time through the control language (sim/serve/control.h) and
// sim/serve/node_commands.h: detach/attach, a latency spike, FUA ignored, a
// silently corrupted block, media errors on a faults node, and what each
// refuses. Virtual time: latencies are exact.
#include "sim/node_faults.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sim/layers/faults/faults_node.h"
#include "sim/serve/control.h"
#include "sim/serve/node_commands.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace node_faults_test {

using namespace time_literals;
using testing::Pattern;
using testing::Read;
using testing::Write;

constexpr char kRam[] =
    "[node.d]\ntype = \"ram\"\ncapacity = \"16MiB\"\nlatency = \"100us\"\nqueue_depth = 8\n";

Result<std::string> Command(LoadedStack& s, const std::string& line) {
  auto cmd = ParseControl(line);
  if (!cmd.ok()) return cmd.status();
  return RunNodeCommand(*s.stack, *cmd);
}

bool Has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(NodeFaultsTest, DetachFailsNewRequestsUntilAttach) {
  Engine e;
  auto s = testing::MustLoadText(kRam, e);
  Node& d = s.stack->root();
  auto w = Pattern(4096, 1);
  ASSERT_TRUE(Write(e, d, 0, w).status.ok());
  auto r = Command(s, "detach d");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(Has(*r, "'d' is detached: every new request to it gets EIO")) << *r;
  std::vector<uint8_t> buf(4096);
  auto bad = Read(e, d, 0, buf);
  EXPECT_EQ(bad.status.code(), Status::Code::kIoError);
  EXPECT_TRUE(Has(bad.status.message(), "d: the device is detached")) << bad.status.ToString();
  EXPECT_EQ(bad.latency, Nanos(0));
  EXPECT_EQ(d.stats().op(Op::kRead).errors, 1u);
  auto again = Command(s, "detach d");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), "'d' is detached");
  ASSERT_TRUE(Command(s, "attach d").ok());
  auto good = Read(e, d, 0, buf);
  ASSERT_TRUE(good.status.ok());
  EXPECT_EQ(buf, w);  // the contents it had
  EXPECT_EQ(good.latency, 100_us);
  auto not_detached = Command(s, "attach d");
  ASSERT_FALSE(not_detached.ok());
  EXPECT_TRUE(Has(not_detached.status().message(), "is not detached (detach it first)"));
  EXPECT_EQ(d.faults_if_any()->detached_errors, 1u);
}

TEST(NodeFaultsTest, DelayHoldsRequestsThatArriveInItsWindow) {
  Engine e;
  auto s = testing::MustLoadText(kRam, e);
  Node& d = s.stack->root();
  std::vector<uint8_t> buf(4096);
  EXPECT_EQ(Read(e, d, 0, buf).latency, 100_us);
  auto r = Command(s, "delay d 200ms for 1s");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "requests that reach 'd' in the next 1s wait 200ms before it acts on them");
  const Nanos start = e.now();
  EXPECT_EQ(Read(e, d, 0, buf).latency, 200_ms + 100_us);
  e.AdvanceTo(start + 1_s - 1_ns);
  EXPECT_EQ(Read(e, d, 0, buf).latency, 200_ms + 100_us);  // arrived inside the window
  e.AdvanceTo(start + 2_s);
  EXPECT_EQ(Read(e, d, 0, buf).latency, 100_us);
  EXPECT_EQ(d.faults_if_any()->delayed, 2u);
}

TEST(NodeFaultsTest, CorruptBlockReadsBackWrongUntilRewritten) {
  Engine e;
  auto s = testing::MustLoadText(kRam, e);
  Node& d = s.stack->root();
  auto w = Pattern(16384, 2);
  ASSERT_TRUE(Write(e, d, 0, w).status.ok());
  auto r = Command(s, "corrupt d 4100");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const uint64_t lb = d.geometry().logical_block;
  const uint64_t block = 4100 / lb * lb;
  EXPECT_EQ(*r, "the " + std::to_string(lb) + "-byte block at " + std::to_string(block) +
                    " of 'd' reads back corrupted (no error) until it is rewritten");
  for (int i = 0; i < 2; ++i) {  // silently, every time
    std::vector<uint8_t> buf(16384);
    ASSERT_TRUE(Read(e, d, 0, buf).status.ok());
    std::vector<uint8_t> want = w;
    want[block] ^= 0xff;
    EXPECT_EQ(buf, want);
  }
  std::vector<uint8_t> other(4096);
  ASSERT_TRUE(Read(e, d, 8192, other).status.ok());  // not covering it: untouched
  EXPECT_EQ(0, std::memcmp(other.data(), w.data() + 8192, 4096));
  // Rewritten: healed.
  auto w2 = Pattern(lb, 3);
  ASSERT_TRUE(Write(e, d, block, w2).status.ok());
  std::vector<uint8_t> buf(lb);
  ASSERT_TRUE(Read(e, d, block, buf).status.ok());
  EXPECT_EQ(buf, w2);
  EXPECT_EQ(d.faults_if_any()->corrupted_reads, 2u);
  EXPECT_EQ(d.faults_if_any()->healed_blocks, 1u);
  auto beyond = Command(s, "corrupt d 16MiB");
  ASSERT_FALSE(beyond.ok());
  EXPECT_EQ(beyond.status().message(), "offset 16777216 is beyond 'd' (16777216 bytes)");
}

TEST(NodeFaultsTest, IgnoreFuaLosesFuaWritesAtAPowerCut) {
  Engine e;
  auto s = testing::MustLoad("hdd-7200", e);
  Node& d = s.stack->root();
  ASSERT_TRUE(d.caps().volatile_cache);
  auto kept = Pattern(4096, 4), lost = Pattern(4096, 5);
  ASSERT_TRUE(Write(e, d, 0, kept, kFua).status.ok());
  auto r = Command(s, "ignore-fua " + d.name());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(Has(*r, "drops the FUA flag of writes from now on")) << *r;
  EXPECT_FALSE(d.caps().honors_fua);
  ASSERT_TRUE(Write(e, d, 1 << 20, lost, kFua).status.ok());
  s.stack->PowerCut();
  std::vector<uint8_t> buf(4096);
  ASSERT_TRUE(Read(e, d, 0, buf).status.ok());
  EXPECT_EQ(buf, kept);
  ASSERT_TRUE(Read(e, d, 1 << 20, buf).status.ok());
  EXPECT_NE(buf, lost);  // acknowledged "durable", held in the drive's cache, lost
  EXPECT_EQ(d.faults_if_any()->fua_dropped, 1u);
  EXPECT_FALSE(Command(s, "ignore-fua " + d.name()).ok());
}

TEST(NodeFaultsTest, MediaErrorsOnAFaultsNodeUntilRewritten) {
  Engine e;
  auto s = testing::MustLoadText(
      "[node.f]\ntype = \"faults\"\nchild = \"d\"\n\n" + std::string(kRam), e);
  Node& f = s.stack->root();
  auto r = Command(s, "media-error f 1MiB+4KiB");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r,
            "reads of 1048576+4096 on 'f' fail with EIO until it is rewritten (a write remaps "
            "the sectors)");
  std::vector<uint8_t> buf(8192);
  EXPECT_EQ(Read(e, f, 1 << 20, buf).status.code(), Status::Code::kIoError);
  auto w = Pattern(4096, 6);
  ASSERT_TRUE(Write(e, f, 1 << 20, w).status.ok());
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(Read(e, f, 1 << 20, back).status.ok());
  EXPECT_EQ(back, w);
  // Not a faults node; a range beyond the device.
  auto dev = Command(s, "media-error d 0+4KiB");
  ASSERT_FALSE(dev.ok());
  EXPECT_EQ(dev.status().message(),
            "'d' is a ram node: media errors are a faults node's (type = \"faults\" above the "
            "device; its faults nodes: 'f')");
  auto beyond = Command(s, "media-error f 16MiB+512");
  ASSERT_FALSE(beyond.ok());
  EXPECT_EQ(beyond.status().message(), "the range 16777216+512 ends beyond 'f' (16777216 bytes)");
}

TEST(NodeFaultsTest, UnknownNodesAreNamedWithTheStacksNodes) {
  Engine e;
  auto s = testing::MustLoadText(kRam, e);
  for (const char* line : {"detach x", "attach x", "delay x 1ms for 1s", "corrupt x 0",
                           "ignore-fua x", "fail x", "replace x"}) {
    auto r = Command(s, line);
    ASSERT_FALSE(r.ok()) << line;
    EXPECT_TRUE(Has(r.status().message(), "no node 'x' in stack")) << r.status().message();
    EXPECT_TRUE(Has(r.status().message(), "(its nodes: 'd')")) << r.status().message();
  }
}

}  // namespace node_faults_test
}  // namespace storlab
