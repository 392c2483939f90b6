// The rmw layer: exact read-modify-write costs and amplification for a
// 512e drive and a 64 KiB zvol, real merged bytes, concurrency, timing.
#include <gtest/gtest.h>

#include <set>

#include "sim/layers/rmw/rmw_node.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace rmw_test {

using namespace time_literals;
using testing::DoIo;
using testing::Pattern;

std::string RmwText(const std::string& unit, int lb, int child_lb, const std::string& child = "") {
  return "[node.r]\ntype = \"rmw\"\nchild = \"d\"\nunit = \"" + unit +
         "\"\nlogical_block = " + std::to_string(lb) +
         "\n[node.d]\ntype = \"ram\"\ncapacity = \"16MiB\"\nlogical_block = " +
         std::to_string(child_lb) + "\n" + child;
}

struct Rig {
  LoadedStack s;
  RmwNode& rmw;
  Node& child;
};
Rig Make(Engine& e, const std::string& text) {
  auto s = testing::MustLoadText(text, e);
  auto& rmw = dynamic_cast<RmwNode&>(s.stack->root());
  Node& child = *s.stack->Find("d");
  return Rig{std::move(s), rmw, child};
}

TEST(RmwTest, Drive512eAlignedWritesCostNothingExtra) {
  Engine e;
  auto r = Make(e, RmwText("4KiB", 512, 4096));
  EXPECT_EQ(r.rmw.geometry().logical_block, 512u);
  EXPECT_EQ(r.rmw.geometry().physical_block, 4096u);
  for (int i = 0; i < 10; ++i) {
    auto w = Pattern(8192, i);
    ASSERT_TRUE(testing::Write(e, r.rmw, i * 8192, w).status.ok());
  }
  EXPECT_EQ(r.rmw.write_amplification(), 1.0);
  EXPECT_EQ(r.child.stats().op(Op::kRead).ops, 0u);
  EXPECT_EQ(r.rmw.rmw_writes(), 0u);
}

TEST(RmwTest, Drive512eSectorWritesAmplifyEightTimes) {
  Engine e;
  auto r = Make(e, RmwText("4KiB", 512, 4096));
  std::vector<uint8_t> model(1 << 20, 0);
  Random rng(1);
  for (int i = 0; i < 100; ++i) {
    const uint64_t off = rng.Uniform(2048) * 512;
    auto w = Pattern(512, i);
    ASSERT_TRUE(testing::Write(e, r.rmw, off, w).status.ok());
    std::copy(w.begin(), w.end(), model.begin() + off);
  }
  EXPECT_EQ(r.rmw.client_write_bytes(), 100u * 512);
  EXPECT_EQ(r.rmw.child_write_bytes(), 100u * 4096);
  EXPECT_EQ(r.rmw.write_amplification(), 8.0);
  EXPECT_EQ(r.rmw.rmw_read_bytes(), 100u * 4096);
  EXPECT_EQ(r.child.stats().op(Op::kRead).ops, 100u);
  EXPECT_EQ(r.child.stats().op(Op::kWrite).ops, 100u);
  std::vector<uint8_t> back(model.size());
  ASSERT_TRUE(testing::Read(e, r.rmw, 0, back).status.ok());
  EXPECT_EQ(back, model);
}

TEST(RmwTest, Zvol64KUnderFourKWrites) {
  Engine e;
  auto r = Make(e, RmwText("64KiB", 4096, 512));
  Random rng(2);
  for (int i = 0; i < 50; ++i) {
    auto w = Pattern(4096, i);
    ASSERT_TRUE(testing::Write(e, r.rmw, rng.Uniform(4096) * 4096, w).status.ok());
  }
  EXPECT_EQ(r.rmw.write_amplification(), 16.0);
  EXPECT_EQ(r.rmw.rmw_read_bytes(), 50u * 65536);
}

TEST(RmwTest, StraddlingWritesReadEachPartialUnit) {
  Engine e;
  auto r = Make(e, RmwText("64KiB", 4096, 512));
  // 8 KiB across a unit boundary: two units read, two written.
  auto a = Pattern(8192, 1);
  ASSERT_TRUE(testing::Write(e, r.rmw, 60 * 1024, a).status.ok());
  EXPECT_EQ(r.rmw.rmw_read_bytes(), 131072u);
  EXPECT_EQ(r.child.stats().op(Op::kRead).ops, 2u);
  EXPECT_EQ(r.rmw.child_write_bytes(), 131072u);
  EXPECT_EQ(r.child.stats().op(Op::kWrite).ops, 1u);  // one merged write
  // 100 KiB from a unit start: only the tail unit is read; 1.28x.
  r.rmw.ResetStats();
  auto b = Pattern(100 * 1024, 2);
  ASSERT_TRUE(testing::Write(e, r.rmw, 1 << 20, b).status.ok());
  EXPECT_EQ(r.rmw.rmw_read_bytes(), 131072u + 65536u);
  EXPECT_EQ(r.rmw.child_write_bytes(), 131072u + 131072u);
  std::vector<uint8_t> back(8192);
  ASSERT_TRUE(testing::Read(e, r.rmw, 60 * 1024, back).status.ok());
  EXPECT_EQ(back, a);
  std::vector<uint8_t> back2(b.size());
  ASSERT_TRUE(testing::Read(e, r.rmw, 1 << 20, back2).status.ok());
  EXPECT_EQ(back2, b);
}

