// ZfsTxgSync alone, over one RAM disk and a stand-in pool: the sync timer,
// what a commit hands back, the write throttle, a power cut.
#include "sim/layers/zfs/zfs_txg.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sim/devices/ram_disk.h"
#include "sim/layers/zfs/zfs.h"
#include "sim/store/store.h"
#include "sim/virtual_driver.h"

namespace storlab {
namespace zfs_txg_test {

using namespace time_literals;

constexpr uint64_t kRec = 128 * 1024;

struct FakePool : ZfsTxgSync::Pool {
  std::vector<Request> admitted;
  std::vector<uint64_t> committed;
  void Admitted(Request req) override { admitted.push_back(std::move(req)); }
  void TxgCommitted(uint64_t txg) override { committed.push_back(txg); }
};

struct Fixture {
  Fixture()
      : disk(e, "d", DiskConfig(), MakeStore(DataMode{}, "d", 64 << 20).value()),
        store(MakeStore(DataMode{}, "pool", 16 << 20).value()),
        config(Config()),
        cpu(4, 4e9, 12e9),
        compressor(ZfsCompression::kOff, ZfsCompressRates{}, 1.0),
        vdevs({{&disk}}, nullptr, config.vdevs),
        arc(8 * kRec, kRec),
        txg(e, config, false, pool, *store, cpu, compressor, vdevs, arc) {}
  static RamDisk::Config DiskConfig() {
    RamDisk::Config c;
    c.capacity = 64 << 20;
    return c;
  }
  static ZfsConfig Config() {
    ZfsConfig c;
    c.dirty_max_bytes = 10 * kRec;
    c.vdevs.layout = ZfsLayout::kStripe;
    return c;
  }
  static Request Write(uint64_t rec, uint64_t records = 1) {
    Request r;
    r.op = Op::kWrite;
    r.offset = rec * kRec;
    r.length = records * kRec;
    return r;
  }
  void RunFor(Nanos d) { VirtualDriver(e).RunUntil(e.now() + d); }
  Engine e;
  RamDisk disk;
  std::unique_ptr<Store> store;
  ZfsConfig config;
  HostCpu cpu;
  ZfsCompressor compressor;
  ZfsVdevs vdevs;
  ZfsArc arc;
  FakePool pool;
  ZfsTxgSync txg;
};

TEST(ZfsTxgTest, TheOpenTxgCommitsAfterTheTimeoutAndHandsItsRecordsOver) {
  Fixture f;
  EXPECT_EQ(f.txg.Dirty(Fixture::Write(3)), 1u);
  EXPECT_EQ(f.txg.dirty_bytes(), kRec);
  EXPECT_TRUE(f.txg.HoldsWhole(3));
  f.RunFor(4900_ms);
  EXPECT_TRUE(f.pool.committed.empty());  // under 20 % of the maximum: waits for the timer
  f.RunFor(1_s);
  ASSERT_EQ(f.pool.committed, std::vector<uint64_t>{1});
  EXPECT_EQ(f.txg.committed_txg(), 1u);
  EXPECT_EQ(f.txg.dirty_bytes(), 0u);
  EXPECT_NE(f.txg.Block(3), nullptr);
  EXPECT_EQ(f.txg.Block(4), nullptr);
  EXPECT_TRUE(f.arc.Contains(3));
  EXPECT_EQ(f.txg.counters().txgs, 1u);
  EXPECT_EQ(f.txg.counters().records_written, 1u);
  EXPECT_EQ(f.txg.Dirty(Fixture::Write(5)), 2u);
}

TEST(ZfsTxgTest, TheThrottleDelaysAboveTheMinimumAndHoldsWritersAtTheMaximum) {
  Fixture f;
  f.txg.Throttle(Fixture::Write(0));
  ASSERT_EQ(f.pool.admitted.size(), 1u);  // no dirty data: admitted at once
  EXPECT_EQ(f.txg.counters().throttled_writes, 0u);
  f.txg.Dirty(Fixture::Write(0, 7));  // 70 % of the maximum: a sync starts
  f.txg.Throttle(Fixture::Write(8));
  EXPECT_EQ(f.pool.admitted.size(), 1u);  // delayed (dmu_tx_delay)
  EXPECT_EQ(f.txg.counters().throttled_writes, 1u);
  EXPECT_GT(f.txg.counters().throttle_ns, 0u);
  f.txg.Dirty(Fixture::Write(8, 3));  // 100 %: at the maximum
  f.txg.Throttle(Fixture::Write(12));
  EXPECT_EQ(f.txg.counters().throttled_writes, 1u);  // waits, not delayed
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_EQ(f.pool.admitted.size(), 3u);  // both, once records landed
  EXPECT_FALSE(f.pool.committed.empty());
}

TEST(ZfsTxgTest, APowerCutLosesTheOpenTxgAndKeepsTheCommittedBlocks) {
  Fixture f;
  f.txg.Dirty(Fixture::Write(1));
  f.RunFor(6_s);
  ASSERT_EQ(f.txg.committed_txg(), 1u);
  f.txg.Dirty(Fixture::Write(2));
  f.txg.PowerCut();
  EXPECT_EQ(f.txg.dirty_bytes(), 0u);
  EXPECT_FALSE(f.txg.HoldsWhole(2));
  EXPECT_NE(f.txg.Block(1), nullptr);
  EXPECT_EQ(f.txg.Block(2), nullptr);
  f.txg.Replay(2 * kRec, 4096, nullptr);  // a log record: part of a hole
  EXPECT_EQ(f.txg.dirty_bytes(), kRec);
  EXPECT_TRUE(f.txg.HoldsWhole(2));  // nothing committed under it
  EXPECT_EQ(f.txg.Dirty(Fixture::Write(3)), 2u);
}

}  // namespace zfs_txg_test
}  // namespace storlab
