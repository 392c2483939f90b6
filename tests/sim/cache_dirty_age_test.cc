// DirtyAgeIndex: its Scan (the expired prefix kept between calls) gives the
// answer of a scan from the start, under random inserts, erases and times,
// with rising write times and with an insertion that breaks them; the
// blocks' positions (their homes) follow the log through compactions and
// sorts.
#include "sim/layers/cache/cache_dirty_age.h"

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <set>
#include <vector>

#include "sim/random.h"

namespace storlab {
namespace cache_dirty_age_test {

using namespace time_literals;

// The scan the destager used to run: from the start, counting expired
// blocks until the first that has not expired, stopping past `limit`.
DirtyAgeIndex::Expiry Reference(const DirtyAgeIndex& x, Nanos now, Nanos expire, uint64_t limit) {
  DirtyAgeIndex::Expiry r;
  for (const auto& [key, since] : x.entries()) {
    if (since + expire > now) {
      r.next = since;
      return r;
    }
    if (++r.expired > limit) return r;
  }
  return r;
}

// The index with its blocks' homes kept as a cache keeps them in its
// entries: one per block, at a stable address (a std::map node). Checks
// that each home names its block's slot.
struct Indexed {
  DirtyAgeIndex x;
  std::map<uint64_t, size_t> homes;
  size_t& Home(uint64_t b) { return homes.try_emplace(b, DirtyAgeIndex::kNotIn).first->second; }
  void Insert(uint64_t s, uint64_t b, Nanos t) { x.Insert(s, b, t, Home(b)); }
  void Erase(uint64_t s, uint64_t b) { x.Erase(s, b, Home(b)); }
  // As many homes are set as the index holds.
  void ExpectHomes() {
    size_t in = 0;
    for (const auto& [b, h] : homes) in += h != DirtyAgeIndex::kNotIn;
    EXPECT_EQ(in, x.size());
  }
};

void ExpectSame(DirtyAgeIndex& x, Nanos now, Nanos expire, uint64_t limit) {
  const DirtyAgeIndex::Expiry want = Reference(x, now, expire, limit);
  const DirtyAgeIndex::Expiry got = x.Scan(now, expire, limit);
  ASSERT_EQ(got.expired, want.expired) << "at " << now.count();
  ASSERT_EQ(got.next.has_value(), want.next.has_value()) << "at " << now.count();
  if (want.next) {
    ASSERT_EQ(*got.next, *want.next);
  }
}

TEST(DirtyAgeIndex, ScanMatchesAScanFromTheStartUnderRandomTraffic) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    Random rng(seed);
    Indexed ix;
    DirtyAgeIndex& x = ix.x;
    uint64_t seq = 0;
    Nanos now;
    std::vector<std::pair<uint64_t, uint64_t>> live;  // (seq, block)
    std::set<uint64_t> dirty;                         // a block is in once
    for (int step = 0; step < 5000; ++step) {
      now = now + Nanos(static_cast<int64_t>(rng.Uniform(2000)));
      const uint64_t op = rng.Uniform(10);
      if (op < 5) {
        // One write's blocks share its sequence number.
        const uint64_t s = ++seq;
        for (uint64_t n = 1 + rng.Uniform(3); n > 0; --n) {
          const uint64_t b = rng.Uniform(1u << 20);
          if (!dirty.insert(b).second) continue;
          ix.Insert(s, b, now);
          live.emplace_back(s, b);
        }
      } else if (op < 8 && !live.empty()) {
        const size_t i = rng.Uniform(live.size());
        ix.Erase(live[i].first, live[i].second);
        dirty.erase(live[i].second);
        live[i] = live.back();
        live.pop_back();
      }
      ExpectSame(x, now, 50_us, 64);
      ExpectSame(x, now, 50_us, 1u << 30);
    }
  }
}

