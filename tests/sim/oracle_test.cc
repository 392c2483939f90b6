// The durability oracle, against a small disk with a volatile cache that can
// be told to lie: the oracle must pass an honest disk and catch a liar.
#include "sim/oracle.h"

#include <gtest/gtest.h>

// The portable XXH3, header-only: what the oracle's hashes are checked against.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>

#include "sim/stack.h"
#include "sim/store/overlay.h"
#include "sim/store/ram_store.h"
#include "sim/virtual_driver.h"
#include "tests/sim/oracle_rig.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace oracle_test {

using namespace time_literals;
using testing::Pattern;

TEST(OracleTest, HonestDiskPassesAndUnflushedLossIsCountedNotFlagged) {
  Rig r;
  auto a = Pattern(8192, 1), b = Pattern(8192, 2), c = Pattern(4096, 3);
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, a).status.ok());
  ASSERT_TRUE(testing::Flush(r.e, *r.oracle).status.ok());
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, b).status.ok());            // not flushed
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 65536, c, kFua).status.ok());  // durable
  r.stack.PowerCut();
  OracleReport rep = r.oracle->VerifyNow();
  EXPECT_TRUE(rep.ok()) << rep.Summary();
  EXPECT_EQ(rep.blocks_checked, 16u + 8u);  // 512-byte blocks
  EXPECT_EQ(rep.blocks_older, 16u) << "the unflushed overwrite of 8 KiB was lost";
  EXPECT_EQ(rep.blocks_newest, 8u);
  EXPECT_TRUE(r.oracle->read_violations().empty());
}

TEST(OracleTest, CatchesADiskThatLiesAboutFlush) {
  Rig r;
  r.disk->lie_on_flush = true;
  auto a = Pattern(4096, 1);
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 4096, a).status.ok());
  ASSERT_TRUE(testing::Flush(r.e, *r.oracle).status.ok());
  r.stack.PowerCut();
  OracleReport rep = r.oracle->VerifyNow();
  ASSERT_FALSE(rep.ok());
  EXPECT_EQ(rep.violations.size(), 8u);
  EXPECT_EQ(rep.violations[0].offset, 4096u);
  EXPECT_NE(rep.Summary().find("VIOLATION at byte 4096"), std::string::npos) << rep.Summary();
}

TEST(OracleTest, CatchesStaleReadsOnline) {
  Rig r;
  r.disk->stale_reads = true;
  auto a = Pattern(4096, 1);
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, a).status.ok());
  std::vector<uint8_t> out(4096);
  ASSERT_TRUE(testing::Read(r.e, *r.oracle, 0, out).status.ok());
  EXPECT_EQ(r.oracle->read_violations().size(), 8u);
}

// A block never written through the oracle: on a fresh device it must read
// as zeros (checked without hashing it), and the violation names the hash
// of what came back; on a device of unknown content anything goes.
TEST(OracleTest, ABlockNeverWrittenMustReadAsZerosOnAFreshDevice) {
  Rig r;
  const auto junk = Pattern(512, 7);
  ASSERT_TRUE(r.disk->media().Write(1024, 512, junk.data()).ok());  // behind its back
  std::vector<uint8_t> out(4096);
  ASSERT_TRUE(testing::Read(r.e, *r.oracle, 0, out).status.ok());
  ASSERT_EQ(r.oracle->read_violations().size(), 1u);
  const OracleViolation v = r.oracle->read_violations()[0];
  EXPECT_EQ(v.offset, 1024u);
  EXPECT_EQ(v.what, "a block never written read as non-zero");
  ASSERT_EQ(v.acceptable.size(), 1u);
  EXPECT_NE(v.found, v.acceptable[0]);  // the junk's hash, not the zeros'
  // XXH3-64 of the block, whichever code computed it (the oracle takes
  // libxxhash's run-time dispatch on x86): a report can be checked by hand.
  const std::vector<uint8_t> zeros(512, 0);
  EXPECT_EQ(v.found, XXH3_64bits(junk.data(), junk.size()));
  EXPECT_EQ(v.acceptable[0], XXH3_64bits(zeros.data(), zeros.size()));

  Engine e;
  Stack stack{e, "unknown", 1, DataMode()};
  auto& disk = stack.Adopt(std::make_unique<CachedDisk>(e, 1 << 24));
  auto& oracle = stack.Adopt(std::make_unique<Oracle>(e, disk, /*fresh=*/false));
  ASSERT_TRUE(disk.media().Write(1024, 512, junk.data()).ok());
  ASSERT_TRUE(testing::Read(e, oracle, 0, out).status.ok());
  EXPECT_TRUE(oracle.read_violations().empty());
}

