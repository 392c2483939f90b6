// How many simulated I/Os the SSD model serves per second of real time:
// nvme-gen3, 4 KiB random reads at QD32, timing only, through the probe.
// Prints wall-clock and CPU-time rates; asserts only the simulated result
// (wall time is never a test criterion). The machine may be shared, so the
// CPU-time figure is the one that says what one core does.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "tests/sim/test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace ssd_bench_test {

TEST(SsdBench, RandomReadQd32SimulatedIosPerSecond) {
  Engine e;
  auto s = testing::MustLoad("nvme-gen3", e, 1, DataMode::Kind::kNone);
  ProbeSpec p;
  p.queue_depth = 32;
  p.max_ios = 2'000'000;
  p.duration = Nanos(3600'000'000'000);
  const auto wall0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  ProbeResult r = RunProbe(e, s.stack->root(), p);
  const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  ASSERT_EQ(r.ios, p.max_ios);
  EXPECT_GE(r.iops, 400000);  // the simulated drive's figure
  std::printf(
      "nvme-gen3 4K randread QD32: %llu I/Os, %.0f simulated IOPS; %.2f M I/Os per wall "
      "second (%.3f s), %.2f M per CPU second (%.3f s)\n",
      static_cast<unsigned long long>(r.ios), r.iops, r.ios / wall / 1e6, wall, r.ios / cpu / 1e6,
      cpu);
}

}  // namespace ssd_bench_test
}  // namespace storlab
