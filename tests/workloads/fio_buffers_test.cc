// What fio's write buffers hold (workloads/fio/io_buffers.h), and what a
// ZFS pool makes of them: compressibility is a property of the data.
#include <gtest/gtest.h>
#include <lz4.h>

#include <cstring>
#include <vector>

#include "sim/layers/zfs/zfs.h"
#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/io_buffers.h"

namespace storlab::fio {
namespace fio_buffers_test {

constexpr uint64_t kRec = 128 * 1024;

JobSpec Spec(const std::string& args) {
  auto sections = ParseCommandLine(testing::Split("--name=w --rw=randwrite --bs=4k " + args));
  EXPECT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  EXPECT_TRUE(jobs.ok()) << jobs.status().message();
  return jobs->jobs.at(0);
}

// A 128 KiB record made of 32 writes of 4 KiB from slot `slot(i)`.
std::vector<uint8_t> Record(IoBuffers& b, size_t (*slot)(size_t)) {
  std::vector<uint8_t> rec(kRec);
  for (size_t i = 0; i < 32; ++i) {
    const uint64_t offset = (i * 7919 % 1024) * 4096;  // scattered, as randwrite's
    b.BeforeWrite(slot(i), 4096, offset, Nanos(static_cast<int64_t>(1'000'000'000 + i * 81'233)));
    std::memcpy(rec.data() + i * 4096, b.slot(slot(i)), 4096);
  }
  return rec;
}

TEST(FioBuffersTest, OptionsResolveAsFioResolvesThem) {
  BufferFill f = Spec("").fill;
  EXPECT_EQ(f.kind, BufferFill::Kind::kRandom);
  EXPECT_TRUE(f.scramble);
  EXPECT_FALSE(f.refill);
  f = Spec("--refill_buffers").fill;
  EXPECT_TRUE(f.refill);
  f = Spec("--zero_buffers").fill;
  EXPECT_EQ(f.kind, BufferFill::Kind::kZero);
  EXPECT_FALSE(f.scramble) << "init.c: no scrambling when zero_buffers is given";
  f = Spec("--buffer_compress_percentage=60 --buffer_compress_chunk=1k").fill;
  EXPECT_EQ(f.kind, BufferFill::Kind::kCompress);
  EXPECT_TRUE(f.refill) << "init.c: compression turns refill_buffers on";
  EXPECT_FALSE(f.scramble);
  EXPECT_EQ(f.compress_chunk, 1024u);
  f = Spec("--buffer_compress_percentage=100").fill;
  EXPECT_EQ(f.kind, BufferFill::Kind::kZero);
  f = Spec("--buffer_pattern=0xab").fill;
  EXPECT_EQ(f.kind, BufferFill::Kind::kPattern);
  EXPECT_FALSE(f.scramble);
  EXPECT_FALSE(Spec("--scramble_buffers=0").fill.scramble);
}

TEST(FioBuffersTest, CompressPercentageFillsChunksRandomThenZeros) {
  IoBuffers b(1, 4096, 1, Spec("--buffer_compress_percentage=75").fill);
  const uint8_t* p = b.slot(0);
  for (uint64_t chunk = 0; chunk < 4096; chunk += 512) {
    EXPECT_NE(std::memcmp(p + chunk, p + chunk + 64, 64), 0);
    for (uint64_t i = 128; i < 512; ++i) ASSERT_EQ(p[chunk + i], 0) << chunk + i;
  }
}

TEST(FioBuffersTest, ThirtyTwoScrambledCopiesShrinkAsLz4ShrinksThem) {
  // Test A at iodepth 1: every write comes from the one buffer, scrambled.
  IoBuffers b(1, 4096, 1, Spec("").fill);
  const auto rec = Record(b, [](size_t) { return size_t{0}; });
  std::vector<char> out(LZ4_compressBound(kRec));
  const int n = LZ4_compress_default(reinterpret_cast<const char*>(rec.data()), out.data(), kRec,
                                     static_cast<int>(out.size()));
  const ZfsCompressed c =
      ZfsCompressor(ZfsCompression::kLz4, ZfsCompressRates{}, 1.0).Compress(rec.data(), kRec);
  EXPECT_TRUE(c.compressed);
  EXPECT_EQ(c.psize, (static_cast<uint64_t>(n) + 4 + 4095) / 4096 * 4096);
  EXPECT_LE(c.psize, kRec / 4) << "several-fold: " << n << " bytes";
  // refill_buffers: 32 fresh random writes do not compress.
  IoBuffers r(1, 4096, 1, Spec("--refill_buffers").fill);
  const auto fresh = Record(r, [](size_t) { return size_t{0}; });
  EXPECT_FALSE(ZfsCompressor(ZfsCompression::kLz4, ZfsCompressRates{}, 1.0)
                   .Compress(fresh.data(), kRec)
                   .compressed);
}

// Test A, shortened (16 MiB, 3 s at 4000 IOPS), on a ZFS dataset with lz4
// over a RAM disk, txgs every second, in a run that keeps no data: the
// pool's records compress as fio's buffers make them.
ZfsPool::Counters RunA(const std::string& extra) {
  HostOptions ho;
  ho.stack = "zfs-ram.toml";
  ho.stack_text = R"([host]
mem = "4GiB"
cores = 4
[node.pool]
type = "zfs"
child = "disk"
compression = "lz4"
txg_timeout = "1s"
mem = "4GiB"
[node.disk]
type = "ram"
capacity = "1GiB"
latency = "50us"
)";
  auto host = SimHost::Create(ho);
  EXPECT_TRUE(host.ok()) << host.status().message();
  EXPECT_FALSE((*host)->keeps_data());
  EXPECT_TRUE((*host)->writes_carry_data()) << "the pool compresses: writes carry bytes";
  auto sections = ParseCommandLine(
      testing::Split("--name=a --ioengine=posixaio --rw=randwrite --bs=4k --runtime=3 "
                     "--rate_iops=4000 --time_based --end_fsync=1 " +
                     extra));
  EXPECT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  EXPECT_TRUE(jobs.ok());
  FioRun run(**host, std::move(*jobs));
  EXPECT_TRUE(run.Prepare().ok());
  EXPECT_TRUE(run.Run(nullptr).ok());
  for (const auto& n : (*host)->stack().nodes()) {
    if (const ZfsPool* z = NodeAs<ZfsPool>(n.get())) return z->counters();
  }
  ADD_FAILURE() << "no pool";
  return {};
}

TEST(FioBuffersTest, TestARecordsCompressUnlessBuffersAreRefilled) {
  // A laid-out file (overwrite=1: random data) rewritten by 4 KiB writes
  // from one buffer (iodepth 1): its records become copies of the buffer.
  const ZfsPool::Counters one = RunA("--size=16m --overwrite=1 --iodepth=1");
  ASSERT_GT(one.records_written, 0u);
  EXPECT_EQ(one.compressed_records, one.records_written);
  EXPECT_LT(one.physical_bytes, one.logical_bytes / 4);
  // Refilled buffers, 32 in flight: incompressible again.
  const ZfsPool::Counters refill = RunA("--size=16m --overwrite=1 --iodepth=32 --refill_buffers=1");
  ASSERT_GT(refill.records_written, 0u);
  EXPECT_EQ(refill.compressed_records, 0u);
  EXPECT_EQ(refill.physical_bytes, refill.logical_bytes);
  // The seed's own job writes a new, sparse file (no layout without
  // overwrite=1): what it has not written yet is a hole, zeros, and its
  // records compress whatever the buffers hold while it fills.
  const ZfsPool::Counters sparse = RunA("--size=64m --iodepth=32 --refill_buffers=1");
  ASSERT_GT(sparse.records_written, 0u);
  EXPECT_GT(sparse.compressed_records, sparse.records_written / 2);
}

}  // namespace fio_buffers_test
}  // namespace storlab::fio
