// Ssd: the data path, the exact cost of each stage, and durability — FLUSH,
// FUA, power-loss protection and what a power cut loses.
#include "sim/devices/ssd.h"

#include <gtest/gtest.h>

#include "tests/sim/ssd_test_util.h"

namespace storlab {
namespace ssd_test {

using namespace time_literals;
using testing::AsSsd;
using testing::DoIo;
using testing::MustLoadText;
using testing::Pattern;
using testing::SmallSsd;

TEST(Ssd, ReadsSeeWritesInTheBufferAndOnFlash) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e);
  Node& n = s.stack->root();
  auto w = Pattern(65536, 1);
  ASSERT_TRUE(testing::Write(e, n, 1 << 20, w).status.ok());
  EXPECT_GT(AsSsd(s).buffered_bytes(), 0u);  // acknowledged from the buffer
  std::vector<uint8_t> r(65536);
  ASSERT_TRUE(testing::Read(e, n, 1 << 20, r).status.ok());
  EXPECT_EQ(r, w);
  VirtualDriver(e).RunUntilIdle();  // programs, folding: all done
  EXPECT_EQ(AsSsd(s).buffered_bytes(), 0u);
  EXPECT_TRUE(e.empty());
  std::fill(r.begin(), r.end(), 0);
  ASSERT_TRUE(testing::Read(e, n, 1 << 20, r).status.ok());
  EXPECT_EQ(r, w);
}

TEST(Ssd, QueueDepthOneLatenciesAreTheSumOfTheStages) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e, 1, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  // Read: 2 us command + 50 us read + 2.5 us channel + 1 us link.
  EXPECT_EQ(DoIo(e, n, Op::kRead, 8 << 20, 4096, nullptr).latency, 55500_ns);
  // Write: 5 us command + 1 us link, then it is in the buffer.
  EXPECT_EQ(DoIo(e, n, Op::kWrite, 0, 4096, nullptr).latency, 6_us);
  // A 64 KiB read spans 4 pages on 4 units: their reads overlap, and the
  // last 16 KiB leaves the link at 2 + 50 + 10 + 16 us.
  EXPECT_EQ(DoIo(e, n, Op::kRead, 64 << 20, 65536, nullptr).latency, 78_us);
}

TEST(Ssd, FlushWithoutPlpWaitsForTheProgramAndTheJournal) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e, 1, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  ASSERT_EQ(DoIo(e, n, Op::kWrite, 0, 4096, nullptr).latency, 6_us);
  // The open unit is programmed now (20 us channel + 200 us SLC program),
  // then the journal commit (1 ms) on the next die.
  EXPECT_EQ(testing::Flush(e, n).latency, 1220_us);
  // Nothing new since: the next FLUSH only costs its command.
  EXPECT_EQ(testing::Flush(e, n).latency, 2_us);
  EXPECT_EQ(AsSsd(s).buffered_bytes(), 0u);
}

TEST(Ssd, FlushWithPlpIsCheap) {
  Engine e;
  auto s = MustLoadText(SmallSsd("plp = true\n"), e, 1, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  EXPECT_FALSE(n.caps().volatile_cache);
  ASSERT_EQ(DoIo(e, n, Op::kWrite, 0, 4096, nullptr).latency, 6_us);
  EXPECT_EQ(testing::Flush(e, n).latency, 2_us);
}

TEST(Ssd, APlpDriveThatStillHonoursFlushPaysForIt) {
  // Micron 5100: PLP, yet FLUSH programs the buffer (288 IOPS with fsync).
  Engine e;
  auto s = MustLoadText(SmallSsd("plp = true\nflush_despite_plp = true\n"), e);
  Node& n = s.stack->root();
  EXPECT_TRUE(n.caps().volatile_cache);  // so the host keeps sending flushes
  auto w = Pattern(4096, 4);
  ASSERT_EQ(testing::Write(e, n, 0, w).latency, 6_us);
  EXPECT_EQ(testing::Flush(e, n).latency, 1220_us);
  auto loose = Pattern(4096, 5);
  ASSERT_TRUE(testing::Write(e, n, 8192, loose).status.ok());
  s.stack->PowerCut();  // the capacitors still save the buffer
  std::vector<uint8_t> r(4096);
  ASSERT_TRUE(testing::Read(e, n, 8192, r).status.ok());
  EXPECT_EQ(r, loose);
}

TEST(Ssd, FuaWriteIsProgrammedAndCommittedBeforeItCompletes) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 3);
  // In the buffer at 6 us; programmed 6 + 20 + 200 us; journal + 1 ms.
  EXPECT_EQ(testing::Write(e, n, 4096, w, kFua).latency, 1226_us);
  s.stack->PowerCut();
  std::vector<uint8_t> r(4096);
  ASSERT_TRUE(testing::Read(e, n, 4096, r).status.ok());
  EXPECT_EQ(r, w);

  Engine e2;
  auto p = MustLoadText(SmallSsd("plp = true\n"), e2);
  EXPECT_EQ(testing::Write(e2, p.stack->root(), 4096, w, kFua).latency, 6_us);
}

