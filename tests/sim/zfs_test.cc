// The ZFS-like pool in virtual time: read-modify-write of partial records,
// txgs every 5 s, the ZIL across power cuts, compression, mirror writes,
// the write throttle.
#include "sim/layers/zfs/zfs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "tests/sim/test_util.h"

namespace storlab {
namespace zfs_test {

using namespace time_literals;
using testing::Pattern;

constexpr uint64_t kRec = 128 * 1024;

std::string Pool(const std::string& keys) {
  return R"(
[node.pool]
type = "zfs"
children = ["a", "b"]
layout = "mirror"
mem = "256MiB"
)" + keys +
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

struct Fixture {
  explicit Fixture(const std::string& keys = "", DataMode::Kind kind = DataMode::Kind::kRam)
      : s(testing::MustLoadText(Pool(keys), e, 1, kind)),
        pool(static_cast<ZfsPool&>(s.stack->root())),
        a(*s.stack->Find("a")),
        b(*s.stack->Find("b")) {}
  void RunFor(Nanos d) { VirtualDriver(e).RunUntil(e.now() + d); }
  Engine e;
  LoadedStack s;
  ZfsPool& pool;
  Node& a;
  Node& b;
};

uint64_t MemberReads(Fixture& f) {
  return f.a.stats().op(Op::kRead).ops + f.b.stats().op(Op::kRead).ops;
}

TEST(ZfsTest, DefaultsComeFromTheHost) {
  Fixture f;
  EXPECT_EQ(f.pool.dirty_max_bytes(), (256u << 20) / 10);
  EXPECT_EQ(f.pool.config().arc_bytes, 128u << 20);
  EXPECT_EQ(f.pool.config().record_size, kRec);
  EXPECT_EQ(f.pool.geometry().capacity % kRec, 0u);
}

TEST(ZfsTest, PartialWritesReadTheRecordOnlyWhenItIsNotInTheArc) {
  Fixture f("arc_size = \"256KiB\"\n");  // the ARC holds two records
  auto rec = Pattern(kRec, 1);
  for (uint64_t i = 0; i < 3; ++i)
    ASSERT_TRUE(testing::Write(f.e, f.pool, i * kRec, rec).status.ok());
  f.RunFor(6_s);  // a txg commits them; the ARC keeps the last two
  ASSERT_EQ(f.pool.committed_txg(), 1u);
  ASSERT_FALSE(f.pool.InArc(0));
  ASSERT_TRUE(f.pool.InArc(2));
  auto small = Pattern(4096, 2);
  const uint64_t reads0 = MemberReads(f);
  auto r = testing::Write(f.e, f.pool, 4096, small);  // record 0: not cached
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(MemberReads(f) - reads0, 1u) << "one read of the whole record";
  EXPECT_EQ(f.pool.counters().rmw_reads, 1u);
  EXPECT_GE(r.latency, TransferTime(kRec, 200e6));
  ASSERT_TRUE(testing::Write(f.e, f.pool, 2 * kRec + 4096, small).status.ok());  // cached
  ASSERT_TRUE(testing::Write(f.e, f.pool, 8192, small).status.ok());  // record 0: dirty now
  EXPECT_EQ(MemberReads(f) - reads0, 1u);
  EXPECT_EQ(f.pool.counters().rmw_reads, 1u);
  // The record reads back whole: old bytes around the new ones.
  std::vector<uint8_t> back(kRec);
  ASSERT_TRUE(testing::Read(f.e, f.pool, 0, back).status.ok());
  std::copy(small.begin(), small.end(), rec.begin() + 4096);
  std::copy(small.begin(), small.end(), rec.begin() + 8192);
  EXPECT_EQ(back, rec);
}

TEST(ZfsArcTest, TheDbufCacheHoldsAThirtySecondOfTheArcUncompressed) {
  ZfsArc arc(8 * kRec, kRec / 8);  // 64 records; the dbuf cache holds 2
  for (uint64_t r = 0; r < 4; ++r) arc.Insert(r);
  EXPECT_TRUE(arc.Contains(0));
  EXPECT_FALSE(arc.Uncompressed(0)) << "the least recently inserted left the dbuf cache";
  EXPECT_FALSE(arc.Uncompressed(1));
  EXPECT_TRUE(arc.Uncompressed(2));
  EXPECT_TRUE(arc.Uncompressed(3));
  EXPECT_EQ(arc.uncompressed_bytes(), 2 * kRec / 8);
  arc.Touch(2);         // 2 is now the most recently used of the two
  arc.Decompressed(0);  // in; 3 goes
  EXPECT_TRUE(arc.Uncompressed(0));
  EXPECT_TRUE(arc.Uncompressed(2));
  EXPECT_FALSE(arc.Uncompressed(3));
  arc.Decompressed(99);  // not in the ARC: nothing
  EXPECT_FALSE(arc.Uncompressed(99));
  EXPECT_EQ(arc.uncompressed_bytes(), 2 * kRec / 8);
  // Records the ARC drops leave the dbuf cache with it.
  for (uint64_t r = 4; r < 4 + 64; ++r) arc.Insert(r);
  EXPECT_FALSE(arc.Contains(0));
  EXPECT_FALSE(arc.Uncompressed(0));
  EXPECT_EQ(arc.uncompressed_bytes(), 2 * kRec / 8);
  EXPECT_TRUE(arc.Uncompressed(67));
  arc.Clear();
  EXPECT_EQ(arc.uncompressed_bytes(), 0u);
  EXPECT_FALSE(arc.Uncompressed(67));
}

TEST(ZfsTest, APartialWriteOrAReadDecompressesARecordTheArcHoldsOnlyCompressed) {
  // An ARC of 64 records; its dbuf cache holds 1/32 of that: two records.
  Fixture f("arc_size = \"8MiB\"\ncompression = \"lz4\"\n");
  std::vector<uint8_t> rec(kRec);
  const auto buf = Pattern(4096, 3);
  for (uint64_t at = 0; at < kRec; at += 4096) std::copy(buf.begin(), buf.end(), rec.begin() + at);
  for (uint64_t i = 0; i < 4; ++i)
    ASSERT_TRUE(testing::Write(f.e, f.pool, i * kRec, rec).status.ok());
  f.RunFor(6_s);  // a txg commits them: the ARC holds all four, the dbuf cache the last two
  ASSERT_EQ(f.pool.committed_txg(), 1u);
  ASSERT_EQ(f.pool.counters().compressed_records, 4u);
  const Nanos decompress = ZfsCompressor(ZfsCompression::kLz4, ZfsCompressRates{}, 1.0)
                               .Compress(rec.data(), kRec)
                               .decompress_cpu;
  ASSERT_GT(decompress, Nanos(0));
  const uint64_t reads0 = MemberReads(f);
  auto small = Pattern(4096, 4);
  auto r = testing::Write(f.e, f.pool, 4096, small);  // record 0: compressed in the ARC only
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(f.pool.counters().dbuf_decompressions, 1u);
  EXPECT_GE(r.latency, decompress);
  EXPECT_EQ(f.pool.counters().rmw_reads, 0u) << "the ARC holds it: no read from the disks";
  ASSERT_TRUE(
      testing::Write(f.e, f.pool, 3 * kRec + 4096, small).status.ok());  // in the dbuf cache
  ASSERT_TRUE(testing::Write(f.e, f.pool, 2 * kRec, rec).status.ok());   // whole: nothing to read
  EXPECT_EQ(f.pool.counters().dbuf_decompressions, 1u);
  std::vector<uint8_t> back(4096);
  r = testing::Read(f.e, f.pool, kRec, back);  // record 1: compressed in the ARC only
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(f.pool.counters().dbuf_decompressions, 2u);
  EXPECT_GE(r.latency, decompress);
  EXPECT_TRUE(std::equal(back.begin(), back.end(), rec.begin()));
  ASSERT_TRUE(testing::Read(f.e, f.pool, kRec, back).status.ok());  // in the dbuf cache now
  EXPECT_EQ(f.pool.counters().dbuf_decompressions, 2u);
  EXPECT_EQ(MemberReads(f), reads0);
}

TEST(ZfsTest, TxgsCommitEveryFiveSeconds) {
  Fixture f;
  auto w = Pattern(4096, 3);
  ASSERT_TRUE(testing::Write(f.e, f.pool, 0, w).status.ok());
  VirtualDriver(f.e).RunUntil(Nanos(4'999'000'000));
  EXPECT_EQ(f.pool.committed_txg(), 0u);
  EXPECT_EQ(f.a.stats().op(Op::kWrite).ops, 0u) << "nothing reaches the disks before the txg";
  VirtualDriver(f.e).RunUntil(5_s + 50_ms);
  EXPECT_EQ(f.pool.committed_txg(), 1u);
  EXPECT_GT(f.a.stats().op(Op::kWrite).ops, 0u);
  // A write at 6 s waits for the txg timeout after the last sync began.
  VirtualDriver(f.e).RunUntil(6_s);
  ASSERT_TRUE(testing::Write(f.e, f.pool, kRec, w).status.ok());
  VirtualDriver(f.e).RunUntil(Nanos(9'999'000'000));
  EXPECT_EQ(f.pool.committed_txg(), 1u);
  VirtualDriver(f.e).RunUntil(10_s + 50_ms);
  EXPECT_EQ(f.pool.committed_txg(), 2u);
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(f.e.empty()) << "an idle pool schedules nothing";
}

TEST(ZfsTest, TheZilKeepsSyncWritesAcrossAPowerCutAndAsyncWritesAreLost) {
  Fixture f;
  auto async_w = Pattern(8192, 4), sync_w = Pattern(8192, 5), fsynced = Pattern(65536, 6);
  ASSERT_TRUE(testing::DoIo(f.e, f.pool, Op::kWrite, 0, 8192, async_w.data(), 0, 1).status.ok());
  ASSERT_TRUE(
      testing::DoIo(f.e, f.pool, Op::kWrite, 1 << 20, 8192, sync_w.data(), kFua, 2).status.ok());
  ASSERT_TRUE(
      testing::DoIo(f.e, f.pool, Op::kWrite, 2 << 20, 65536, fsynced.data(), 0, 3).status.ok());
  auto fs = testing::DoIo(f.e, f.pool, Op::kFlush, 0, 0, nullptr, 0, 3);  // fsync(file 3)
  ASSERT_TRUE(fs.status.ok());
  EXPECT_EQ(f.pool.committed_txg(), 0u) << "the ZIL, not a txg, made them durable";
  EXPECT_GT(f.pool.counters().zil_commits, 0u);
  auto later = Pattern(8192, 7);
  ASSERT_TRUE(testing::DoIo(f.e, f.pool, Op::kWrite, 1 << 20, 8192, later.data(), 0, 2)
                  .status.ok());  // never synced
  f.s.stack->PowerCut();
  std::vector<uint8_t> r0(8192), r1(8192), r2(65536);
  ASSERT_TRUE(testing::Read(f.e, f.pool, 0, r0).status.ok());
  ASSERT_TRUE(testing::Read(f.e, f.pool, 1 << 20, r1).status.ok());
  ASSERT_TRUE(testing::Read(f.e, f.pool, 2 << 20, r2).status.ok());
  EXPECT_EQ(r1, sync_w);
  EXPECT_EQ(r2, fsynced) << "a 64 KiB write is logged WR_INDIRECT and still survives";
  EXPECT_EQ(r0, std::vector<uint8_t>(8192, 0)) << "file 1 was never synced: lost";
  // The replayed log is committed by the next txg and survives another cut.
  f.RunFor(6_s);
  EXPECT_EQ(f.pool.committed_txg(), 1u);
  f.s.stack->PowerCut();
  ASSERT_TRUE(testing::Read(f.e, f.pool, 1 << 20, r1).status.ok());
  EXPECT_EQ(r1, sync_w);
}

TEST(ZfsTest, FsyncOfOneFileLogsOnlyThatFile) {
  Fixture f;
  auto w1 = Pattern(8192, 8), w2 = Pattern(8192, 9);
  ASSERT_TRUE(testing::DoIo(f.e, f.pool, Op::kWrite, 0, 8192, w1.data(), 0, 1).status.ok());
  ASSERT_TRUE(testing::DoIo(f.e, f.pool, Op::kWrite, kRec, 8192, w2.data(), 0, 2).status.ok());
  ASSERT_TRUE(testing::DoIo(f.e, f.pool, Op::kFlush, 0, 0, nullptr, 0, 1).status.ok());
  f.s.stack->PowerCut();
  std::vector<uint8_t> r1(8192), r2(8192);
  ASSERT_TRUE(testing::Read(f.e, f.pool, 0, r1).status.ok());
  ASSERT_TRUE(testing::Read(f.e, f.pool, kRec, r2).status.ok());
  EXPECT_EQ(r1, w1);
  EXPECT_EQ(r2, std::vector<uint8_t>(8192, 0));
}

TEST(ZfsTest, CompressionDependsOnTheData) {
  ZfsCompressRates rates;
  ZfsCompressor lz4(ZfsCompression::kLz4, rates, 1.0), zstd(ZfsCompression::kZstd, rates, 1.0);
  auto random = Pattern(kRec, 10);
  std::vector<uint8_t> zeros(kRec, 0);
  ZfsCompressed c = lz4.Compress(random.data(), kRec);
  EXPECT_FALSE(c.compressed);
  EXPECT_EQ(c.psize, kRec);
  EXPECT_EQ(c.cpu, TransferTime(kRec, 1.5e9)) << "LZ4 aborts early on random data";
  c = lz4.Compress(zeros.data(), kRec);
  EXPECT_FALSE(c.compressed);
  EXPECT_EQ(c.psize, 0u) << "an all-zero record is a hole";
  EXPECT_EQ(c.cpu, Nanos(0));
  zeros[kRec / 2] = 1;
  c = lz4.Compress(zeros.data(), kRec);
  EXPECT_TRUE(c.compressed);
  EXPECT_EQ(c.psize, 4096u);
  // Two long matches of zeros around one literal: LZ4's work is a few
  // probes and 128 KiB of match extension, far under typical data's time.
  EXPECT_GT(c.cpu, Nanos(0));
  EXPECT_LT(c.cpu, TransferTime(kRec, 500e6) / 10);
  EXPECT_GT(c.decompress_cpu, Nanos(0));
  c = zstd.Compress(random.data(), kRec);
  EXPECT_FALSE(c.compressed);
  EXPECT_EQ(c.cpu, TransferTime(kRec, 330e6)) << "zstd pays its full rate on random data";
  // Text-like data compresses, zstd better than LZ4.
  std::string text;
  Random rng(11);
  const char* words[] = {"pool ", "record ", "txg ", "the ", "write ", "of ", "a ", "dirty "};
  while (text.size() < kRec) text += words[rng.Uniform(8)];
  const auto* t = reinterpret_cast<const uint8_t*>(text.data());
  const uint64_t max = ZfsCompressor::MaxSize(kRec);
  EXPECT_EQ(max, kRec - kRec / 8);
  const uint64_t l = ZfsCompressor::Lz4Size(t, kRec, max),
                 z = ZfsCompressor::ZstdSize(t, kRec, max);
  EXPECT_LT(l, kRec / 2);
  EXPECT_LT(z, l);
  // Timing-only runs take the ratio from the profile.
  ZfsCompressor half(ZfsCompression::kLz4, rates, 2.0);
  EXPECT_EQ(half.Compress(nullptr, kRec).psize, kRec / 2);
}

TEST(ZfsTest, CompressionOnTheWritePath) {
  for (bool zero : {false, true}) {
    Fixture f("compression = \"lz4\"\n");
    auto w = zero ? std::vector<uint8_t>(1 << 20, 0) : Pattern(1 << 20, 12);
    ASSERT_TRUE(testing::Write(f.e, f.pool, 0, w).status.ok());
    f.RunFor(6_s);
    const ZfsPool::Counters& c = f.pool.counters();
    EXPECT_EQ(c.logical_bytes, 1u << 20);
    if (zero) {
      EXPECT_EQ(c.physical_bytes, 0u) << "all-zero records become holes";
      EXPECT_EQ(c.hole_records, 8u);
      EXPECT_EQ(c.compress_cpu_ns, 0u);
    } else {
      EXPECT_EQ(c.physical_bytes, 1u << 20);
      EXPECT_EQ(c.compress_cpu_ns, 8 * static_cast<uint64_t>(TransferTime(kRec, 1.5e9).count()));
    }
    std::vector<uint8_t> back(w.size());
    ASSERT_TRUE(testing::Read(f.e, f.pool, 0, back).status.ok());
    EXPECT_EQ(back, w);
  }
}

TEST(ZfsTest, AMirrorWritesBothSides) {
  Fixture f("compression = \"off\"\n");
  auto w = Pattern(1 << 20, 13);
  ASSERT_TRUE(testing::Write(f.e, f.pool, 0, w).status.ok());
  f.RunFor(6_s);
  const uint64_t wa = f.a.stats().op(Op::kWrite).bytes, wb = f.b.stats().op(Op::kWrite).bytes;
  EXPECT_EQ(wa, wb);
  EXPECT_GE(wa, 1u << 20);
  EXPECT_EQ(f.a.stats().op(Op::kFlush).ops, 2u) << "flush, uberblock, flush";
}

TEST(ZfsTest, ARaidz1ReadsTheDataColumns) {
  Engine e;
  auto s = testing::MustLoadText(R"(
[node.pool]
type = "zfs"
children = ["d"]
layout = "raidz1"
compression = "off"
mem = "256MiB"
arc_size = "128KiB"
[node.d]
type = "ram"
capacity = "128MiB"
count = 3
)",
                                 e);
  auto& pool = static_cast<ZfsPool&>(s.stack->root());
  auto w = Pattern(2 * kRec, 14);
  ASSERT_TRUE(testing::Write(e, pool, 0, w).status.ok());
  VirtualDriver(e).RunUntil(6_s);
  uint64_t written = 0;
  for (int i = 0; i < 3; ++i)
    written += s.stack->Find("d." + std::to_string(i))->stats().op(Op::kWrite).bytes;
  // 32 data sectors per record in rows of 2 + 1 parity: 48 sectors per record,
  // plus 12 uberblock copies.
  EXPECT_EQ(written, 2 * 48 * 4096u + 3 * 4 * 4096u);
  s.stack->PowerCut();  // empty the ARC
  std::vector<uint8_t> back(kRec);
  ASSERT_TRUE(testing::Read(e, pool, 0, back).status.ok());
  uint64_t readers = 0;
  for (int i = 0; i < 3; ++i)
    readers += s.stack->Find("d." + std::to_string(i))->stats().op(Op::kRead).ops;
  EXPECT_EQ(readers, 2u);
  EXPECT_TRUE(std::equal(back.begin(), back.end(), w.begin()));
}

TEST(ZfsTest, TheWriteThrottleHoldsDirtyDataUnderTheMaximum) {
  // A slow pair of disks and a writer far faster than them.
  Engine e;
  auto s = testing::MustLoadText(R"(
[node.pool]
type = "zfs"
children = ["d"]
layout = "mirror"
compression = "off"
mem = "256MiB"
[node.d]
type = "ram"
capacity = "512MiB"
bandwidth = "50MB/s"
queue_depth = 1
count = 2
)",
                                 e, 1, DataMode::Kind::kNone);
  auto& pool = static_cast<ZfsPool&>(s.stack->root());
  uint64_t max_dirty = 0, bytes = 0;
  Random rng(5);
  while (e.now() < 20_s) {
    const uint64_t off = rng.Uniform(pool.geometry().capacity / kRec) * kRec;
    ASSERT_TRUE(testing::DoIo(e, pool, Op::kWrite, off, kRec, nullptr).status.ok());
    bytes += kRec;
    max_dirty = std::max(max_dirty, pool.dirty_bytes());
  }
  EXPECT_LE(max_dirty, pool.dirty_max_bytes() + kRec);
  EXPECT_GT(pool.counters().throttle_ns, 0u);
  // Sustained: the disks' 50 MB/s (each record goes to both).
  EXPECT_NEAR(static_cast<double>(bytes) / e.now().seconds(), 50e6, 10e6);
}

}  // namespace zfs_test
}  // namespace storlab

namespace storlab {
namespace zfs_test {

TEST(ZfsTest, AMirrorOfTwoBaysBehindOneLinkCarriesEveryRecordTwice) {
  Engine e;
  const char* dir = std::getenv("STORLAB_SOURCE_DIR");
  auto s = testing::MustLoad(
      std::string(dir ? dir : ".") + "/tests/sim/conformance/zfs_enclosure_mirror.toml", e);
  auto& pool = static_cast<ZfsPool&>(s.stack->root());
  auto w = testing::Pattern(1 << 20, 15);
  ASSERT_TRUE(testing::Write(e, pool, 0, w).status.ok());
  VirtualDriver(e).RunUntil(Nanos(6'000'000'000));
  const uint64_t d0 = s.stack->Find("d0")->stats().op(Op::kWrite).bytes;
  const uint64_t d1 = s.stack->Find("d1")->stats().op(Op::kWrite).bytes;
  const uint64_t link = s.stack->Find("usb")->stats().op(Op::kWrite).bytes;
  EXPECT_EQ(d0, d1);
  EXPECT_GE(d0, 1u << 20);
  EXPECT_EQ(link, d0 + d1) << "both sides cross the one link";
}

}  // namespace zfs_test
}  // namespace storlab
