// ZfsZil alone, over one RAM disk and a stand-in pool: what a commit logs,
// how concurrent commits batch, large writes in place, replay after a
// power cut, records dropped when their txg commits.
#include "sim/layers/zfs/zfs_zil.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sim/devices/ram_disk.h"
#include "sim/store/store.h"
#include "sim/virtual_driver.h"

namespace storlab {
namespace zfs_zil_test {

constexpr uint64_t kRec = 128 * 1024;

struct FakePool : ZfsZil::Pool {
  uint64_t committed = 0;
  uint64_t committed_txg() const override { return committed; }
  void CopyCurrent(uint64_t offset, uint64_t length, uint8_t* out) const override {
    for (uint64_t i = 0; i < length; ++i) out[i] = static_cast<uint8_t>(offset + i);
  }
};

struct Fixture {
  Fixture()
      : disk(e, "d", DiskConfig(), MakeStore(DataMode{}, "d", 64 << 20).value()),
        vdevs({{&disk}}, nullptr, VdevConfig()),
        compressor(ZfsCompression::kOff, ZfsCompressRates{}, 1.0),
        zil(e, ZilConfig(), pool, vdevs, compressor) {}
  static RamDisk::Config DiskConfig() {
    RamDisk::Config c;
    c.capacity = 64 << 20;
    return c;
  }
  static ZfsVdevs::Config VdevConfig() {
    ZfsVdevs::Config c;
    c.layout = ZfsLayout::kStripe;
    return c;
  }
  static ZfsZil::Config ZilConfig() {
    ZfsZil::Config c;
    c.keeps_data = true;
    return c;
  }
  // Commits `file`; returns how many of the commit's callbacks ran ok.
  void Commit(uint32_t file, bool fsync, int* ok) {
    zil.Commit(file, fsync, [ok](Status st) { *ok += st.ok() ? 1 : 0; });
  }
  std::vector<ZfsZil::LogEntry> Replayed(uint64_t txg) {
    std::vector<ZfsZil::LogEntry> v;
    zil.Replay(txg, [&](const ZfsZil::LogEntry& en) { v.push_back(en); });
    return v;
  }
  Engine e;
  RamDisk disk;
  FakePool pool;
  ZfsVdevs vdevs;
  ZfsCompressor compressor;
  ZfsZil zil;
};

TEST(ZfsZilTest, ACommitLogsOnlyItsFilesRecordsOfUncommittedTxgs) {
  Fixture f;
  f.zil.Assign(1, 1, 0, 4096);
  f.zil.Assign(2, 1, 8192, 4096);
  f.zil.Assign(1, 2, 16384, 512);
  f.pool.committed = 1;  // txg 1 is on disk: only the txg 2 record needs logging
  int ok = 0;
  f.Commit(1, true, &ok);
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_EQ(ok, 1);
  EXPECT_EQ(f.zil.counters().commits, 1u);
  EXPECT_EQ(f.zil.counters().bytes, 192u + 512u);  // lr_write_t + the data (WR_COPIED)
  EXPECT_EQ(f.zil.counters().fsyncs, 1u);
  EXPECT_GT(f.disk.stats().op(Op::kWrite).ops, 0u);
  const std::vector<ZfsZil::LogEntry> log = f.Replayed(3);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].offset, 16384u);
  EXPECT_EQ(log[0].txg, 3u);
  ASSERT_EQ(log[0].data.size(), 512u);
  EXPECT_EQ(log[0].data[1], static_cast<uint8_t>(16385));  // the pool's content, copied
}

TEST(ZfsZilTest, CommittersWaitingForOneCommitShareTheNext) {
  Fixture f;
  f.zil.Assign(1, 1, 0, 4096);
  int ok = 0;
  f.Commit(1, false, &ok);  // in flight
  f.zil.Assign(2, 1, 4096, 4096);
  f.zil.Assign(3, 1, 8192, 4096);
  f.Commit(2, false, &ok);
  f.Commit(3, false, &ok);
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_EQ(ok, 3);
  EXPECT_EQ(f.zil.counters().commits, 2u);
  EXPECT_EQ(f.zil.counters().fsyncs, 0u);
  // Nothing left to log: the commit completes without I/O.
  const uint64_t writes = f.disk.stats().op(Op::kWrite).ops;
  f.Commit(0, false, &ok);
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_EQ(ok, 4);
  EXPECT_EQ(f.zil.counters().commits, 2u);
  EXPECT_EQ(f.disk.stats().op(Op::kWrite).ops, writes);
}

TEST(ZfsZilTest, LargeWritesWithoutASlogAreWrittenInPlace) {
  Fixture f;
  f.zil.Assign(1, 1, 0, 2 * kRec);  // >= zfs_immediate_write_sz: WR_INDIRECT
  int ok = 0;
  f.Commit(1, false, &ok);
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_EQ(ok, 1);
  EXPECT_EQ(f.zil.counters().bytes, 192u);               // the header only
  EXPECT_EQ(f.zil.counters().indirect_bytes, 2 * kRec);  // both records, uncompressed
}

TEST(ZfsZilTest, ThePowerCutKeepsTheLogAndTheTxgCommitDropsIt) {
  Fixture f;
  f.zil.Assign(1, 1, 0, 4096);
  int ok = 0;
  f.Commit(1, false, &ok);
  VirtualDriver(f.e).RunUntilIdle();
  f.zil.Assign(1, 1, 4096, 4096);  // never committed: lost
  f.zil.PowerCut();
  EXPECT_EQ(f.Replayed(5).size(), 1u);
  f.zil.TxgCommitted(4);  // older than the replayed record's new txg
  EXPECT_EQ(f.Replayed(5).size(), 1u);
  f.zil.TxgCommitted(5);
  EXPECT_TRUE(f.Replayed(6).empty());
}

}  // namespace zfs_zil_test
}  // namespace storlab