TEST(RmwTest, ReadsReadWholeUnits) {
  Engine e;
  auto r = Make(e, RmwText("64KiB", 4096, 512));
  auto w = Pattern(1 << 20, 3);
  ASSERT_TRUE(testing::Write(e, r.rmw, 0, w).status.ok());
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(testing::Read(e, r.rmw, 72 * 1024, back).status.ok());
  EXPECT_TRUE(std::equal(back.begin(), back.end(), w.begin() + 72 * 1024));
  EXPECT_EQ(r.child.stats().op(Op::kRead).bytes, 65536u);
}

TEST(RmwTest, ConcurrentWritesToOneUnitAreAllKept) {
  Engine e;
  auto r = Make(e, RmwText("4KiB", 512, 4096, "latency = \"100us\"\nqueue_depth = 8\n"));
  std::vector<std::vector<uint8_t>> bufs;
  for (int i = 0; i < 8; ++i) bufs.push_back(Pattern(512, 10 + i));
  int done = 0;
  for (int i = 0; i < 8; ++i) {
    Request q{.op = Op::kWrite,
              .offset = 512 * static_cast<uint64_t>(i),
              .length = 512,
              .data = bufs[i].data(),
              .done = [&](Status st) {
                EXPECT_TRUE(st.ok());
                ++done;
              }};
    r.rmw.Submit(std::move(q));
  }
  VirtualDriver(e).RunUntilIdle();
  ASSERT_EQ(done, 8);
  EXPECT_EQ(e.now(), 200_us * 8);  // serialised: read + write each
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(testing::Read(e, r.rmw, 0, back).status.ok());
  for (int i = 0; i < 8; ++i)
    EXPECT_TRUE(std::equal(bufs[i].begin(), bufs[i].end(), back.begin() + 512 * i)) << i;
}

TEST(RmwTest, SubUnitWriteCostsAReadAndAWrite) {
  Engine e;
  auto r = Make(e, RmwText("4KiB", 512, 4096, "latency = \"80us\"\n"));
  auto w = Pattern(4096, 1);
  EXPECT_EQ(testing::Write(e, r.rmw, 0, w).latency, 80_us);
  auto s = Pattern(512, 2);
  EXPECT_EQ(testing::Write(e, r.rmw, 512, s).latency, 160_us);
}

TEST(RmwTest, WriteZeroesAndTrimAtUnitEdges) {
  Engine e;
  auto r = Make(e, RmwText("64KiB", 4096, 512));
  const uint64_t cap = r.rmw.geometry().capacity;
  auto w = Pattern(cap, 4);
  ASSERT_TRUE(testing::Write(e, r.rmw, 0, w).status.ok());
  // Zero from 12 KiB to 200 KiB: partial head and tail units, whole middle.
  ASSERT_TRUE(DoIo(e, r.rmw, Op::kWriteZeroes, 12 * 1024, 188 * 1024, nullptr).status.ok());
  std::fill(w.begin() + 12 * 1024, w.begin() + 200 * 1024, 0);
  // Within one unit.
  ASSERT_TRUE(DoIo(e, r.rmw, Op::kWriteZeroes, 300 * 1024, 8192, nullptr).status.ok());
  std::fill(w.begin() + 300 * 1024, w.begin() + 308 * 1024, 0);
  std::vector<uint8_t> back(cap);
  ASSERT_TRUE(testing::Read(e, r.rmw, 0, back).status.ok());
  EXPECT_EQ(back, w);
  // A trim only reaches whole units.
  r.child.ResetStats();
  ASSERT_TRUE(DoIo(e, r.rmw, Op::kTrim, 4096, 200 * 1024, nullptr).status.ok());
  EXPECT_EQ(r.child.stats().op(Op::kTrim).bytes, 128u * 1024);
}

TEST(RmwTest, BadParameters) {
  struct Case {
    std::string text, expect;
  };
  const Case cases[] = {
      {RmwText("6KiB", 4096, 512), "key 'unit': must be a multiple of logical_block"},
      {RmwText("2KiB", 512, 4096), "key 'unit': must be a multiple of the child's 4096-byte"},
      {RmwText("12KiB", 1536, 512), "key 'logical_block': must be a power of two"},
      {RmwText("32MiB", 512, 512), "key 'unit': is larger than the child"},
      {RmwText("28KiB", 512, 512), "key 'unit': must be a power of two"},
  };
  for (const Case& c : cases) {
    Engine e;
    auto res = LoadStackText(c.text, "r.toml", ".", e, BuildOptions{});
    ASSERT_FALSE(res.ok());
    EXPECT_NE(res.status().message().find(": node 'r', key '"), std::string::npos)
        << res.status().message();
    EXPECT_EQ(res.status().message().rfind("r.toml:", 0), 0u) << res.status().message();
    EXPECT_NE(res.status().message().find(c.expect), std::string::npos) << res.status().message();
  }
}

}  // namespace rmw_test
}  // namespace storlab
