// A zvol against a dataset on the same pool (issue 15 §4): both go through
// the DMU, the ARC and the txgs (OpenZFS zvol.c zvol_write/zvol_read call
// dmu_write_uio_dnode/dmu_read_uio_dnode as zfs_write/zfs_read do), so what
// tells them apart is the block the DMU reads and writes whole: a zvol's
// volblocksize, a dataset's recordsize. A small write to a block the ARC
// does not hold reads that block first (dbuf_will_dirty -> dbuf_read); a
// small read brings the whole block into the ARC, and the next reads inside
// it are hits.
#include <gtest/gtest.h>

#include "sim/layers/zfs/zfs.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace zfs_zvol_test {

using namespace time_literals;
using testing::Pattern;

constexpr uint64_t kRecord = 128 * 1024;   // recordsize default (zfsprops(7))
constexpr uint64_t kVolblock = 16 * 1024;  // volblocksize default since OpenZFS 2.2

// A mirror of two RAM disks; an ARC of 256 KiB, so that of the 4 MiB
// written first only the last two records' worth stays cached.
std::string Pool(const std::string& block_key) {
  return R"(
[node.pool]
type = "zfs"
children = ["a", "b"]
layout = "mirror"
mem = "256MiB"
arc_size = "256KiB"
compression = "off"
)" + block_key +
         R"(
[node.a]
type = "ram"
capacity = "256MiB"
bandwidth = "200MB/s"

[node.b]
type = "ram"
capacity = "256MiB"
bandwidth = "200MB/s"
)";
}

struct Volume {
  explicit Volume(const std::string& block_key)
      : s(testing::MustLoadText(Pool(block_key), e)),
        pool(static_cast<ZfsPool&>(s.stack->root())),
        a(*s.stack->Find("a")),
        b(*s.stack->Find("b")) {
    // 4 MiB written in 128 KiB requests, committed by a txg; the ARC keeps
    // only its end.
    auto data = Pattern(kRecord, 1);
    for (uint64_t off = 0; off < (4u << 20); off += kRecord)
      EXPECT_TRUE(testing::Write(e, pool, off, data).status.ok());
    VirtualDriver(e).RunUntil(e.now() + 6_s);
    EXPECT_GE(pool.committed_txg(), 1u);
    EXPECT_FALSE(pool.InArc(0));
  }
  uint64_t ReadOps() const { return a.stats().op(Op::kRead).ops + b.stats().op(Op::kRead).ops; }
  uint64_t ReadBytes() const {
    return a.stats().op(Op::kRead).bytes + b.stats().op(Op::kRead).bytes;
  }
  Engine e;
  LoadedStack s;
  ZfsPool& pool;
  Node& a;
  Node& b;
};

TEST(ZfsZvolTest, TheBlockIsTheVolblockOrTheRecord) {
  Volume zvol("volblocksize = \"16KiB\"\n"), dataset("");
  EXPECT_EQ(zvol.pool.config().record_size, kVolblock);
  EXPECT_TRUE(zvol.pool.config().zvol);
  EXPECT_EQ(dataset.pool.config().record_size, kRecord);
  EXPECT_FALSE(dataset.pool.config().zvol);
}

TEST(ZfsZvolTest, ASmallWriteReadsAVolblockOnAZvolAndARecordOnADataset) {
  Volume zvol("volblocksize = \"16KiB\"\n"), dataset("");
  auto small = Pattern(4096, 2);
  uint64_t read_bytes[2] = {0, 0};
  int i_v = 0;
  for (Volume* v : {&zvol, &dataset}) {
    const uint64_t ops0 = v->ReadOps(), bytes0 = v->ReadBytes();
    // Eight 4 KiB writes, 256 KiB apart: each in a block the ARC lacks.
    for (uint64_t i = 0; i < 8; ++i)
      ASSERT_TRUE(testing::Write(v->e, v->pool, i * 2 * kRecord + 4096, small).status.ok());
    EXPECT_EQ(v->ReadOps() - ops0, 8u) << "one read of the whole block per write";
    EXPECT_EQ(v->pool.counters().rmw_reads, 8u);
    read_bytes[i_v++] = v->ReadBytes() - bytes0;
    EXPECT_EQ(read_bytes[i_v - 1], 8 * v->pool.config().record_size);
  }
  // The same writes read 8x the bytes from a dataset's disks.
  EXPECT_EQ(read_bytes[1], read_bytes[0] * (kRecord / kVolblock));
}

TEST(ZfsZvolTest, AWholeBlockWriteReadsNothing) {
  Volume zvol("volblocksize = \"16KiB\"\n");
  auto block = Pattern(kVolblock, 3);
  const uint64_t ops0 = zvol.ReadOps();
  ASSERT_TRUE(testing::Write(zvol.e, zvol.pool, 5 * kVolblock, block).status.ok());
  EXPECT_EQ(zvol.ReadOps(), ops0);
  EXPECT_EQ(zvol.pool.counters().rmw_reads, 0u);
}

TEST(ZfsZvolTest, SmallSequentialReadsFetchEachBlockOnce) {
  Volume zvol("volblocksize = \"16KiB\"\n"), dataset("");
  std::vector<uint8_t> buf(4096);
  for (Volume* v : {&zvol, &dataset}) {
    const uint64_t ops0 = v->ReadOps(), bytes0 = v->ReadBytes();
    for (uint64_t off = 0; off < kRecord; off += 4096)  // 32 reads of record 0
      ASSERT_TRUE(testing::Read(v->e, v->pool, off, buf).status.ok());
    // 8 volblocks against 1 record, the same bytes.
    EXPECT_EQ(v->ReadOps() - ops0, kRecord / v->pool.config().record_size);
    EXPECT_EQ(v->ReadBytes() - bytes0, kRecord);
  }
}

}  // namespace zfs_zvol_test
}  // namespace storlab