TEST(OracleTest, RepeatedCutsUseTheFoundContentAsBaseline) {
  Rig r;
  for (int round = 0; round < 3; ++round) {
    auto a = Pattern(4096, 10 + round), b = Pattern(4096, 20 + round);
    ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, a).status.ok());
    ASSERT_TRUE(testing::Flush(r.e, *r.oracle).status.ok());
    ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, b).status.ok());
    r.stack.PowerCut();
    OracleReport rep = r.oracle->VerifyNow();
    EXPECT_TRUE(rep.ok()) << rep.Summary();
    std::vector<uint8_t> out(4096);
    ASSERT_TRUE(testing::Read(r.e, *r.oracle, 0, out).status.ok());
    EXPECT_EQ(out, a);
  }
}

// A forked power-cut check reads with kDirect (past a page cache, empty
// after the cut, into its own buffers): the flags reach every read.
TEST(OracleTest, VerifyReadsCarryTheFlagsAskedFor) {
  Rig r;
  auto data = Pattern(8192, 3);
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, data).status.ok());
  ASSERT_TRUE(testing::Flush(r.e, *r.oracle).status.ok());
  r.stack.PowerCut();
  r.disk->read_flags = 0;
  OracleReport rep = r.oracle->VerifyNow({.rebaseline = false, .read_flags = kDirect});
  EXPECT_TRUE(rep.ok()) << rep.Summary();
  EXPECT_EQ(rep.blocks_checked, 8192u / r.oracle->geometry().logical_block);
  EXPECT_EQ(r.disk->read_flags, kDirect);
  r.disk->read_flags = 0;
  EXPECT_TRUE(r.oracle->VerifyNow().ok());
  EXPECT_EQ(r.disk->read_flags, 0u);
}

// The forked check reads in short runs, one at a time, into reused
// buffers: the same verdict as the default's runs of 1 MiB, 16 at a time.
TEST(OracleTest, ShortReadsOneAtATimeGiveTheSameVerdict) {
  for (bool lie : {false, true}) {
    Rig r;
    r.disk->lie_on_flush = lie;
    auto a = Pattern(64 * 1024, 1), b = Pattern(8192, 2), c = Pattern(4096, 3);
    ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, a).status.ok());
    ASSERT_TRUE(testing::Write(r.e, *r.oracle, 256 * 1024, b).status.ok());
    ASSERT_TRUE(testing::Flush(r.e, *r.oracle).status.ok());
    ASSERT_TRUE(testing::Write(r.e, *r.oracle, 4096, c).status.ok());
    r.stack.PowerCut();
    OracleReport rep =
        r.oracle->VerifyNow({.rebaseline = false, .max_read_bytes = 16 * 1024, .queue_depth = 1});
    EXPECT_LE(r.disk->longest_read, 16u * 1024);
    EXPECT_EQ(r.disk->most_reads_in_flight, 1);
    r.disk->longest_read = 0;
    r.disk->most_reads_in_flight = 0;
    const OracleReport full = r.oracle->VerifyNow();
    EXPECT_EQ(r.disk->longest_read, 64u * 1024);
    EXPECT_GT(r.disk->most_reads_in_flight, 1);
    EXPECT_EQ(rep.blocks_checked, full.blocks_checked);
    EXPECT_EQ(rep.blocks_newest, full.blocks_newest);
    EXPECT_EQ(rep.blocks_older, full.blocks_older);
    EXPECT_EQ(rep.violations.size(), full.violations.size());
    EXPECT_EQ(rep.ok(), !lie) << rep.Summary();
  }
}

