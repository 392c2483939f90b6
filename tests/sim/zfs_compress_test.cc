// ZfsCompressor runs the real compressors under ZFS's rules
// (zio_write_compress, zio_get_compression_max_size); ZfsSample keeps the
// bytes of a sample of records for runs that keep no data.
#include "sim/layers/zfs/zfs_compress.h"

#include <gtest/gtest.h>
#include <lz4.h>

#include <cstring>
#include <string>
#include <vector>

#include "sim/layers/zfs/zfs_sample.h"
#include "sim/random.h"

namespace storlab {
namespace zfs_compress_test {

constexpr uint64_t kRec = 128 * 1024;

std::vector<uint8_t> RandomBytes(uint64_t n, uint64_t seed) {
  std::vector<uint8_t> v(n);
  Random rng(seed);
  for (uint64_t at = 0; at < n; at += 8) {
    const uint64_t r = rng.Next();
    std::memcpy(v.data() + at, &r, std::min<uint64_t>(8, n - at));
  }
  return v;
}

TEST(ZfsCompressTest, TheMaxSizeSavesAnEighthInWholeSectors) {
  EXPECT_EQ(ZfsCompressor::MaxSize(kRec), kRec - kRec / 8);  // 112 KiB: 28 sectors
  EXPECT_EQ(ZfsCompressor::MaxSize(100 * 1024), 86016u);     // 87.5 KiB rounded down to 84
  EXPECT_EQ(ZfsCompressor::MaxSize(4096), 112u) << "under one sector: BPE_PAYLOAD_SIZE";
}

TEST(ZfsCompressTest, IncompressibleBytesAreStoredAsTheyAre) {
  const ZfsCompressor lz4(ZfsCompression::kLz4, ZfsCompressRates{}, 1.0);
  const ZfsCompressor zstd(ZfsCompression::kZstd, ZfsCompressRates{}, 1.0);
  const auto random = RandomBytes(kRec, 1);
  for (const ZfsCompressor* c : {&lz4, &zstd}) {
    const ZfsCompressed r = c->Compress(random.data(), kRec);
    EXPECT_FALSE(r.compressed);
    EXPECT_EQ(r.psize, kRec);
  }
  // Half random, half zeros: saves more than 1/8 -> compressed, rounded up
  // to whole sectors, as liblz4 itself shrinks it (plus ZFS's header).
  auto half = random;
  std::memset(half.data() + kRec / 2, 0, kRec / 2);
  std::vector<char> out(LZ4_compressBound(kRec));
  const int n = LZ4_compress_default(reinterpret_cast<const char*>(half.data()), out.data(), kRec,
                                     static_cast<int>(out.size()));
  const ZfsCompressed r = lz4.Compress(half.data(), kRec);
  EXPECT_TRUE(r.compressed);
  EXPECT_EQ(r.psize, (static_cast<uint64_t>(n) + 4 + 4095) / 4096 * 4096);
  // A record that saves less than 1/8 (7/8 random) is stored as is.
  auto most = random;
  std::memset(most.data() + kRec - kRec / 16, 0, kRec / 16);
  EXPECT_FALSE(lz4.Compress(most.data(), kRec).compressed);
}

TEST(ZfsCompressTest, Lz4ProbesWidenTheirStepEvery64Misses) {
  EXPECT_EQ(ZfsCompressor::Lz4Probes(0), 0u);
  EXPECT_EQ(ZfsCompressor::Lz4Probes(64), 64u);
  EXPECT_EQ(ZfsCompressor::Lz4Probes(65), 65u);  // the 65th probe steps 2
  EXPECT_EQ(ZfsCompressor::Lz4Probes(64 + 128), 128u);
  EXPECT_EQ(ZfsCompressor::Lz4Probes(64 + 128 + 3), 129u);
}

TEST(ZfsCompressTest, Lz4WorkIsReadBackFromTheBlock) {
  // 32 copies of one random 4 KiB buffer: the first is literals, the rest
  // one long match (LZ4 ends a block with at least 5 literals).
  const auto buf = RandomBytes(4096, 5);
  std::vector<uint8_t> rec(kRec);
  for (uint64_t at = 0; at < kRec; at += 4096) std::memcpy(rec.data() + at, buf.data(), 4096);
  std::vector<char> out(LZ4_compressBound(kRec));
  const int n = LZ4_compress_default(reinterpret_cast<const char*>(rec.data()), out.data(), kRec,
                                     static_cast<int>(out.size()));
  ASSERT_GT(n, 0);
  const auto w =
      ZfsCompressor::Lz4WorkOf(reinterpret_cast<const uint8_t*>(out.data()), uint64_t(n));
  EXPECT_EQ(w.literal_bytes + w.matched_bytes, kRec);
  EXPECT_GE(w.literal_bytes, 4096u);
  EXPECT_LT(w.literal_bytes, 4096u + 64);
  EXPECT_LE(w.sequences, 8u);
  EXPECT_LT(w.probes, 4096u) << "the search skips ahead on random bytes";
  // A truncated block stops where its bytes end.
  const auto cut = ZfsCompressor::Lz4WorkOf(reinterpret_cast<const uint8_t*>(out.data()), 3);
  EXPECT_LE(cut.sequences, 1u);
}

TEST(ZfsCompressTest, Lz4CostsItsWork) {
  const ZfsCompressRates rates;
  const ZfsCompressor lz4(ZfsCompression::kLz4, rates, 1.0);
  // Text-like data (matches every few bytes) against copies of one buffer
  // (a few long matches): the copies cost less than half as much.
  std::string text;
  Random rng(13);
  const char* words[] = {"pool ", "record ", "txg ", "the ", "write ", "of ", "a ", "dirty "};
  while (text.size() < kRec) text += words[rng.Uniform(8)];
  const ZfsCompressed t = lz4.Compress(reinterpret_cast<const uint8_t*>(text.data()), kRec);
  const auto buf = RandomBytes(4096, 6);
  std::vector<uint8_t> copies(kRec);
  for (uint64_t at = 0; at < kRec; at += 4096) std::memcpy(copies.data() + at, buf.data(), 4096);
  const ZfsCompressed c = lz4.Compress(copies.data(), kRec);
  ASSERT_TRUE(t.compressed);
  ASSERT_TRUE(c.compressed);
  EXPECT_LT(c.cpu * 2, t.cpu);
  EXPECT_LT(c.decompress_cpu, t.decompress_cpu);
  // What does not fit the bound pays the incompressible rate, and a record
  // without bytes typical data's rates.
  const auto random = RandomBytes(kRec, 7);
  const ZfsCompressed r = lz4.Compress(random.data(), kRec);
  EXPECT_EQ(r.cpu, TransferTime(kRec, rates.lz4_incompressible_bytes_per_s));
  EXPECT_EQ(r.decompress_cpu, Nanos(0));
  const ZfsCompressed none =
      ZfsCompressor(ZfsCompression::kLz4, rates, 2.0).Compress(nullptr, kRec);
  EXPECT_EQ(none.cpu, TransferTime(kRec, rates.lz4_bytes_per_s));
  EXPECT_EQ(none.decompress_cpu, TransferTime(kRec, rates.lz4_decompress_bytes_per_s));
}

TEST(ZfsCompressTest, AllZeroRecordsAreHolesAndCompressionOffStoresAll) {
  const std::vector<uint8_t> zeros(kRec, 0);
  const ZfsCompressed hole =
      ZfsCompressor(ZfsCompression::kLz4, ZfsCompressRates{}, 1.0).Compress(zeros.data(), kRec);
  EXPECT_EQ(hole.psize, 0u);
  EXPECT_FALSE(hole.compressed);
  const ZfsCompressed off =
      ZfsCompressor(ZfsCompression::kOff, ZfsCompressRates{}, 1.0).Compress(zeros.data(), kRec);
  EXPECT_EQ(off.psize, kRec) << "compression=off writes zeros (no zero detection)";
}

TEST(ZfsSampleTest, KeepsTheFirstRecordsThenOneInStride) {
  ZfsSample s(kRec, 1);
  auto no_block = [](uint64_t) { return false; };
  const auto w = RandomBytes(4096, 2);
  for (uint64_t rec = 0; rec < 64 * 64; ++rec) s.Write(rec * kRec + 8192, 4096, w.data(), no_block);
  EXPECT_GT(s.records(), ZfsSample::kFirst);
  EXPECT_LT(s.records(), ZfsSample::kFirst + 2 * 64);
  // A new record of a pool with no block there: zeros under the write.
  const uint8_t* r0 = s.Bytes(0);
  ASSERT_NE(r0, nullptr);
  EXPECT_EQ(std::memcmp(r0 + 8192, w.data(), 4096), 0);
  EXPECT_EQ(r0[0], 0);
  EXPECT_EQ(r0[kRec - 1], 0);
  // Trims zero; a write without bytes makes the record unknown.
  s.Zero(8192, 4096);
  EXPECT_EQ(r0[8192], 0);
  s.Write(0, 4096, nullptr, no_block);
  EXPECT_EQ(s.Bytes(0), nullptr);
}

TEST(ZfsSampleTest, DataFromBeforeTheRunIsRandom) {
  ZfsSample s(kRec, 1);
  const std::vector<uint8_t> w(4096, 7);
  s.Write(0, 4096, w.data(), [](uint64_t) { return true; });
  const uint8_t* r = s.Bytes(0);
  ASSERT_NE(r, nullptr);
  const ZfsCompressor lz4(ZfsCompression::kLz4, ZfsCompressRates{}, 1.0);
  EXPECT_FALSE(lz4.Compress(r, kRec).compressed);
}

}  // namespace zfs_compress_test
}  // namespace storlab
