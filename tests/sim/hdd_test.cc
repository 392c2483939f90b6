// The HDD model as a device: command timing, NCQ reordering and its
// starvation bound, look-ahead, event cost and profile errors. The write
// cache seen through the device: hdd_drive_cache_test.cc. Virtual time;
// exact where the model is exact.
#include "sim/devices/hdd.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/sim/hdd_test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace hdd_test {

using namespace time_literals;
using testing::Drive;
using testing::Stat;
using testing::Submit;

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
// read at the far end; returns that read's latency. `stream`: the near
// reads are instead 4 sequential 512 KiB reads in flight (a RAID rebuild's
// pass), which the drive serves by following its read-ahead stream.
Nanos FarReadLatency(const std::string& keys, Nanos busy, bool stream = false) {
  Engine e;
  auto s = Drive(e, keys, DataMode::Kind::kNone);
  Node& n = s.stack->root();
  Random rng(5);
  Nanos far_done = Nanos(-1);
  uint64_t next = 0;
  std::function<void()> near = [&] {
    if (e.now() >= busy) return;
    const uint64_t len = stream ? 512 << 10 : 4096;
    uint64_t off = rng.Uniform(262144) * 4096;  // the first GiB: short seeks
    if (stream) {
      off = next;
      next += len;
    }
    Request r{.op = Op::kRead, .offset = off, .length = len, .done = [&](Status) { near(); }};
    n.Submit(std::move(r));
  };
  for (int i = 0; i < (stream ? 4 : 31); ++i) near();
  auto far_read = [&](Status) { far_done = e.now(); };
  Request far{.op = Op::kRead,
              .offset = n.geometry().capacity - 4096,
              .length = 4096,
              .done = std::move(far_read)};
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
  // Nor does a sequential stream the drive follows without seeking (it
  // used to: a rebuild's pass starved a VM's reads until a flush).
  const Nanos beside_stream = FarReadLatency("ncq_age_limit = \"1s\"", 5_s, true);
  EXPECT_GE(beside_stream, 1_s);
  EXPECT_LT(beside_stream, 1_s + 40_ms);
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

}  // namespace hdd_test
}  // namespace storlab