TEST(DirtyAgeIndex, AnInsertThatBreaksTheRisingOrderStillGivesTheExactAnswer) {
  Indexed ix;
  DirtyAgeIndex& x = ix.x;
  ix.Insert(1, 10, Nanos(100));
  ix.Insert(2, 11, Nanos(200));
  ExpectSame(x, Nanos(150), Nanos(10), 100);
  // A restored block: an old sequence number with a later time.
  ix.Insert(0, 12, Nanos(500));
  ExpectSame(x, Nanos(300), Nanos(10), 100);
  ExpectSame(x, Nanos(600), Nanos(10), 100);
  ix.Erase(0, 12);
  ix.Erase(1, 10);
  ix.Erase(2, 11);
  EXPECT_TRUE(x.empty());
  ix.ExpectHomes();
  // Empty again: rising once more.
  ix.Insert(3, 1, Nanos(700));
  ix.Insert(4, 2, Nanos(800));
  ExpectSame(x, Nanos(805), Nanos(100), 100);
  ExpectSame(x, Nanos(805), Nanos(100), 0);
}

TEST(DirtyAgeIndex, TimeGoingBackOrAnotherExpireStartsTheCountOver) {
  Indexed ix;
  DirtyAgeIndex& x = ix.x;
  for (uint64_t i = 1; i <= 10; ++i) ix.Insert(i, i, Nanos(static_cast<int64_t>(i * 100)));
  ExpectSame(x, Nanos(1000), Nanos(50), 100);
  ExpectSame(x, Nanos(1000), Nanos(500), 100);
  ExpectSame(x, Nanos(400), Nanos(50), 100);
  ExpectSame(x, Nanos(400), Nanos(50), 2);
}

// The log against the tree it replaced: the same entries in the same order
// through appends, erasures that leave holes and compactions, and keys
// inserted out of order (a restored state), which the log sorts.
TEST(DirtyAgeIndex, KeepsTheEntriesInKeyOrderThroughHolesCompactionsAndOutOfOrderKeys) {
  Random rng(7);
  Indexed ix;
  DirtyAgeIndex& x = ix.x;
  std::map<DirtyAgeIndex::Key, Nanos> want;
  std::map<uint64_t, uint64_t> seq_of;  // block -> its sequence while in
  uint64_t seq = 100000;
  auto same = [&] {
    auto it = want.begin();
    size_t n = 0;
    for (const auto& [k, since] : x.entries()) {
      ASSERT_NE(it, want.end());
      ASSERT_EQ(k, it->first);
      ASSERT_EQ(since, it->second);
      ++it;
      ++n;
    }
    ASSERT_EQ(it, want.end());
    ASSERT_EQ(n, x.size());
    ASSERT_EQ(x.empty(), want.empty());
  };
  for (int round = 0; round < 6; ++round) {
    // Appends (most) and out-of-order keys (round 3: a restore).
    for (int i = 0; i < 4000; ++i) {
      const uint64_t b = rng.Uniform(1u << 16);
      if (seq_of.count(b)) continue;
      const uint64_t s = round == 3 ? rng.Uniform(seq) : ++seq;
      ix.Insert(s, b, Nanos(static_cast<int64_t>(s)));
      want[{s, b}] = Nanos(static_cast<int64_t>(s));
      seq_of[b] = s;
    }
    same();
    ix.ExpectHomes();
    // Erase most of them, oldest and random: holes, then a compaction.
    for (int i = 0; i < 3500 && !seq_of.empty(); ++i) {
      auto it = seq_of.begin();
      std::advance(it, static_cast<long>(rng.Uniform(seq_of.size())));
      ix.Erase(it->second + 1, it->first);  // not its key: changes nothing
      ASSERT_NE(ix.Home(it->first), DirtyAgeIndex::kNotIn);
      ix.Erase(it->second, it->first);
      ASSERT_EQ(ix.Home(it->first), DirtyAgeIndex::kNotIn);
      want.erase({it->second, it->first});
      seq_of.erase(it);
      if (i % 500 == 0) same();
    }
    same();
    ix.ExpectHomes();
  }
  for (const auto& [b, s] : seq_of) ix.Erase(s, b);
  want.clear();
  EXPECT_TRUE(x.empty());
  same();
}

}  // namespace cache_dirty_age_test
}  // namespace storlab
