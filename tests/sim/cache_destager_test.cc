// CacheDestager on its own: a CacheTable with dirty blocks, two recording
// devices and a fake owner — when it destages, in which order, how it
// merges, what it tells its owner, and a RAM cache's FLUSH.
#include "sim/layers/cache/cache_destager.h"

#include <gtest/gtest.h>

#include "sim/virtual_driver.h"
#include "tests/sim/cache_unit_util.h"

namespace storlab {
namespace cache_destager_test {

using namespace time_literals;

constexpr uint64_t kBlock = 4096;
constexpr uint32_t kSector = 512;
constexpr uint32_t kSpb = kBlock / kSector;

using testing::Recorder;

class FakeOwner : public CacheDestager::Owner {
 public:
  bool WritersWaiting() const override { return writers_waiting; }
  void Cleaned(CacheEntry& e) override { cleaned.push_back(e.block); }
  void Written(const std::vector<CachePiece>& writes) override {
    for (const CachePiece& p : writes) written.emplace_back(p.dev_off, p.len);
  }
  void Unlocked(const std::vector<uint64_t>& blocks) override { ++unlocked; }
  void RoomMade() override { ++room; }
  bool writers_waiting = false;
  std::vector<uint64_t> cleaned;
  std::vector<std::pair<uint64_t, uint64_t>> written;
  int unlocked = 0, room = 0;
};

struct Fixture {
  explicit Fixture(CacheDestager::Config cfg)
      : cache(e, "ssd", 10_us),
        origin(e, "hdd", 1_ms),
        table(64, kSpb, kSector, false),
        d(e, "cache", cfg, table, cache, origin, owner) {}
  // Maps `block` to the next free slot with sectors [first, first+n) dirty.
  void Dirty(uint64_t block, uint32_t first = 0, uint32_t n = kSpb) {
    CacheEntry* e = table.Find(block);
    if (!e) e = &table.Insert(block, *table.TakeFreeSlot());
    table.MarkDirty(*e, first, n, ++seq, this->e.now());
  }
  Engine e;
  Recorder cache, origin;
  CacheTable table;
  FakeOwner owner;
  CacheDestager d;
  uint64_t seq = 0;
};

CacheDestager::Config Cfg() {
  CacheDestager::Config c;
  c.depth = 2;
  c.max_io = 4 * kBlock;
  c.background = 2 * kBlock;
  c.expire = Nanos(0);
  c.block_size = kBlock;
  c.sector = kSector;
  c.keeps_data = false;
  return c;
}

TEST(CacheDestager, NothingBelowTheBackgroundThreshold) {
  Fixture f(Cfg());
  f.Dirty(3);
  f.Dirty(9);
  f.d.Kick();
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(f.origin.seen.empty());
  EXPECT_EQ(f.d.counters().destage_ops, 0u);
  EXPECT_EQ(f.table.dirty_bytes(), 2 * kBlock);
}

TEST(CacheDestager, AboveTheThresholdDestagesDownToItMergingContiguousBlocks) {
  Fixture f(Cfg());
  for (uint64_t b : {10, 11, 12, 20, 21}) f.Dirty(b);
  f.d.Kick();
  EXPECT_EQ(f.d.in_flight(), 1u);  // 5 blocks dirty, 3 over: one operation of 3
  EXPECT_TRUE(f.table.Find(10)->locked && f.table.Find(12)->locked);
  VirtualDriver(f.e).RunUntilIdle();
  // Read from the slots on the cache device, then one write to the origin.
  ASSERT_EQ(f.origin.seen.size(), 1u);
  EXPECT_EQ(f.origin.seen[0].op, Op::kWrite);
  EXPECT_EQ(f.origin.seen[0].offset, 10 * kBlock);
  EXPECT_EQ(f.origin.seen[0].length, 3 * kBlock);
  EXPECT_EQ(f.owner.cleaned, (std::vector<uint64_t>{10, 11, 12}));
  EXPECT_EQ(f.owner.written.size(), 1u);
  EXPECT_EQ(f.owner.unlocked, 1);
  EXPECT_EQ(f.owner.room, 1);
  EXPECT_EQ(f.d.counters().destaged_bytes, 3 * kBlock);
  EXPECT_EQ(f.table.dirty_bytes(), 2 * kBlock);  // at the threshold: stops
  EXPECT_FALSE(f.table.Find(10)->locked);
}

TEST(CacheDestager, WaitingWritersMakeItUrgentUpToTheDepth) {
  CacheDestager::Config c = Cfg();
  c.background = 8 * kBlock;
  Fixture f(c);
  for (uint64_t b : {1, 5, 9}) f.Dirty(b);  // below the threshold, not contiguous
  f.owner.writers_waiting = true;
  f.d.Kick();
  EXPECT_EQ(f.d.in_flight(), 2u);  // depth 2
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_EQ(f.table.dirty_bytes(), 0u);
  EXPECT_EQ(f.d.counters().destage_ops, 3u);
  // Elevator order: ascending origin offsets.
  EXPECT_EQ(f.owner.cleaned, (std::vector<uint64_t>{1, 5, 9}));
}

TEST(CacheDestager, OnlyTheDirtyRunsOfABlockAreWrittenAndMaxIoCapsAMerge) {
  Fixture f(Cfg());
  f.Dirty(0, 1, 2);  // sectors 1-2 of block 0
  for (uint64_t b = 4; b < 10; ++b) f.Dirty(b);
  f.owner.writers_waiting = true;
  f.d.Kick();
  VirtualDriver(f.e).RunUntilIdle();
  ASSERT_EQ(f.owner.written.size(), 3u);
  EXPECT_EQ(f.owner.written[0], std::make_pair(uint64_t{kSector}, uint64_t{2 * kSector}));
  EXPECT_EQ(f.owner.written[1], std::make_pair(4 * kBlock, 4 * kBlock));  // max_io
  EXPECT_EQ(f.owner.written[2], std::make_pair(8 * kBlock, 2 * kBlock));
}

TEST(CacheDestager, ExpiredBlocksAreDestagedByTheTimer) {
  CacheDestager::Config c = Cfg();
  c.expire = 30_ms;
  Fixture f(c);
  f.Dirty(7);
  f.d.Kick();  // below the threshold: arms the timer only
  EXPECT_EQ(f.d.in_flight(), 0u);
  VirtualDriver(f.e).RunUntil(29_ms);
  EXPECT_TRUE(f.origin.seen.empty());
  VirtualDriver(f.e).RunUntilIdle();
  ASSERT_EQ(f.origin.seen.size(), 1u);
  EXPECT_EQ(f.table.dirty_bytes(), 0u);
  EXPECT_EQ(f.e.now(), 30_ms + 10_us + 1_ms);  // expiry, read the slot, write the origin
}

TEST(CacheDestager, FlushWaitsForTheBlocksItCoversThenFlushesTheOrigin) {
  Fixture f(Cfg());
  f.Dirty(2);
  Status st = Status::Internal("not done");
  Nanos done_at;
  f.d.Flush(f.seq, [&](Status s) {
    st = std::move(s);
    done_at = f.e.now();
  });
  EXPECT_EQ(f.d.in_flight(), 1u);  // urgent while a FLUSH waits
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(st.ok());
  ASSERT_EQ(f.origin.seen.size(), 2u);
  EXPECT_EQ(f.origin.seen[0].op, Op::kWrite);
  EXPECT_EQ(f.origin.seen[1].op, Op::kFlush);
  EXPECT_EQ(done_at, 10_us + 1_ms + 1_ms);  // read, write back, flush the origin
  EXPECT_EQ(f.table.dirty_bytes(), 0u);
}

TEST(CacheDestager, FlushDoesNotWaitForLaterWrites) {
  Fixture f(Cfg());
  Status st = Status::Internal("not done");
  f.d.Flush(f.seq, [&](Status s) { st = std::move(s); });  // nothing dirty
  f.Dirty(40);                                             // written after the FLUSH
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(st.ok());
  ASSERT_EQ(f.origin.seen.size(), 1u);
  EXPECT_EQ(f.origin.seen[0].op, Op::kFlush);
  EXPECT_EQ(f.table.dirty_bytes(), kBlock);
}

TEST(CacheDestager, AFailedDestageKeepsTheBlockDirtyAndFailsTheFlush) {
  Fixture f(Cfg());
  f.origin.fail_writes = true;
  f.Dirty(2);
  Status st;
  f.d.Flush(f.seq, [&](Status s) { st = std::move(s); });
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("cache: flush"), std::string::npos) << st.ToString();
  EXPECT_EQ(f.d.counters().destage_errors, 1u);
  EXPECT_TRUE(f.owner.cleaned.empty());
  EXPECT_TRUE(f.table.Find(2)->destage_failed);
  EXPECT_EQ(f.table.dirty_bytes(), kBlock);
}

TEST(CacheDestager, PowerCutForgetsWaitingFlushesAndOperations) {
  Fixture f(Cfg());
  f.Dirty(2);
  bool called = false;
  f.d.Flush(f.seq, [&](Status) { called = true; });
  EXPECT_EQ(f.d.in_flight(), 1u);
  f.e.Clear();
  f.cache.PowerCut();
  f.origin.PowerCut();
  f.d.PowerCut();
  EXPECT_EQ(f.d.in_flight(), 0u);
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_FALSE(called);
}

}  // namespace cache_destager_test
}  // namespace storlab
