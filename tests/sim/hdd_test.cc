// The HDD model as a device: command timing, NCQ reordering and its
// starvation bound, the write cache (acknowledge, hit, FLUSH, FUA, power
// cut), look-ahead, and profile errors. Virtual time; exact where the model
// is exact.
#include "sim/devices/hdd.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/probe.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace {

using namespace time_literals;
using testing::DoIo;
using testing::MustLoadText;
using testing::Pattern;

// hdd-7200 with `keys` overriding its profile.
LoadedStack Drive(Engine& e, const std::string& keys = "",
                  DataMode::Kind kind = DataMode::Kind::kRam) {
  return MustLoadText("[node.hdd]\nuse = \"hdd-7200\"\n" + keys + "\n", e, 1, kind);
}
Hdd& AsHdd(const LoadedStack& s) { return dynamic_cast<Hdd&>(s.stack->root()); }

double Stat(const Node& n, const std::string& name) {
  StatList l;
  n.AppendStats(l);
  for (const auto& v : l)
    if (v.name == name) return v.value;
  ADD_FAILURE() << "no stat " << name;
  return -1;
}

std::vector<uint8_t> OnMedia(Hdd& h, uint64_t off, uint64_t len) {
  std::vector<uint8_t> buf(len);
  EXPECT_TRUE(h.store().Read(off, len, buf.data()).ok());
  return buf;
}

// Submits a request; `order` gets `tag` when it completes.
void Submit(Node& n, Op op, uint64_t off, uint64_t len, uint8_t* data, std::vector<int>* order,
            int tag, uint32_t flags = 0) {
  Request r;
  r.op = op;
  r.offset = off;
  r.length = len;
  r.data = data;
  r.flags = flags;
  r.done = [order, tag](Status st) {
    EXPECT_TRUE(st.ok()) << st.ToString();
    order->push_back(tag);
  };
  n.Submit(std::move(r));
}

TEST(HddTest, DeclaresWhatItIs) {
  Engine e;
  auto s = Drive(e);
  const Node& n = s.stack->root();
  EXPECT_EQ(n.type(), "hdd");
  EXPECT_EQ(n.geometry().capacity, 16'000'000'000'000u);
  EXPECT_EQ(n.geometry().physical_block, 4096u);
  EXPECT_TRUE(n.caps().rotational);
  EXPECT_TRUE(n.caps().volatile_cache);
  EXPECT_FALSE(n.caps().trim);
  EXPECT_EQ(n.caps().queue_depth, 32u);
}

TEST(HddTest, RotationalLatencyAveragesHalfARevolution) {
  Engine e;
  auto s = Drive(e, "", DataMode::Kind::kNone);
  ProbeSpec p;
  p.duration = 30_s;
  auto r = RunProbe(e, s.stack->root(), p);
  ASSERT_GT(r.ios, 2000u);
  EXPECT_NEAR(Stat(s.stack->root(), "mean_rotational_ms"), 60e3 / 7200 / 2, 0.1);
  // A random access costs the fitted average seek (here over LBA-uniform
  // targets, a little less than over cylinders), half a turn and overheads.
  EXPECT_NEAR(Stat(s.stack->root(), "mean_seek_ms"), 7.2, 0.3);
}

TEST(HddTest, OuterZonesStreamFasterThanInnerOnes) {
  Engine e;
  auto s = Drive(e, "", DataMode::Kind::kNone);
  Node& n = s.stack->root();
  ProbeSpec p;
  p.block_size = 1 << 20;
  p.random = false;
  p.duration = 2_s;
  const double outer = RunProbe(e, n, p).bytes_per_s;
  p.offset = n.geometry().capacity - (uint64_t{1} << 30);
  const double inner = RunProbe(e, n, p).bytes_per_s;
  EXPECT_NEAR(outer, 210e6, 210e6 * 0.01);
  EXPECT_NEAR(inner / outer, 0.47, 0.02);
}

TEST(HddTest, SequentialReadsAtQd1LoseNoRevolutionThanksToLookAhead) {
  // Without look-ahead each command arrives after its first sector passed
  // under the head and waits almost a whole turn.
  for (const char* ra : {"2MiB", "0"}) {
    Engine e;
    auto s = Drive(e, std::string("read_ahead = ") + (ra[0] == '0' ? "0" : "\"2MiB\""),
                   DataMode::Kind::kNone);
    ProbeSpec p;
    p.block_size = 256 << 10;
    p.random = false;
    p.duration = 2_s;
    auto r = RunProbe(e, s.stack->root(), p);
    if (ra[0] == '0') {
      EXPECT_LT(r.bytes_per_s, 210e6 * 0.5);
    } else {
      EXPECT_NEAR(r.bytes_per_s, 210e6, 210e6 * 0.02);
      EXPECT_GT(Stat(s.stack->root(), "stream_reads"), 100);
    }
  }
}

