// Per-phase statistics (issue 16 §3): a stonewalled run's JSON has, per
// segment, each node's own requests and bytes — not sums over the run —
// and a run of one segment has no "phases" (its output is unchanged).
#include <gtest/gtest.h>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio::testing {
namespace fio_phases_test {

TEST(FioPhasesTest, EachStonewallSegmentHasItsOwnFigures) {
  // Segment 0: 4 MiB of writes; segment 1: 2 MiB of reads of the same file.
  Sim s = RunArgs(RamStack(),
                  {"--filename=f", "--bs=64k", "--direct=1", "--name=w", "--rw=write", "--size=4M",
                   "--name=r", "--stonewall", "--rw=read", "--size=4M", "--io_size=2M"});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  const auto j = s.JsonObject();
  const auto& phases = j["storlab"]["phases"];
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0]["jobs"], nlohmann::ordered_json({"w"}));
  EXPECT_EQ(phases[1]["jobs"], nlohmann::ordered_json({"r"}));
  EXPECT_EQ(phases[0]["end_ns"], phases[1]["start_ns"]);
  const auto disk = [&](int p) { return phases[p]["nodes"][0]; };
  EXPECT_EQ(disk(0)["name"], "disk");
  EXPECT_EQ(disk(0)["ops"]["write"]["bytes"], 4u << 20);
  EXPECT_EQ(disk(0)["ops"]["write"]["ops"], 64u);
  EXPECT_FALSE(disk(0)["ops"].contains("read"));
  EXPECT_EQ(disk(1)["ops"]["read"]["bytes"], 2u << 20);
  EXPECT_FALSE(disk(1)["ops"].contains("write"));
  // 100 us per request on the RAM disk, one at a time.
  EXPECT_EQ(disk(1)["ops"]["read"]["mean_latency_ns"], 100'000.0);
  EXPECT_EQ(disk(1)["busy_ns"], 32 * 100'000);
}

TEST(FioPhasesTest, OneSegmentHasNoPhases) {
  Sim s = RunArgs(RamStack(), {"--filename=f", "--bs=64k", "--direct=1", "--name=w", "--rw=write",
                               "--size=1M"});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_FALSE(s.JsonObject()["storlab"].contains("phases"));
}

}  // namespace fio_phases_test
}  // namespace storlab::fio::testing
