// RAID under faults given as control commands (sim/serve/node_commands.h):
// `fail` of a member runs the array degraded, `replace` rebuilds it at md's
// rate limits while foreground I/O goes on (and is slower for it), and a
// second failure during a RAID5 rebuild fails the array's I/O, as md does.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/serve/control.h"
#include "sim/serve/node_commands.h"
#include "tests/sim/raid_test_util.h"

namespace storlab {
namespace raid_faults_test {

using namespace time_literals;
using testing::Read;

Result<std::string> Command(LoadedStack& s, const std::string& line) {
  auto cmd = ParseControl(line);
  if (!cmd.ok()) return cmd.status();
  return RunNodeCommand(*s.stack, *cmd);
}

// Slow members that do one request at a time, so the rebuild's reads and
// writes and the foreground's meet at the disks.
testing::RaidSpec SlowRaid5() {
  return testing::WithKeys(testing::Spec(5, 4, "64KiB", "32MiB"),
                           "speed_limit_min = \"20MB/s\"\nspeed_limit_max = \"200MB/s\"\n",
                           "latency = \"100us\"\nbandwidth = \"100MB/s\"\nqueue_depth = 1\n");
}

// 64 KiB reads one after another for `span`, at seeded offsets: how many.
int ReadsIn(Engine& e, Node& n, Nanos span, uint64_t seed) {
  Random rng(seed, "reads");
  std::vector<uint8_t> buf(64 << 10);
  const uint64_t blocks = n.geometry().capacity / buf.size();
  const Nanos end = e.now() + span;
  int count = 0;
  while (e.now() < end) {
    auto r = Read(e, n, rng.Uniform(blocks) * buf.size(), buf);
    EXPECT_TRUE(r.status.ok()) << r.status.ToString();
    ++count;
  }
  return count;
}

TEST(RaidFaultsTest, FailRunsDegradedAndReplaceRebuilds) {
  Engine e;
  auto rig = testing::MakeRaidRig(e, testing::Spec(5, 4));
  const auto data = testing::Fill(e, rig, 7);
  auto r = Command(rig.s, "fail disk.1");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "'disk.1' has failed: every request to it gets EIO; 'array' above it was told");
  EXPECT_TRUE(rig.raid->degraded());
  EXPECT_EQ(testing::ReadAll(e, *rig.raid), data);  // reconstructed from the others
  r = Command(rig.s, "replace disk.1");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  VirtualDriver(e).RunUntilIdle();
  EXPECT_FALSE(rig.raid->degraded());
  EXPECT_EQ(rig.raid->sync_progress(), 1.0);
  EXPECT_EQ(testing::ReadAll(e, *rig.raid), data);
}

TEST(RaidFaultsTest, ForegroundReadsAreSlowerDuringTheRebuild) {
  Engine e;
  auto rig = testing::MakeRaidRig(e, SlowRaid5());
  const int healthy = ReadsIn(e, *rig.raid, 200_ms, 1);
  ASSERT_TRUE(Command(rig.s, "fail disk.2").ok());
  ASSERT_TRUE(Command(rig.s, "replace disk.2").ok());
  const int rebuilding = ReadsIn(e, *rig.raid, 200_ms, 1);
  EXPECT_GT(rig.raid->sync_progress(), 0.0);
  EXPECT_LT(rig.raid->sync_progress(), 1.0);  // still rebuilding
  VirtualDriver(e).RunUntilIdle();
  ASSERT_FALSE(rig.raid->degraded());
  const int after = ReadsIn(e, *rig.raid, 200_ms, 1);
  // Exact in virtual time: 265 reads healthy, 36 while the rebuild takes the
  // disks (md above speed_limit_min waits only for its own steps to drain).
  EXPECT_EQ(healthy, 265);
  EXPECT_EQ(rebuilding, 36);
  EXPECT_EQ(after, healthy);
}

TEST(RaidFaultsTest, ASecondFailureDuringARaid5RebuildFailsTheArray) {
  Engine e;
  auto rig = testing::MakeRaidRig(e, SlowRaid5());
  ASSERT_TRUE(Command(rig.s, "fail disk.1").ok());
  ASSERT_TRUE(Command(rig.s, "replace disk.1").ok());
  VirtualDriver(e).RunUntil(e.now() + 50_ms);
  ASSERT_LT(rig.raid->sync_progress(), 1.0);
  auto r = Command(rig.s, "fail disk.3");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(rig.raid->failed());
  std::vector<uint8_t> buf(4096);
  auto read = Read(e, *rig.raid, 0, buf);
  EXPECT_EQ(read.status.code(), Status::Code::kIoError);
  EXPECT_EQ(read.status.message(), "array: array has failed");
  auto w = testing::Pattern(4096, 1);
  EXPECT_EQ(testing::Write(e, *rig.raid, 0, w).status.code(), Status::Code::kIoError);
  EXPECT_EQ(*r, "'disk.3' has failed: every request to it gets EIO; 'array' above it was told");
}

}  // namespace raid_faults_test
}  // namespace storlab