TEST(HddTest, NcqReordersAndDepthOneServesInArrivalOrder) {
  for (int depth : {32, 1}) {
    Engine e;
    auto s = Drive(e, "queue_depth = " + std::to_string(depth), DataMode::Kind::kNone);
    Node& n = s.stack->root();
    std::vector<int> order;
    Random rng(3);
    for (int i = 0; i < 32; ++i) {
      Submit(n, Op::kRead, rng.Uniform(n.geometry().capacity / 4096) * 4096, 4096, nullptr, &order,
             i);
    }
    VirtualDriver(e).RunUntilIdle();
    ASSERT_EQ(order.size(), 32u);
    std::vector<int> fifo(32);
    for (int i = 0; i < 32; ++i) fifo[i] = i;
    if (depth == 1) {
      EXPECT_EQ(order, fifo);
    } else {
      EXPECT_NE(order, fifo);
    }
  }
  // And it pays: 32 queued random reads finish much sooner than one at a time.
  Engine e1, e32;
  auto s1 = Drive(e1, "", DataMode::Kind::kNone), s32 = Drive(e32, "", DataMode::Kind::kNone);
  ProbeSpec p;
  p.duration = 20_s;
  const double qd1 = RunProbe(e1, s1.stack->root(), p).iops;
  p.queue_depth = 32;
  const double qd32 = RunProbe(e32, s32.stack->root(), p).iops;
  EXPECT_GT(qd32, 2 * qd1);
  // queue_depth = 1 at the drive: 32 outstanding gain nothing.
  Engine eq;
  auto sq = Drive(eq, "queue_depth = 1", DataMode::Kind::kNone);
  EXPECT_NEAR(RunProbe(eq, sq.stack->root(), p).iops, qd1, qd1 * 0.05);
}

// Keeps 31 reads outstanding near the start of the disk for `busy`, plus one
// read at the far end; returns that read's latency.
Nanos FarReadLatency(const std::string& keys, Nanos busy) {
  Engine e;
  auto s = Drive(e, keys, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  Random rng(5);
  Nanos far_done = Nanos(-1);
  std::function<void()> near = [&] {
    if (e.now() >= busy) return;
    Request r;
    r.op = Op::kRead;
    r.offset = rng.Uniform(262144) * 4096;  // the first GiB: short seeks
    r.length = 4096;
    r.done = [&](Status) { near(); };
    n.Submit(std::move(r));
  };
  for (int i = 0; i < 31; ++i) near();
  Request far;
  far.op = Op::kRead;
  far.offset = n.geometry().capacity - 4096;
  far.length = 4096;
  far.done = [&](Status) { far_done = e.now(); };
  n.Submit(std::move(far));
  VirtualDriver(e).RunUntilIdle();
  return far_done;
}

TEST(HddTest, NcqDoesNotStarveAFarCommand) {
  // Pure shortest-positioning-time-first would serve the near reads forever.
  const Nanos starved = FarReadLatency("ncq_age_limit = \"1h\"", 5_s);
  EXPECT_GE(starved, 5_s);
  // The age limit bounds the wait: the far read goes next once it is 1 s old.
  const Nanos bounded = FarReadLatency("ncq_age_limit = \"1s\"", 5_s);
  EXPECT_GE(bounded, 1_s);
  EXPECT_LT(bounded, 1_s + 40_ms);
}

TEST(HddTest, CachedWritesAreAcknowledgedAtInterfaceSpeed) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  auto w = Pattern(4096, 1);
  auto r = testing::Write(e, h, 1 << 20, w);
  ASSERT_TRUE(r.status.ok());
  // hit_overhead + 4 KiB at 600 MB/s, exactly.
  EXPECT_EQ(r.latency, 30_us + TransferTime(4096, 600e6));
  EXPECT_TRUE(h.write_cache().Covers(1 << 20, 4096));
  EXPECT_NE(OnMedia(h, 1 << 20, 4096), w);  // not on the platters yet
  // A read of it hits the cache.
  std::vector<uint8_t> back(4096);
  auto rd = testing::Read(e, h, 1 << 20, back);
  EXPECT_EQ(back, w);
  EXPECT_EQ(rd.latency, 30_us + TransferTime(4096, 600e6));
  EXPECT_EQ(Stat(h, "cache_read_hits"), 1);
  // Left idle, the drive destages it.
  VirtualDriver(e).RunUntilIdle();
  EXPECT_TRUE(h.write_cache().empty());
  EXPECT_EQ(OnMedia(h, 1 << 20, 4096), w);
}