// Writes `count` 4 KiB blocks at QD1 from `first`, each its own pattern.
std::vector<std::vector<uint8_t>> WriteBlocks(Engine& e, Node& n, uint64_t first, int count,
                                              uint64_t seed) {
  std::vector<std::vector<uint8_t>> v;
  for (int i = 0; i < count; ++i) {
    v.push_back(Pattern(4096, seed + i));
    EXPECT_TRUE(testing::Write(e, n, (first + i) * 4096, v.back()).status.ok());
  }
  return v;
}

// Counts the blocks that read back as written, and those that read as zeros.
std::pair<int, int> NewAndOld(Engine& e, Node& n, uint64_t first,
                              const std::vector<std::vector<uint8_t>>& v) {
  int fresh = 0, old = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    std::vector<uint8_t> r(4096);
    EXPECT_TRUE(testing::Read(e, n, (first + i) * 4096, r).status.ok());
    if (r == v[i]) ++fresh;
    if (r == std::vector<uint8_t>(4096, 0)) ++old;
  }
  return {fresh, old};
}

TEST(Ssd, PowerCutLosesExactlyTheUnprogrammedBufferWithoutPlp) {
  Engine e;
  auto s = MustLoadText(SmallSsd(), e);
  Node& n = s.stack->root();
  auto flushed = WriteBlocks(e, n, 0, 20, 100);
  ASSERT_TRUE(testing::Flush(e, n).status.ok());
  // 100 more at QD1 (6 us each): units of 8 blocks close and program in
  // 220 us, so the last several hundred microseconds' worth is in DRAM.
  auto loose = WriteBlocks(e, n, 1000, 100, 200);
  const uint64_t buffered = AsSsd(s).buffered_bytes();
  ASSERT_GT(buffered, 0u);
  ASSERT_LT(buffered, 100u * 4096);
  s.stack->PowerCut();
  EXPECT_EQ(NewAndOld(e, n, 0, flushed), std::make_pair(20, 0));
  auto [fresh, old] = NewAndOld(e, n, 1000, loose);
  EXPECT_EQ(old, static_cast<int>(buffered / 4096));
  EXPECT_EQ(fresh + old, 100);
}

TEST(Ssd, PowerCutWithPlpLosesNothingAcknowledged) {
  Engine e;
  auto s = MustLoadText(SmallSsd("plp = true\n"), e);
  Node& n = s.stack->root();
  auto loose = WriteBlocks(e, n, 1000, 100, 200);
  ASSERT_GT(AsSsd(s).buffered_bytes(), 0u);
  s.stack->PowerCut();
  EXPECT_EQ(NewAndOld(e, n, 1000, loose), std::make_pair(100, 0));
}

TEST(Ssd, APartialUnitIsProgrammedAfterTheTimeout) {
  Engine e;
  auto s = MustLoadText(SmallSsd("idle_delay = \"1h\"\n"), e);
  Node& n = s.stack->root();
  auto w = WriteBlocks(e, n, 0, 3, 7);  // less than a unit
  VirtualDriver(e).RunUntil(e.now() + 1_ms + 220_us);
  EXPECT_EQ(AsSsd(s).buffered_bytes(), 0u);
  s.stack->PowerCut();
  EXPECT_EQ(NewAndOld(e, n, 0, w), std::make_pair(3, 0));
}

