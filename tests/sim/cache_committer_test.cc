// CacheCommitter on its own: a CacheTable, two recording devices — what a
// commit flushes and writes, when it runs, which slots it makes reusable,
// what a failed commit keeps and what a power cut forgets.
#include "sim/layers/cache/cache_committer.h"

#include <gtest/gtest.h>

#include "sim/virtual_driver.h"
#include "tests/sim/cache_unit_util.h"

namespace storlab {
namespace cache_committer_test {

using namespace time_literals;
using testing::Recorder;

constexpr uint32_t kSpb = 8;  // 4 KiB blocks of 512-byte sectors

struct Fixture {
  explicit Fixture(uint32_t slots = 64)
      : cache(e, "ssd", 10_us),
        origin(e, "hdd", 1_ms),
        table(slots, kSpb, 512, /*defer_free=*/true),
        c(e, CacheCommitter::Config{1 << 20, 1_s}, table, cache, origin, [this] { ++ended; }) {}
  // Maps `block` with all of it valid and tells the committer.
  void Map(uint64_t block) {
    table.Insert(block, *table.TakeFreeSlot()).valid.SetAll();
    c.RecordChange(block);
  }
  Engine e;
  Recorder cache, origin;
  CacheTable table;
  int ended = 0;
  CacheCommitter c;
};

TEST(CacheCommitter, AChangeIsCommittedAfterThePeriod) {
  Fixture f;
  f.Map(5);
  VirtualDriver(f.e).RunUntil(999_ms);
  EXPECT_TRUE(f.cache.seen.empty());
  VirtualDriver(f.e).RunUntilIdle();
  // Nothing was written: no flush, only the metadata (a superblock and one
  // block of 16-byte entries) with FUA, at the start of the cache device.
  ASSERT_EQ(f.cache.seen.size(), 1u);
  EXPECT_EQ(f.cache.seen[0].op, Op::kWrite);
  EXPECT_TRUE(f.cache.seen[0].flags & kFua);
  EXPECT_EQ(f.cache.seen[0].offset, 0u);
  EXPECT_EQ(f.cache.seen[0].length, 8192u);
  EXPECT_TRUE(f.origin.seen.empty());
  EXPECT_EQ(f.e.now(), 1_s + 10_us);
  ASSERT_EQ(f.c.committed().count(5), 1u);
  EXPECT_EQ(f.c.committed().at(5).slot, f.table.Find(5)->slot);
  EXPECT_FALSE(f.c.has_changes());
  EXPECT_EQ(f.c.counters().commits, 1u);
  EXPECT_EQ(f.c.counters().commit_time, 10_us);
  EXPECT_EQ(f.ended, 1);
}

TEST(CacheCommitter, FlushesWhatWasWrittenFirstOrBothWhenForced) {
  Fixture f;
  f.Map(1);
  f.c.CacheWritten();
  f.c.Commit(false, nullptr);
  VirtualDriver(f.e).RunUntilIdle();
  ASSERT_EQ(f.cache.seen.size(), 2u);
  EXPECT_EQ(f.cache.seen[0].op, Op::kFlush);
  EXPECT_EQ(f.cache.seen[1].op, Op::kWrite);
  EXPECT_TRUE(f.origin.seen.empty());

  f.c.OriginWritten();  // the destager wrote to the origin
  f.Map(2);
  f.c.Commit(false, nullptr);
  VirtualDriver(f.e).RunUntilIdle();
  ASSERT_EQ(f.origin.seen.size(), 1u);
  EXPECT_EQ(f.origin.seen[0].op, Op::kFlush);
  EXPECT_EQ(f.cache.seen.size(), 3u);  // the metadata only

  // A FLUSH from above: both devices, though nothing changed or was
  // written, and no metadata write.
  Status st = Status::Internal("not done");
  f.c.Commit(true, [&](Status s) { st = std::move(s); });
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(st.ok());
  EXPECT_EQ(f.cache.seen.size(), 4u);
  EXPECT_EQ(f.cache.seen.back().op, Op::kFlush);
  EXPECT_EQ(f.origin.seen.size(), 2u);
  EXPECT_EQ(f.c.counters().commits, 3u);
}

TEST(CacheCommitter, RequestsDuringACommitShareTheNextOne) {
  Fixture f;
  f.Map(1);
  int done = 0;
  f.c.Commit(false, [&](Status) { ++done; });
  EXPECT_TRUE(f.c.running());
  f.Map(2);
  f.c.Commit(false, [&](Status) { ++done; });
  f.c.Commit(false, [&](Status) { ++done; });
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_EQ(done, 3);
  EXPECT_EQ(f.c.counters().commits, 2u);
  EXPECT_EQ(f.c.committed().size(), 2u);
}

TEST(CacheCommitter, AFreedSlotIsReusableOnlyAfterTheCommit) {
  Fixture f(1);
  f.Map(7);
  f.table.Erase(*f.table.Find(7));
  f.c.RecordChange(7);
  EXPECT_FALSE(f.table.TakeFreeSlot());  // the committed mapping may name it
  f.c.Commit(false, nullptr);
  EXPECT_FALSE(f.table.TakeFreeSlot());  // not before the commit is durable
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(f.table.TakeFreeSlot());
  EXPECT_EQ(f.c.committed().count(7), 0u);
}

TEST(CacheCommitter, AFailedCommitKeepsTheChangesForTheNext) {
  Fixture f(1);
  f.Map(3);
  f.cache.fail_writes = true;
  Status st;
  f.c.Commit(false, [&](Status s) { st = std::move(s); });
  VirtualDriver(f.e).RunUntil(10_ms);
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(f.c.committed().empty());
  EXPECT_TRUE(f.c.has_changes());
  EXPECT_EQ(f.c.counters().commits, 0u);
  EXPECT_EQ(f.ended, 1);
  f.cache.fail_writes = false;
  VirtualDriver(f.e).RunUntilIdle();  // the period timer retries
  EXPECT_EQ(f.c.committed().count(3), 1u);
  EXPECT_EQ(f.c.counters().commits, 1u);
}

TEST(CacheCommitter, PowerCutKeepsTheCommittedMappingOnly) {
  Fixture f;
  f.Map(1);
  f.c.Commit(false, nullptr);
  VirtualDriver(f.e).RunUntilIdle();
  f.Map(2);  // not committed
  bool called = false;
  f.c.Commit(false, [&](Status) { called = true; });
  f.e.Clear();
  f.cache.PowerCut();
  f.origin.PowerCut();
  f.c.PowerCut();
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_FALSE(called);
  EXPECT_FALSE(f.c.running());
  EXPECT_FALSE(f.c.has_changes());
  EXPECT_EQ(f.c.committed().size(), 1u);
  EXPECT_EQ(f.c.committed().count(1), 1u);
}

}  // namespace cache_committer_test
}  // namespace storlab
