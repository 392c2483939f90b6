// The raid layer's background work: rebuild after a member is replaced
// (in simulated time, throttled, competing with foreground I/O, resumed
// after a power cut), check/repair, and the RAID5 write hole.
#include <gtest/gtest.h>

#include "tests/sim/raid_test_util.h"

namespace storlab {
namespace raid_rebuild_test {

using namespace time_literals;
using testing::Fill;
using testing::MakeRaidRig;
using testing::Pattern;
using testing::RaidRig;
using testing::ReadAll;
using testing::Spec;
using testing::WithKeys;

TEST(RaidRebuildTest, RebuildCompletesAndTheArrayIsConsistent) {
  for (int level : {1, 5, 6, 10}) {
    Engine e;
    auto r = MakeRaidRig(e, WithKeys(Spec(level, 4, "64KiB"), "", "latency = \"50us\"\n"));
    auto data = Fill(e, r, 1);
    ASSERT_TRUE(r.raid->FailMember(1).ok());
    ASSERT_TRUE(r.raid->ReplaceMember(1).ok());
    // The replacement's old contents are garbage.
    auto junk = Pattern(r.raid->layout().member_size(), 99);
    ASSERT_TRUE(r.disks[1]->store().Write(0, junk.size(), junk.data()).ok());
    const Nanos start = e.now();
    VirtualDriver(e).RunUntilIdle();
    EXPECT_GT(e.now(), start);
    EXPECT_FALSE(r.raid->degraded()) << "raid" << level;
    EXPECT_EQ(r.raid->sync().completed_recoveries(), 1u);
    EXPECT_EQ(testing::Inconsistencies(r), 0) << "raid" << level;
    // The rebuilt member carries real data: lose another and read.
    ASSERT_TRUE(r.raid->FailMember(level == 10 ? 0 : 2).ok());
    EXPECT_EQ(ReadAll(e, *r.raid), data) << "raid" << level;
  }
}

TEST(RaidRebuildTest, Raid6RebuildsTwoMembersInOnePass) {
  Engine e;
  auto r = MakeRaidRig(e, Spec(6, 6, "32KiB"));
  auto data = Fill(e, r, 2);
  for (int m : {0, 4}) ASSERT_TRUE(r.raid->FailMember(m).ok());
  for (int m : {0, 4}) ASSERT_TRUE(r.raid->ReplaceMember(m).ok());
  VirtualDriver(e).RunUntilIdle();
  EXPECT_FALSE(r.raid->degraded());
  EXPECT_EQ(r.raid->sync().completed_recoveries(), 2u);
  EXPECT_EQ(testing::Inconsistencies(r), 0);
  for (int m : {1, 2}) ASSERT_TRUE(r.raid->FailMember(m).ok());
  EXPECT_EQ(ReadAll(e, *r.raid), data);
}

TEST(RaidRebuildTest, RebuildIsThrottledLikeMd) {
  // md: speed = bytes done / (whole seconds since the mark + 1); above
  // speed_limit_max it sleeps 500 ms; it checks before issuing, so up to
  // its window (1 MiB: the stripe cache) is in flight past the limit.
  // 4 MiB at 1 MB/s: done(t) <= (floor(t) + 1) MB + 1 MiB reaches 4.19 MB
  // at floor(t) = 3, so the rebuild ends in [3 s, 3.5 s).
  Engine e;
  auto r = MakeRaidRig(e, WithKeys(Spec(5, 4, "64KiB"),
                                   "speed_limit_min = \"100KB/s\"\nspeed_limit_max = \"1MB/s\"\n"));
  Fill(e, r, 3);
  ASSERT_TRUE(r.raid->FailMember(3).ok());
  const Nanos start = e.now();
  ASSERT_TRUE(r.raid->ReplaceMember(3).ok());
  VirtualDriver(e).RunUntil(start + 2_s);
  EXPECT_TRUE(r.raid->degraded());
  EXPECT_GT(r.raid->sync_progress(), 0.3);
  EXPECT_LT(r.raid->sync_progress(), 0.8);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_FALSE(r.raid->degraded());
  EXPECT_GE(e.now() - start, 3_s);
  EXPECT_LT(e.now() - start, 3_s + 500_ms);
}

TEST(RaidRebuildTest, ReadsAndWritesDuringRebuild) {
  Engine e;
  auto r = MakeRaidRig(e, WithKeys(Spec(5, 4, "64KiB"),
                                   "speed_limit_min = \"100KB/s\"\nspeed_limit_max = \"1MB/s\"\n"));
  auto data = Fill(e, r, 4);
  ASSERT_TRUE(r.raid->FailMember(0).ok());
  ASSERT_TRUE(r.raid->ReplaceMember(0).ok());
  VirtualDriver(e).RunUntil(e.now() + 1500_ms);
  const uint64_t frontier = r.raid->member_frontier(0);
  ASSERT_GT(frontier, 0u);
  ASSERT_LT(frontier, r.raid->layout().member_size());
  // Regions above the frontier are reconstructed from the others.
  const uint64_t before = r.raid->array().counters().degraded_reads;
  EXPECT_EQ(ReadAll(e, *r.raid), data);
  EXPECT_GT(r.raid->array().counters().degraded_reads, before);
  // Writes on both sides of the frontier.
  ASSERT_NO_FATAL_FAILURE(testing::WriteRandomly(e, r, data, 6, 60, 4096, 40, 300));
  VirtualDriver(e).RunUntilIdle();
  EXPECT_FALSE(r.raid->degraded());
  EXPECT_EQ(testing::Inconsistencies(r), 0);
  ASSERT_TRUE(r.raid->FailMember(1).ok());
  EXPECT_EQ(ReadAll(e, *r.raid), data);
}

// Runs a rebuild to the end, with or without foreground random writes at
// QD4 while it runs; returns how long the rebuild took.
Nanos RebuildTime(bool foreground) {
  Engine e;
  auto r =
      MakeRaidRig(e, WithKeys(Spec(5, 4, "64KiB"), "",
                              "latency = \"100us\"\nbandwidth = \"100MB/s\"\nqueue_depth = 1\n"));
  Fill(e, r, 5);
  EXPECT_TRUE(r.raid->FailMember(2).ok());
  const Nanos start = e.now();
  EXPECT_TRUE(r.raid->ReplaceMember(2).ok());
  std::vector<std::vector<uint8_t>> bufs(4, Pattern(16384, 1));
  Random rng(7);
  std::function<void(int)> issue = [&](int slot) {
    if (!r.raid->degraded()) return;
    Request q{.op = Op::kWrite,
              .offset = rng.Uniform(r.raid->geometry().capacity / 16384) * 16384,
              .length = 16384,
              .data = bufs[slot].data(),
              .done = [&, slot](Status st) {
                EXPECT_TRUE(st.ok());
                issue(slot);
              }};
    r.raid->Submit(std::move(q));
  };
  if (foreground)
    for (int s = 0; s < 4; ++s) issue(s);
  Nanos end;
  VirtualDriver(e).RunWhile([&] {
    if (!r.raid->degraded() && end == Nanos()) end = e.now();
    return true;
  });
  EXPECT_EQ(testing::Inconsistencies(r), 0);
  return end - start;
}

TEST(RaidRebuildTest, RebuildCompetesWithForegroundIo) {
  const Nanos idle = RebuildTime(false);
  const Nanos busy = RebuildTime(true);
  EXPECT_GT(idle, 10_ms);
  EXPECT_GT(busy.count(), idle.count() * 3 / 2)
      << "idle " << idle.millis() << " ms, busy " << busy.millis() << " ms";
}

TEST(RaidRebuildTest, PowerCutDuringRebuildResumesFromTheCheckpoint) {
  Engine e;
  auto r = MakeRaidRig(e, WithKeys(Spec(6, 5, "64KiB", "8MiB"),
                                   "speed_limit_min = \"100KB/s\"\nspeed_limit_max = \"1MB/s\"\n"));
  auto data = Fill(e, r, 8);
  ASSERT_TRUE(r.raid->FailMember(2).ok());
  ASSERT_TRUE(r.raid->ReplaceMember(2).ok());
  VirtualDriver(e).RunUntil(e.now() + 2200_ms);
  const uint64_t frontier = r.raid->member_frontier(2);
  const uint64_t sixteenth = r.raid->layout().member_size() / 16;
  ASSERT_GT(frontier, sixteenth);
  r.s.stack->PowerCut();
  const uint64_t after = r.raid->member_frontier(2);
  EXPECT_LE(after, frontier);
  EXPECT_EQ(after % sixteenth, 0u);  // checkpoints every 1/16 (md)
  EXPECT_GT(after, 0u);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_FALSE(r.raid->degraded());
  EXPECT_EQ(testing::Inconsistencies(r), 0);
  ASSERT_TRUE(r.raid->FailMember(0).ok());
  ASSERT_TRUE(r.raid->FailMember(4).ok());
  EXPECT_EQ(ReadAll(e, *r.raid), data);
}

TEST(RaidRebuildTest, CheckAndRepair) {
  Engine e;
  auto r = MakeRaidRig(e, Spec(5, 4, "64KiB"));
  Fill(e, r, 9);
  ASSERT_TRUE(r.raid->StartCheck(false).ok());
  EXPECT_FALSE(r.raid->StartCheck(false).ok());  // busy
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(r.raid->sync().mismatch_sectors(), 0u);
  // Silent corruption of two pages of one member.
  auto junk = Pattern(8192, 5);
  ASSERT_TRUE(r.disks[2]->store().Write(65536 * 5, 8192, junk.data()).ok());
  ASSERT_TRUE(r.raid->StartCheck(false).ok());
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(r.raid->sync().mismatch_sectors(), 16u);  // md counts 8 sectors per page
  EXPECT_EQ(testing::Inconsistencies(r), 1);
  ASSERT_TRUE(r.raid->StartCheck(true).ok());
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(testing::Inconsistencies(r), 0);
  ASSERT_TRUE(r.raid->StartCheck(false).ok());
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(r.raid->sync().mismatch_sectors(), 0u);
  ASSERT_TRUE(r.raid->FailMember(0).ok());
  EXPECT_FALSE(r.raid->StartCheck(false).ok());  // degraded
}

TEST(RaidRebuildTest, WriteHoleAfterAPowerCut) {
  // Member 3 (stripe 0's parity) is slow: a power cut after the data chunk
  // is written but before the parity leaves the stripe inconsistent. The
  // oracle of the array is still fine (each block old or new) until a
  // member is lost: then a chunk nobody wrote reconstructs wrong.
  const std::string text = R"(
[node.md]
type = "raid"
level = 5
chunk = "64KiB"
children = ["d0", "d1", "d2", "d3"]
[node.d0]
type = "ram"
capacity = "1MiB"
latency = "10us"
[node.d1]
type = "ram"
capacity = "1MiB"
latency = "10us"
[node.d2]
type = "ram"
capacity = "1MiB"
latency = "10us"
[node.d3]
type = "ram"
capacity = "1MiB"
latency = "1ms"
)";
  for (bool repair : {false, true}) {
    Engine e;
    auto s = testing::MustLoadText(text, e);
    auto& md = dynamic_cast<RaidNode&>(s.stack->root());
    auto data = Pattern(md.geometry().capacity, 1);
    ASSERT_TRUE(testing::Write(e, md, 0, data).status.ok());
    auto w = Pattern(4096, 2);
    Request q{.op = Op::kWrite, .offset = 0, .length = 4096, .data = w.data(), .done = [](Status) {
                ADD_FAILURE() << "completed despite the power cut";
              }};
    md.Submit(std::move(q));
    VirtualDriver(e).RunUntil(e.now() + 500_us);  // data written, parity not
    s.stack->PowerCut();
    std::vector<uint8_t> head(4096);
    ASSERT_TRUE(testing::Read(e, md, 0, head).status.ok());
    EXPECT_EQ(head, w);  // the new data landed
    ASSERT_TRUE(md.StartCheck(repair).ok());
    VirtualDriver(e).RunUntilIdle();
    EXPECT_EQ(md.sync().mismatch_sectors(), 8u);
    ASSERT_TRUE(md.FailMember(1).ok());
    std::vector<uint8_t> chunk1(4096);
    ASSERT_TRUE(testing::Read(e, md, 65536, chunk1).status.ok());
    const std::vector<uint8_t> expect(data.begin() + 65536, data.begin() + 65536 + 4096);
    if (repair) {
      EXPECT_EQ(chunk1, expect) << "repair rewrote the parity";
    } else {
      EXPECT_NE(chunk1, expect) << "the write hole: data never written reads back wrong";
    }
  }
}

// md's recovery_start: the new member is trusted below it, so the rebuild
// covers only the rest of the member.
TEST(RaidRebuildTest, RecoveryStartsWhereRecoveryStartSays) {
  for (int level : {5, 6}) {
    Engine e;
    auto r = MakeRaidRig(e, WithKeys(Spec(level, 4, "64KiB"), "", "latency = \"50us\"\n"));
    const uint64_t member = r.raid->layout().member_size();
    const uint64_t half = member / 2;
    ASSERT_TRUE(r.raid->FailMember(1).ok());
    ASSERT_TRUE(r.raid->ReplaceMember(1, nullptr, half).ok());
    EXPECT_EQ(r.raid->member_frontier(1), half);
    VirtualDriver(e).RunUntilIdle();
    EXPECT_FALSE(r.raid->degraded());
    EXPECT_EQ(r.raid->sync().synced_bytes(), member - half) << "raid" << level;
    // At the member's end: nothing left to rebuild.
    ASSERT_TRUE(r.raid->FailMember(2).ok());
    ASSERT_TRUE(r.raid->ReplaceMember(2, nullptr, member).ok());
    VirtualDriver(e).RunUntilIdle();
    EXPECT_FALSE(r.raid->degraded());
    EXPECT_EQ(r.raid->sync().synced_bytes(), member - half);
    // Not a multiple of the chunk, or past the member: refused, nothing changed.
    ASSERT_TRUE(r.raid->FailMember(3).ok());
    EXPECT_FALSE(r.raid->ReplaceMember(3, nullptr, 4096).ok());
    EXPECT_FALSE(r.raid->ReplaceMember(3, nullptr, member + (64 << 10)).ok());
    EXPECT_EQ(r.raid->member_frontier(3), 0u);
    EXPECT_TRUE(r.raid->degraded());
  }
}

TEST(RaidRebuildTest, ControlErrors) {
  Engine e;
  auto r = MakeRaidRig(e, Spec(5, 4));
  EXPECT_FALSE(r.raid->FailMember(4).ok());
  EXPECT_FALSE(r.raid->FailMember(-1).ok());
  EXPECT_FALSE(r.raid->ReplaceMember(0).ok());  // not failed
  ASSERT_TRUE(r.raid->FailMember(0).ok());
  EXPECT_FALSE(r.raid->FailMember(0).ok());  // already failed
  ASSERT_TRUE(r.raid->FailMember(1).ok());
  EXPECT_TRUE(r.raid->failed());
  EXPECT_FALSE(r.raid->ReplaceMember(0).ok());  // nothing to rebuild from
}

}  // namespace raid_rebuild_test
}  // namespace storlab