TEST(Ssd, TrimAndWriteZeroesReturnSpace) {
  Engine e;
  auto s = MustLoadText(SmallSsd("prefill = \"100%\"\n"), e);
  Node& n = s.stack->root();
  Ssd& ssd = AsSsd(s);
  EXPECT_EQ(ssd.ftl().valid_bytes(), 256u << 20);
  auto w = Pattern(8192, 9);
  ASSERT_TRUE(testing::Write(e, n, 0, w).status.ok());
  ASSERT_TRUE(DoIo(e, n, Op::kTrim, 0, 128 << 20, nullptr).status.ok());
  EXPECT_EQ(ssd.ftl().valid_bytes(), 128u << 20);
  std::vector<uint8_t> r(8192, 1);
  ASSERT_TRUE(testing::Read(e, n, 0, r).status.ok());
  EXPECT_EQ(r, std::vector<uint8_t>(8192, 0));
  ASSERT_TRUE(DoIo(e, n, Op::kWriteZeroes, 128 << 20, 16 << 20, nullptr).status.ok());
  EXPECT_EQ(ssd.ftl().valid_bytes(), 112u << 20);
  ASSERT_TRUE(DoIo(e, n, Op::kWriteZeroes, 200 << 20, 16 << 20, nullptr, kNoUnmap).status.ok());
  EXPECT_EQ(ssd.ftl().valid_bytes(), 112u << 20);  // kept allocated
}

TEST(Ssd, SataFlushWaitsForTheQueueAndHoldsItBack) {
  Engine e;
  auto s = MustLoadText(SmallSsd("interface = \"sata\"\nqueue_depth = 32\n"), e, 1,
                        DataMode::Kind::kNone);
  Node& n = s.stack->root();
  std::vector<std::pair<int, Nanos>> done;
  auto submit = [&](int id, Op op, uint64_t off) {
    Request r{.op = op,
              .offset = off,
              .length = op == Op::kFlush ? 0u : 4096u,
              .done = [&, id](Status st) {
                EXPECT_TRUE(st.ok());
                done.emplace_back(id, e.now());
              }};
    n.Submit(std::move(r));
  };
  for (int i = 0; i < 4; ++i) submit(i, Op::kRead, uint64_t(i) << 20);
  submit(4, Op::kFlush, 0);
  submit(5, Op::kRead, 8 << 20);
  VirtualDriver(e).RunUntilIdle();
  ASSERT_EQ(done.size(), 6u);
  EXPECT_EQ(done[4].first, 4);  // the flush after every earlier read
  EXPECT_EQ(done[5].first, 5);  // and the later read after the flush
  EXPECT_GT(done[5].second, done[4].second);
}

TEST(Ssd, TimingDoesNotDependOnWhetherDataIsKept) {
  auto run = [](DataMode::Kind kind) {
    Engine e;
    auto s = MustLoadText(SmallSsd("map_cache = \"64KiB\"\n"), e, 5, kind);
    Node& n = s.stack->root();
    std::vector<int64_t> t;
    std::vector<uint8_t> buf(65536, 7);
    Random rng(9);
    for (int i = 0; i < 300; ++i) {
      const uint64_t off = rng.Uniform(4000) * 65536;
      const int k = static_cast<int>(rng.Uniform(10));
      const Op op = k < 5 ? Op::kWrite : k < 9 ? Op::kRead : Op::kFlush;
      t.push_back(DoIo(e, n, op, op == Op::kFlush ? 0 : off, op == Op::kFlush ? 0 : 65536,
                       buf.data(), k == 0 ? kFua : 0)
                      .done_at.count());
    }
    return t;
  };
  EXPECT_EQ(run(DataMode::Kind::kNone), run(DataMode::Kind::kRam));
}

TEST(Ssd, SameSeedSameEverything) {
  auto run = [](uint64_t seed) {
    Engine e;
    auto s = MustLoadText(SmallSsd(), e, seed, DataMode::Kind::kNone);
    ProbeSpec p;
    p.op = Op::kWrite;
    p.queue_depth = 16;
    p.duration = 200_ms;
    ProbeResult w = RunProbe(e, s.stack->root(), p);
    p.op = Op::kRead;
    ProbeResult r = RunProbe(e, s.stack->root(), p);
    StatList st;
    s.stack->root().AppendStats(st);
    std::vector<double> v{double(w.ios), double(r.ios), w.mean_latency_us, r.mean_latency_us};
    for (const auto& x : st) v.push_back(x.value);
    return v;
  };
  EXPECT_EQ(run(3), run(3));
}

}  // namespace ssd_test
}  // namespace storlab