TEST(HddTest, FlushCompletesOnlyWhenEverythingBeforeItIsOnMedia) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  Random rng(9);
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> written;
  for (int i = 0; i < 64; ++i) {
    written.emplace_back(rng.Uniform(1'000'000) * 4096, Pattern(4096, 100 + i));
    ASSERT_TRUE(testing::Write(e, h, written.back().first, written.back().second).status.ok());
  }
  ASSERT_FALSE(h.write_cache().empty());
  auto f = testing::Flush(e, h);
  ASSERT_TRUE(f.status.ok());
  EXPECT_TRUE(h.write_cache().empty());
  EXPECT_GT(f.latency, 10_ms);  // dozens of mechanical writes
  for (auto& [off, w] : written) EXPECT_EQ(OnMedia(h, off, 4096), w) << off;
  EXPECT_EQ(Stat(h, "flushes"), 1);
}

TEST(HddTest, FlushIsNotQueued) {
  // It waits for the commands before it and holds back those after it.
  Engine e;
  auto s = Drive(e);
  Node& n = s.stack->root();
  std::vector<int> order;
  std::vector<uint8_t> a(4096), b = Pattern(4096, 1), c = Pattern(4096, 2);
  Submit(n, Op::kWrite, 0, 4096, b.data(), &order, 1);
  Submit(n, Op::kRead, uint64_t{8} << 40, 4096, a.data(), &order, 2);  // a slow media read
  Submit(n, Op::kFlush, 0, 0, nullptr, &order, 3);
  Submit(n, Op::kWrite, 4096, 4096, c.data(), &order, 4);  // a fast cached write
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4}));
}

TEST(HddTest, FuaWritesGoToMediaBeforeTheyComplete) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  auto old_data = Pattern(8192, 1), fua = Pattern(8192, 2);
  ASSERT_TRUE(testing::Write(e, h, 1 << 30, old_data).status.ok());  // cached
  auto r = testing::Write(e, h, 1 << 30, fua, kFua);
  ASSERT_TRUE(r.status.ok());
  EXPECT_GT(r.latency, 1_ms);  // a mechanical access
  EXPECT_EQ(OnMedia(h, 1 << 30, 8192), fua);
  EXPECT_FALSE(h.write_cache().Covers(1 << 30, 512));
  // The older cached data is never destaged over it.
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(OnMedia(h, 1 << 30, 8192), fua);
}

TEST(HddTest, PowerCutLosesExactlyTheWritesNotYetOnMedia) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  Random rng(11);
  const uint64_t blocks = 2'000'000;
  // Flushed generation: durable.
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> flushed;
  for (int i = 0; i < 32; ++i) {
    flushed.emplace_back(rng.Uniform(blocks) * 4096, Pattern(4096, 1000 + i));
    ASSERT_TRUE(testing::Write(e, h, flushed.back().first, flushed.back().second).status.ok());
  }
  ASSERT_TRUE(testing::Flush(e, h).status.ok());
  // Unflushed: new blocks, and new versions of half the flushed ones.
  struct W {
    uint64_t off;
    std::vector<uint8_t> before, after;
  };
  std::vector<W> later;
  for (int i = 0; i < 48; ++i) {
    W w;
    w.off = i % 3 == 0 ? flushed[i / 3].first : rng.Uniform(blocks) * 4096;
    w.before = i % 3 == 0 ? flushed[i / 3].second : std::vector<uint8_t>(4096, 0);
    w.after = Pattern(4096, 2000 + i);
    later.push_back(w);
    ASSERT_TRUE(testing::Write(e, h, w.off, w.after).status.ok());
  }
  // Let the destager get part of the way.
  VirtualDriver(e).RunUntil(e.now() + 40_ms);
  std::vector<bool> still_cached;
  int lost = 0;
  for (auto& w : later) {
    still_cached.push_back(h.write_cache().Covers(w.off, 4096));
    lost += still_cached.back() ? 1 : 0;
  }
  ASSERT_GT(lost, 0);
  ASSERT_LT(lost, 48);
  s.stack->PowerCut();
  EXPECT_TRUE(h.write_cache().empty());
  for (size_t i = 0; i < later.size(); ++i) {
    std::vector<uint8_t> r(4096);
    ASSERT_TRUE(testing::Read(e, h, later[i].off, r).status.ok());
    EXPECT_EQ(r, still_cached[i] ? later[i].before : later[i].after) << i;
  }
  for (size_t i = 0; i < flushed.size(); ++i) {
    if (i < 16) continue;  // rewritten above
    std::vector<uint8_t> r(4096);
    ASSERT_TRUE(testing::Read(e, h, flushed[i].first, r).status.ok());
    EXPECT_EQ(r, flushed[i].second) << i;
  }
}

