// block_error_percentiles (fio 3.33 io_u.c trim_block_info(), iolog.c
// unlog_io_piece(), stat.c calc_block_percentiles() / show_block_infos();
// block_infos.h): trims per trim-sized block of the job's one file, as
// percentiles and a count per state, in the normal and JSON outputs.
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_block_error_test {

using testing::RamStack;
using testing::Split;

testing::Sim Trims(const std::string& args) {
  return testing::RunArgs(RamStack(), Split("--name=bt --filename=/dev/sdb "
                                            "--block_error_percentiles=1 " +
                                            args));
}

// Real fio 3.33 on a loop device, `fio --name=bt --filename=/dev/loop0
// --rw=trim --bs=64k --size=128k --block_error_percentiles=1
// --number_ios=1`: the one case it reports without tripping its
// compare_block_infos() (block_infos.h).
TEST(BlockErrorTest, OneTrimmedBlockPrintsAsRealFio) {
  auto s = Trims("--rw=trim --bs=64k --size=128k --number_ios=1");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const std::string want =
      "  block lifetime percentiles :\n"
      "   | 1.00th=1, 5.00th=1, 10.00th=1, 20.00th=1, 30.00th=1, 40.00th=1, 50.00th=1,\n"
      "   | 60.00th=1, 70.00th=1, 80.00th=1, 90.00th=1, 95.00th=1, 99.00th=1,\n"
      "   | 99.50th=1, 99.90th=1, 99.95th=1, 99.99th=1\n"
      "        states               : unwritten=1, trimmed=1, written=0, trim failure=0, "
      "write failure=0\n";
  EXPECT_NE(s.Normal().find(want), std::string::npos) << s.Normal();
  const auto j = s.JsonObject()["jobs"][0];
  ASSERT_TRUE(j.contains("block")) << j.dump(1);
  EXPECT_EQ(j["block"]["percentiles"].size(), 17u);
  EXPECT_EQ(j["block"]["percentiles"]["1.000000"], 1);
  EXPECT_EQ(j["block"]["percentiles"]["99.990000"], 1);
  EXPECT_EQ(j["block"]["states"].dump(),
            R"({"unwritten":1,"trimmed":1,"written":0,"trim failure":0,"write failure":0})");
}

// Each loop starts the sequential trims over (real fio 3.33 on a loop
// device: issued rwts total=0,0,12,0).
TEST(BlockErrorTest, EveryLoopTrimsEachBlockOnceMore) {
  auto s = Trims("--rw=trim --bs=64k --size=256k --loops=3");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).dir[kTrim].total_ios, 12u);
  const auto b = s.JsonObject()["jobs"][0]["block"];
  for (const auto& [k, v] : b["percentiles"].items()) EXPECT_EQ(v, 3) << k;
  EXPECT_EQ(b["states"]["trimmed"], 4);
  EXPECT_EQ(b["states"]["unwritten"], 0);
}

// Random trims with norandommap, five passes over 64 blocks: nearly every
// block trimmed, some several times; the percentiles rise with the
// percentile and skip the blocks never trimmed.
TEST(BlockErrorTest, RandomTrimsGiveRisingPercentiles) {
  auto s = Trims(
      "--rw=randtrim --bs=4k --size=256k --norandommap --loops=5 "
      "--percentile_list=10:50:90:99");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const BlockInfos& b = s.Job(0).blocks;
  ASSERT_EQ(b.size(), 64u);
  const auto sum = b.Summarize({10, 50, 90, 99});
  ASSERT_EQ(sum.percentiles.size(), 4u);
  EXPECT_EQ(sum.states[BlockInfos::kUninit] + sum.states[BlockInfos::kTrimmed], 64u);
  EXPECT_GT(sum.states[BlockInfos::kTrimmed], 50u);
  for (size_t i = 1; i < 4; ++i) EXPECT_LE(sum.percentiles[i - 1], sum.percentiles[i]);
  EXPECT_GE(sum.percentiles[0], 1u);
  EXPECT_GE(sum.percentiles[3], 10u);
  EXPECT_EQ(s.Job(0).dir[kTrim].total_ios, 320u);
}

