// GroupSet against std::set<uint64_t>: the same members, in the same order,
// under random inserts and erases over ranges that grow both ways.
#include "sim/layers/page_cache/page_group_set.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace storlab {
namespace page_group_set_test {

std::vector<uint64_t> Members(const GroupSet& s) {
  std::vector<uint64_t> v;
  for (uint64_t g : s) v.push_back(g);
  return v;
}

TEST(GroupSet, EmptyHasNoMembers) {
  GroupSet s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.count(5), 0u);
  EXPECT_EQ(s.NextFrom(0), GroupSet::kEnd);
  EXPECT_TRUE(s.begin() == s.end());
}

TEST(GroupSet, GrowsDownwardsAndUpwards) {
  GroupSet s;
  s.insert(100'000);
  s.insert(7);          // below the first span: prepended
  s.insert(9'000'000);  // far above: appended
  s.insert(100'000);    // again: no change
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(Members(s), (std::vector<uint64_t>{7, 100'000, 9'000'000}));
  EXPECT_EQ(*s.lower_bound(8), 100'000u);
  EXPECT_EQ(*s.lower_bound(100'001), 9'000'000u);
  EXPECT_TRUE(s.lower_bound(9'000'001) == s.end());
  s.erase(100'000);
  s.erase(100'000);  // not a member: no change
  EXPECT_EQ(Members(s), (std::vector<uint64_t>{7, 9'000'000}));
  s.erase(7);
  s.erase(9'000'000);
  EXPECT_TRUE(s.empty());
  EXPECT_TRUE(s.begin() == s.end());
}

TEST(GroupSet, AFileWrittenBackwardsStaysCheap) {
  // 2^22 groups (a 512 GiB file) inserted from the top down: each lands
  // in the chunk of the one before or starts one below it.
  GroupSet s;
  constexpr uint64_t kTop = uint64_t{1} << 22;
  for (uint64_t g = kTop; g-- > 0;) s.insert(g);
  EXPECT_EQ(s.size(), kTop);
  EXPECT_EQ(*s.begin(), 0u);
  EXPECT_EQ(*s.lower_bound(kTop - 1), kTop - 1);
  EXPECT_TRUE(s.lower_bound(kTop) == s.end());
}

TEST(GroupSet, MemoryFollowsTheMembersNotTheirRange) {
  // A cache of 4 KiB blocks over an 18 TB array, dirty at both ends and in
  // the middle: three chunks, not a bitmap of 4.4 G bits (the stack
  // fuzzer's timeout: 550 MB zeroed in one insert).
  GroupSet s;
  constexpr uint64_t kLast = 18'000'000'000'000 / 4096 - 1;
  s.insert(0);
  s.insert(kLast);
  s.insert(kLast / 2);
  s.insert(kLast / 2 + 1);
  EXPECT_EQ(s.chunks(), 3u);
  EXPECT_EQ(Members(s), (std::vector<uint64_t>{0, kLast / 2, kLast / 2 + 1, kLast}));
  EXPECT_EQ(*s.lower_bound(1), kLast / 2);
  EXPECT_EQ(*s.lower_bound(kLast / 2 + 2), kLast);
  EXPECT_EQ(s.count(kLast), 1u);
  EXPECT_EQ(s.count(kLast - 1), 0u);
  // A chunk goes with its last member.
  s.erase(kLast / 2);
  EXPECT_EQ(s.chunks(), 3u);
  s.erase(kLast / 2 + 1);
  EXPECT_EQ(s.chunks(), 2u);
  s.erase(0);
  s.erase(kLast);
  EXPECT_EQ(s.chunks(), 0u);
  EXPECT_TRUE(s.empty());
  // The largest group and its neighbours.
  s.insert(GroupSet::kEnd - 1);
  EXPECT_EQ(*s.begin(), GroupSet::kEnd - 1);
  EXPECT_TRUE(s.lower_bound(GroupSet::kEnd) == s.end());
  // Moved: the set goes with it, the source is empty and usable.
  GroupSet t = std::move(s);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_TRUE(s.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  s.insert(5);
  EXPECT_EQ(*s.begin(), 5u);
  EXPECT_EQ(*t.begin(), GroupSet::kEnd - 1);
}

TEST(GroupSet, MatchesStdSetUnderRandomOperations) {
  std::mt19937_64 rng(42);
  GroupSet s;
  std::set<uint64_t> ref;
  for (int i = 0; i < 200'000; ++i) {
    // Clustered keys (a file's groups) with a few far away.
    const uint64_t base = (rng() % 16 == 0) ? 1'000'000 : 50'000;
    const uint64_t g = base + rng() % 20'000 - (rng() % 8 == 0 ? 40'000 : 0);
    if (rng() % 3 == 0) {
      s.erase(g);
      ref.erase(g);
    } else {
      s.insert(g);
      ref.insert(g);
    }
    if (i % 1000 == 0) {
      const uint64_t q = rng() % 1'100'000;
      auto it = ref.lower_bound(q);
      EXPECT_EQ(*s.lower_bound(q), it == ref.end() ? GroupSet::kEnd : *it) << q;
      EXPECT_EQ(s.count(q), ref.count(q));
    }
  }
  EXPECT_EQ(s.size(), ref.size());
  EXPECT_EQ(Members(s), std::vector<uint64_t>(ref.begin(), ref.end()));
}

}  // namespace page_group_set_test
}  // namespace storlab