TEST(OracleTest, ConcurrentOverlappingWritesMayLandInEitherOrder) {
  Rig r;
  auto a = Pattern(4096, 1), b = Pattern(4096, 2);
  int done = 0;
  for (auto* buf : {&a, &b}) {
    Request q{
        .op = Op::kWrite, .length = 4096, .data = buf->data(), .done = [&](Status st) { ++done; }};
    r.oracle->Submit(std::move(q));
  }
  VirtualDriver(r.e).RunUntilIdle();
  ASSERT_EQ(done, 2);
  ASSERT_TRUE(testing::Flush(r.e, *r.oracle).status.ok());
  // Both were in flight together: after the flush either may be durable.
  // Make the disk hold `a` on its media, which is legal.
  ASSERT_TRUE(r.disk->media().Write(0, 4096, a.data()).ok());
  r.stack.PowerCut();
  EXPECT_TRUE(r.oracle->VerifyNow().ok());
}

TEST(OracleTest, AnOrderedOverwriteSupersedesTheOldVersion) {
  Rig r;
  auto a = Pattern(4096, 1), b = Pattern(4096, 2);
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, a).status.ok());
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, b).status.ok());  // after a completed
  ASSERT_TRUE(testing::Flush(r.e, *r.oracle).status.ok());
  ASSERT_TRUE(r.disk->media().Write(0, 4096, a.data()).ok());  // the disk "resurrects" a
  r.stack.PowerCut();
  EXPECT_EQ(r.oracle->VerifyNow().violations.size(), 8u);
}

TEST(OracleTest, TrimMayLeaveOldDataOrZeros) {
  Rig r;
  auto a = Pattern(4096, 1);
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, a, kFua).status.ok());
  ASSERT_TRUE(testing::DoIo(r.e, *r.oracle, Op::kTrim, 0, 4096, nullptr).status.ok());
  ASSERT_TRUE(testing::Flush(r.e, *r.oracle).status.ok());
  // The disk zeroed it; putting the old data back is also legal for trim.
  ASSERT_TRUE(r.disk->media().Write(0, 4096, a.data()).ok());
  r.stack.PowerCut();
  EXPECT_TRUE(r.oracle->VerifyNow().ok());
}

TEST(OracleTest, CountsAndChecksBlocksAcrossItsGroupsOfEight) {
  // The oracle indexes blocks by groups of eight; writes that straddle a
  // group, and blocks far apart, are tracked and checked one by one.
  Rig r;
  auto a = Pattern(3072, 1), b = Pattern(512, 2);
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 3072, a, kFua).status.ok());  // blocks 6..11
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 1 << 20, b).status.ok());     // block 2048
  EXPECT_EQ(r.oracle->blocks_tracked(), 7u);
  ASSERT_TRUE(r.disk->media().Write(4096 + 512, 512, b.data()).ok());  // corrupt block 9
  r.stack.PowerCut();
  OracleReport rep = r.oracle->VerifyNow();
  EXPECT_EQ(rep.blocks_checked, 7u);
  ASSERT_EQ(rep.violations.size(), 1u) << rep.Summary();
  EXPECT_EQ(rep.violations[0].offset, 4608u);
  EXPECT_EQ(rep.blocks_older, 1u) << "the unflushed write at 1 MiB was lost";
}

// A disk without a volatile cache makes every write durable as it
// completes: one that keeps the promise passes, and a block rewritten
// without a FLUSH keeps one version, not one per write; one that says so
// and caches anyway is caught.
TEST(OracleTest, WritesAreDurableOnCompletionBelowAStackWithoutAVolatileCache) {
  Engine e;
  Stack stack{e, "no-cache", 1, DataMode()};
  auto& disk = stack.Adopt(std::make_unique<CachedDisk>(e, 1 << 24, /*claims_cache=*/false));
  disk.write_through = true;
  auto& oracle = stack.Adopt(std::make_unique<Oracle>(e, disk));
  for (int i = 0; i < 1000; ++i) {
    auto a = Pattern(4096, i);
    ASSERT_TRUE(testing::Write(e, oracle, 0, a).status.ok());
  }
  auto b = Pattern(4096, 7);
  ASSERT_TRUE(testing::Write(e, oracle, 8192, b).status.ok());
  EXPECT_EQ(oracle.blocks_tracked(), 16u);
  EXPECT_EQ(oracle.VersionsHeld(), 16u);
  stack.PowerCut();
  OracleReport rep = oracle.VerifyNow();
  EXPECT_TRUE(rep.ok()) << rep.Summary();
  EXPECT_EQ(rep.blocks_newest, 16u);

  Engine e2;
  Stack liar{e2, "liar", 1, DataMode()};
  auto& disk2 = liar.Adopt(std::make_unique<CachedDisk>(e2, 1 << 24, /*claims_cache=*/false));
  auto& oracle2 = liar.Adopt(std::make_unique<Oracle>(e2, disk2));
  ASSERT_TRUE(testing::Write(e2, oracle2, 4096, b).status.ok());
  liar.PowerCut();
  rep = oracle2.VerifyNow();
  EXPECT_EQ(rep.violations.size(), 8u) << rep.Summary();
}

