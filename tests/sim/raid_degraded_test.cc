// The raid layer with failed members: degraded reads reconstruct, degraded
// writes read back, RAID6 survives any two failures and RAID10 one per
// mirror pair, and too many failures fail every request.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tests/sim/raid_test_util.h"

namespace storlab {
namespace raid_degraded_test {

using testing::Fill;
using testing::MakeRaidRig;
using testing::Pattern;
using testing::ReadAll;
using testing::Spec;

TEST(RaidIoTest, DegradedReadReconstructs) {
  Engine e;
  auto r = MakeRaidRig(e, Spec(5, 4));
  auto data = Fill(e, r, 9);
  ASSERT_TRUE(r.raid->FailMember(1).ok());
  EXPECT_TRUE(r.raid->degraded());
  EXPECT_FALSE(r.raid->failed());
  testing::ResetMemberStats(r);
  EXPECT_EQ(ReadAll(e, *r.raid), data);
  EXPECT_GT(r.raid->array().counters().degraded_reads, 0u);
  EXPECT_EQ(r.disks[1]->stats().op(Op::kRead).ops, 0u);
}

TEST(RaidIoTest, Raid6SurvivesAnyTwoFailedMembers) {
  constexpr int kMembers = 6;
  for (int x = 0; x < kMembers; ++x) {
    for (int y = x + 1; y < kMembers; ++y) {
      Engine e;
      auto r = MakeRaidRig(e, Spec(6, kMembers, "16KiB", "1MiB"));
      auto data = Fill(e, r, 10 * x + y);
      ASSERT_TRUE(r.raid->FailMember(x).ok());
      ASSERT_TRUE(r.raid->FailMember(y).ok());
      ASSERT_FALSE(r.raid->failed());
      ASSERT_EQ(ReadAll(e, *r.raid), data) << "members " << x << " and " << y << " failed";
      // Writes while doubly degraded, partial and whole, read back right.
      auto w = Pattern(100 * 1024, 7);
      std::copy(w.begin(), w.end(), data.begin() + 5120);
      ASSERT_TRUE(testing::Write(e, *r.raid, 5120, w).status.ok());
      ASSERT_EQ(ReadAll(e, *r.raid), data) << "after a degraded write, members " << x << ", " << y;
    }
  }
}

TEST(RaidIoTest, DegradedWritesThenReadBack) {
  for (int level : {1, 5, 10}) {
    Engine e;
    auto r = MakeRaidRig(e, Spec(level, 4, "16KiB"));
    auto data = Fill(e, r, 11);
    ASSERT_TRUE(r.raid->FailMember(2).ok());
    ASSERT_NO_FATAL_FAILURE(testing::WriteRandomly(e, r, data, 5, 100, 512, 100, 200));
    EXPECT_EQ(ReadAll(e, *r.raid), data) << "raid" << level;
  }
}

TEST(RaidIoTest, TooManyFailuresFailEveryRequest) {
  struct Case {
    int level, members;
    std::vector<int> fail;
  };
  for (const Case& c : {Case{0, 2, {1}}, Case{1, 2, {0, 1}}, Case{5, 4, {0, 3}},
                        Case{6, 5, {0, 1, 2}}, Case{10, 4, {2, 3}}}) {
    Engine e;
    auto r = MakeRaidRig(e, Spec(c.level, c.members));
    for (size_t i = 0; i < c.fail.size(); ++i) {
      EXPECT_FALSE(r.raid->failed()) << "raid" << c.level;
      ASSERT_TRUE(r.raid->FailMember(c.fail[i]).ok());
    }
    EXPECT_TRUE(r.raid->failed()) << "raid" << c.level;
    std::vector<uint8_t> buf(4096);
    EXPECT_EQ(testing::Read(e, *r.raid, 0, buf).status.code(), Status::Code::kIoError);
    EXPECT_EQ(testing::Write(e, *r.raid, 0, buf).status.code(), Status::Code::kIoError);
    EXPECT_EQ(testing::Flush(e, *r.raid).status.code(), Status::Code::kIoError);
  }
}

TEST(RaidIoTest, Raid10SurvivesOneFailurePerMirrorPair) {
  Engine e;
  auto r = MakeRaidRig(e, Spec(10, 4));
  auto data = Fill(e, r, 12);
  ASSERT_TRUE(r.raid->FailMember(0).ok());
  ASSERT_TRUE(r.raid->FailMember(3).ok());
  EXPECT_FALSE(r.raid->failed());
  EXPECT_EQ(ReadAll(e, *r.raid), data);
}

}  // namespace raid_degraded_test
}  // namespace storlab