TEST(HddTest, WriteThroughWhenTheCacheIsOff) {
  Engine e;
  auto s = Drive(e, "write_cache = false");
  Hdd& h = AsHdd(s);
  EXPECT_FALSE(h.caps().volatile_cache);
  auto w = Pattern(4096, 4);
  auto r = testing::Write(e, h, 123 * 4096, w);
  EXPECT_GT(r.latency, 1_ms);
  EXPECT_EQ(OnMedia(h, 123 * 4096, 4096), w);
  s.stack->PowerCut();
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(testing::Read(e, h, 123 * 4096, back).status.ok());
  EXPECT_EQ(back, w);
}

TEST(HddTest, AFullCacheHoldsWritesUntilDestagingMakesRoom) {
  Engine e;
  auto s = Drive(e, "cache_size = \"64KiB\"", DataMode::Kind::kNone);
  Hdd& h = AsHdd(s);
  ProbeSpec p;
  p.op = Op::kWrite;
  p.queue_depth = 8;
  p.duration = 2_s;
  auto r = RunProbe(e, h, p);
  EXPECT_GT(Stat(h, "blocked_writes"), 100);
  EXPECT_LE(h.write_cache().dirty_bytes(), 64u << 10);
  // Limited by destaging: a few hundred IOPS, not interface speed.
  EXPECT_LT(r.iops, 1000);
  EXPECT_GT(Stat(h, "destaged_bytes"), 100 * 4096);
}

TEST(HddTest, WriteZeroesGoThroughTheCacheToo) {
  Engine e;
  auto s = Drive(e);
  Hdd& h = AsHdd(s);
  auto w = Pattern(8192, 5);
  ASSERT_TRUE(testing::Write(e, h, 0, w, kFua).status.ok());
  ASSERT_TRUE(DoIo(e, h, Op::kWriteZeroes, 0, 8192, nullptr).status.ok());
  std::vector<uint8_t> r(8192, 1);
  ASSERT_TRUE(testing::Read(e, h, 0, r).status.ok());
  EXPECT_EQ(r, std::vector<uint8_t>(8192, 0));
  ASSERT_TRUE(testing::Flush(e, h).status.ok());
  EXPECT_EQ(OnMedia(h, 0, 8192), std::vector<uint8_t>(8192, 0));
}

TEST(HddTest, FewEventsPerIo) {
  // No per-sector work: each I/O costs a handful of engine events.
  Engine e;
  auto s = Drive(e, "", DataMode::Kind::kNone);
  ProbeSpec p;
  p.queue_depth = 32;
  p.duration = 60_s;
  auto r = RunProbe(e, s.stack->root(), p);
  ASSERT_GT(r.ios, 10000u);
  EXPECT_LE(static_cast<double>(e.events_run()) / static_cast<double>(r.ios), 3.0);
}

TEST(HddTest, ProfileErrorsNameFileLineAndKey) {
  Engine e;
  BuildOptions o;
  auto bad = LoadStackText("[node.hdd]\nuse = \"hdd-7200\"\naverage_seek = \"30ms\"\n", "t.toml",
                           ".", e, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("t.toml:3"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("'average_seek'"), std::string::npos);
  auto typo = LoadStackText("[node.hdd]\nuse = \"hdd-7200\"\nrmp = 7200\n", "t.toml", ".", e, o);
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("rmp"), std::string::npos);
  auto zero =
      LoadStackText("[node.hdd]\nuse = \"hdd-7200\"\ninner_fraction = 0\n", "t.toml", ".", e, o);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.status().message().find("'inner_fraction'"), std::string::npos);
  // A tiny drive with a big drive's heads has too few cylinders for its seek
  // figures, and the message says so; with one head it works.
  auto tiny =
      LoadStackText("[node.hdd]\nuse = \"hdd-7200\"\ncapacity = \"64MiB\"\n", "t.toml", ".", e, o);
  ASSERT_FALSE(tiny.ok());
  EXPECT_NE(tiny.status().message().find("3 cylinders"), std::string::npos)
      << tiny.status().message();
  EXPECT_TRUE(LoadStackText("[node.hdd]\nuse = \"hdd-7200\"\ncapacity = \"64MiB\"\nheads = 1\n",
                            "t.toml", ".", e, o)
                  .ok());
}

}  // namespace
}  // namespace storlab