// A read that overlaps a write which completes, durable, before it does
// may return the old version: the write pruned it, so the oracle does not
// flag the read.
TEST(OracleTest, AReadOverlappingADurableWriteIsNotFlagged) {
  Engine e;
  Stack stack{e, "no-cache", 1, DataMode()};
  auto& disk = stack.Adopt(std::make_unique<CachedDisk>(e, 1 << 24, /*claims_cache=*/false));
  disk.write_through = true;
  disk.read_at_submit = true;
  auto& oracle = stack.Adopt(std::make_unique<Oracle>(e, disk));
  auto a = Pattern(4096, 1), b = Pattern(4096, 2);
  ASSERT_TRUE(testing::Write(e, oracle, 0, a).status.ok());
  std::vector<uint8_t> out(4096);
  int done = 0;
  oracle.Submit(Request{
      .op = Op::kRead, .length = 4096, .data = out.data(), .done = [&](Status) { ++done; }});
  e.After(1_us, [&] {
    oracle.Submit(Request{
        .op = Op::kWrite, .length = 4096, .data = b.data(), .done = [&](Status) { ++done; }});
  });
  VirtualDriver(e).RunUntilIdle();
  ASSERT_EQ(done, 2);
  EXPECT_EQ(out, a);  // the old version, legitimately
  EXPECT_TRUE(oracle.read_violations().empty());
  // A stale read that overlapped nothing is still caught.
  ASSERT_TRUE(disk.media().Write(0, 4096, a.data()).ok());  // behind its back
  ASSERT_TRUE(testing::Read(e, oracle, 0, out).status.ok());
  EXPECT_EQ(oracle.read_violations().size(), 8u);

  // So is one that overlapped a write that pruned nothing (a volatile
  // cache, no FUA): every version the read could return is still known.
  Rig r;
  r.disk->read_at_submit = true;  // reads the media, not its cache: stale
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, a).status.ok());
  done = 0;
  r.oracle->Submit(Request{
      .op = Op::kRead, .length = 4096, .data = out.data(), .done = [&](Status) { ++done; }});
  r.e.After(1_us, [&] {
    r.oracle->Submit(Request{
        .op = Op::kWrite, .length = 4096, .data = b.data(), .done = [&](Status) { ++done; }});
  });
  VirtualDriver(r.e).RunUntilIdle();
  ASSERT_EQ(done, 2);
  EXPECT_EQ(r.oracle->read_violations().size(), 8u) << "zeros, after `a` was acknowledged";
}

// With a volatile cache and no FLUSH every version stays acceptable; the
// list of blocks a FLUSH must visit still stays bounded when FUA writes
// settle them.
TEST(OracleTest, FuaWritesWithoutFlushKeepOneVersionPerBlock) {
  Rig r;
  for (int i = 0; i < 3000; ++i) {
    const uint64_t off = static_cast<uint64_t>(i % 700) * 4096;
    auto a = Pattern(4096, i);
    ASSERT_TRUE(testing::Write(r.e, *r.oracle, off, a, kFua).status.ok());
  }
  EXPECT_EQ(r.oracle->VersionsHeld(), 700u * 8);
  r.stack.PowerCut();
  OracleReport rep = r.oracle->VerifyNow();
  EXPECT_TRUE(rep.ok()) << rep.Summary();
  EXPECT_EQ(rep.blocks_newest, 700u * 8);
}

}  // namespace oracle_test
}  // namespace storlab