// filesetup.c setup_files(): more than 8192 blocks (or none) fail the job
// as real fio 3.33 does ("cannot calculate block histogram with 16384 trim
// blocks, maximum 8192", err=22).
TEST(BlockErrorTest, TooManyBlocksFailTheJob) {
  auto s = Trims("--rw=randtrim --bs=4k --size=64m");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).error, 22);
  EXPECT_EQ(s.Job(0).verror,
            "file:filesetup.c:1287, func=block_error_hist, error=Invalid argument");
  EXPECT_EQ(s.Job(0).dir[kTrim].total_ios, 0u);
  EXPECT_NE(s.Json().find("\"error\" : 22"), std::string::npos);
}

// init.c fixup_options(): one file per job (real fio exits 1 with this).
TEST(BlockErrorTest, TwoFilesAreRefused) {
  auto s = testing::RunArgs(RamStack(), Split("--name=bt --filename=/dev/sdb:/dev/sdc "
                                              "--rw=randtrim --bs=64k --size=8m "
                                              "--block_error_percentiles=1"));
  EXPECT_NE(s.status.message().find("block error histogram only available with a single file per "
                                    "job, but 2 files provided"),
            std::string::npos)
      << s.status.message();
}

TEST(BlockErrorTest, OffByDefault) {
  auto s = testing::RunArgs(RamStack(),
                            Split("--name=bt --filename=/dev/sdb --rw=trim --bs=64k --size=128k"));
  ASSERT_TRUE(s.status.ok());
  EXPECT_TRUE(s.Job(0).blocks.empty());
  EXPECT_FALSE(s.JsonObject()["jobs"][0].contains("block"));
  EXPECT_EQ(s.Normal().find("block lifetime"), std::string::npos);
}

// The states: a failure sticks (later trims leave it), the sort puts the
// unwritten first and the failures last, and a percentile of 100 takes
// the last block (fio reads past its array there).
TEST(BlockErrorTest, FailuresStickAndSortLast) {
  BlockInfos b;
  b.Reset(4);
  b.Trimmed(0);
  b.Trimmed(0);
  b.Trimmed(1);
  b.Failed(2, /*trim=*/false);
  b.Trimmed(2);
  b.Failed(0, /*trim=*/true);
  b.Trimmed(9);  // past the end: ignored, as one spanning blocks counts once
  const auto s = b.Summarize({1, 50, 100});
  EXPECT_EQ(s.states[BlockInfos::kUninit], 1u);
  EXPECT_EQ(s.states[BlockInfos::kTrimmed], 1u);
  EXPECT_EQ(s.states[BlockInfos::kTrimFailure], 1u);
  EXPECT_EQ(s.states[BlockInfos::kWriteFailure], 1u);
  // Sorted: unwritten, trimmed(1), write failure(0), trim failure(2).
  ASSERT_EQ(s.percentiles.size(), 3u);
  EXPECT_EQ(s.percentiles[0], 1u);  // 1 %: the first written
  EXPECT_EQ(s.percentiles[1], 0u);  // 50 %: index 1 + 1 = the write failure
  EXPECT_EQ(s.percentiles[2], 2u);  // 100 %: the last
}

TEST(BlockErrorTest, NothingTrimmedPrintsTheCountsOnly) {
  BlockInfos b;
  b.Reset(3);
  std::string out;
  b.AppendNormal({50}, &out);
  EXPECT_EQ(out,
            "  block lifetime percentiles :\n   |        states               : unwritten=3, "
            "trimmed=0, written=0, trim failure=0, write failure=0\n");
}

}  // namespace fio_block_error_test
}  // namespace storlab::fio
