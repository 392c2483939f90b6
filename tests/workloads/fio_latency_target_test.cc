// latency_target, latency_window, latency_percentile, latency_run (fio 3.33
// io_u.c lat_target_*): the search for the deepest queue whose I/Os meet the
// target. On a disk that serves one 4 KiB I/O per 100 µs, an I/O waits
// about depth x 100 µs, so a 1 ms target is met up to a depth of ~9.
#include <gtest/gtest.h>

#include <cerrno>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/latency_target.h"

namespace storlab::fio {
namespace fio_latency_target_test {

using testing::RamStack;
using testing::ReadGolden;
using testing::Split;

// 40 MiB/s: 4 KiB every ~98 µs, one at a time.
std::string SerialDisk() { return RamStack("1us", "1GiB", 256, "40MiB/s"); }

const std::string kJob =
    "--name=lt --rw=randread --bs=4k --size=256m --direct=1 --ioengine=libaio --iodepth=32 "
    "--time_based --runtime=30 --latency_target=1ms --latency_window=200ms ";

TEST(LatencyTargetTest, DoublesThenBisectsThenSettles) {
  LatencyTarget lt({.target_ns = 1000, .window = Nanos(100), .percentile = 100.0, .iodepth = 16});
  lt.Reset(Nanos(0), 0);
  EXPECT_EQ(lt.depth(), 1u);
  uint64_t ios = 0;
  Nanos t(0);
  auto window = [&](bool late) {
    t = t + Nanos(100);
    ios += 10;
    if (late) return lt.OnCompletion(2000, t, ios);
    return lt.Check(t, ios);
  };
  EXPECT_EQ(window(false), LatencyTarget::Action::kNone);
  EXPECT_EQ(lt.depth(), 2u);
  window(false);
  EXPECT_EQ(lt.depth(), 4u);
  window(false);
  EXPECT_EQ(lt.depth(), 8u);
  EXPECT_EQ(window(true), LatencyTarget::Action::kQuiesce);  // late at 8: halfway back
  EXPECT_EQ(lt.depth(), 6u);
  window(false);  // 6 good: between 6 and 8
  EXPECT_EQ(lt.depth(), 7u);
  // At depth 1 and percentile 100, a late I/O is fatal.
  LatencyTarget one({.target_ns = 1000, .window = Nanos(100), .iodepth = 4});
  one.Reset(Nanos(0), 0);
  EXPECT_EQ(one.OnCompletion(5000, Nanos(1), 1), LatencyTarget::Action::kFatal);
}

TEST(LatencyTargetTest, FindsTheDepthAndReportsTheLastWindow) {
  auto s = testing::RunArgs(SerialDisk(), Split(kJob + "--latency_percentile=99"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& t = s.Job(0);
  EXPECT_GE(t.latency_depth, 6u);
  EXPECT_LE(t.latency_depth, 10u);
  // It ends after the final window at that depth (real fio: run=205msec),
  // long before runtime=30.
  EXPECT_GE(t.dir[kRead].runtime_ms, 200u);
  EXPECT_LE(t.dir[kRead].runtime_ms, 230u);
  EXPECT_LT(s.run->runners()[0]->extras().end, Nanos::FromSeconds(10));
  EXPECT_LE(t.dir[kRead].lat.Percentile(99.0), 1'100'000u);
  // The report's line and keys, as real fio's.
  auto line = [](const std::string& text) {
    size_t p = text.find("     latency   :");
    return p == std::string::npos ? "" : text.substr(p, text.find(", depth=", p) - p);
  };
  EXPECT_EQ(line(ReadGolden("latency/lt.txt")),  // real fio, latency_target=10ms
            "     latency   : target=10000000, window=200000, percentile=99.00%");
  EXPECT_EQ(line(s.Normal()), "     latency   : target=1000000, window=200000, percentile=99.00%");
  const auto j = s.JsonObject()["jobs"][0];
  EXPECT_EQ(j["latency_target"], 1000000);
  EXPECT_EQ(j["latency_window"], 200000);
  EXPECT_EQ(j["latency_percentile"], 99.0);
  EXPECT_EQ(j["latency_depth"], t.latency_depth);
}

TEST(LatencyTargetTest, PercentileHundredAtDepthOneIsFatal) {
  // Every I/O takes 2 ms: even depth 1 misses a 1 ms target.
  auto s = testing::RunArgs(RamStack("2ms"), Split(kJob));
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.Job(0).error, ETIMEDOUT);
  const auto& m = s.run->runners()[0]->messages();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[0].rfind("fio: latency of ", 0), 0u) << m[0];
  EXPECT_NE(m[0].find(" nsec exceeds specified max (1000000 nsec): lt.0.0 read "),
            std::string::npos)
      << m[0];
}

TEST(LatencyTargetTest, LatencyRunKeepsAdjustingAndBadValues) {
  auto s = testing::RunArgs(SerialDisk(),
                            Split(kJob + "--runtime=3 --latency_percentile=99 --latency_run=1"));
  ASSERT_TRUE(s.status.ok());
  EXPECT_GE(s.Job(0).dir[kRead].runtime_ms, 2990u);  // to the end of its runtime
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "latency_percentile", "99:50", true, "l.fio:3").message(),
            "l.fio:3: option 'latency_percentile': '99:50': one value in [0, 100]");
  EXPECT_FALSE(ApplyOption(&o, "latency_target", "fast", true, "l.fio:4").ok());
  // Without latency_target the line says fio's defaults.
  auto none = testing::RunArgs(SerialDisk(), Split("--name=n --rw=read --size=1m"));
  EXPECT_NE(none.Normal().find("latency   : target=0, window=0, percentile=100.00%, depth=1"),
            std::string::npos);
}

}  // namespace fio_latency_target_test
}  // namespace storlab::fio
