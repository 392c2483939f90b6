// The thin layer's pool with several volumes: overcommit, one pool's space
// shared by every volume, one metadata transaction for all of them, and the
// oracle across power cuts with discards in the mix.
#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "sim/oracle.h"
#include "tests/sim/block_fill.h"
#include "tests/sim/thin_test_util.h"

namespace storlab {
namespace thin_pool_test {

using testing::DoIo;
using testing::kChunk;
using testing::Make;
using testing::Pattern;
using testing::ThinText;

constexpr uint64_t kVolume = uint64_t{1} << 30;

// Writes the first page of chunk `c` of volume `v`.
testing::IoResult WriteIn(Engine& e, ThinNode& t, uint32_t v, uint64_t c, uint32_t flags = 0) {
  auto w = Pattern(4096, v * 1000 + c + 1);
  return testing::Write(e, t, t.volume_offset(v) + c * kChunk, w, flags);
}
std::vector<uint8_t> ReadIn(Engine& e, ThinNode& t, uint32_t v, uint64_t c) {
  std::vector<uint8_t> back(4096, 0xAA);
  EXPECT_TRUE(testing::Read(e, t, t.volume_offset(v) + c * kChunk, back).status.ok());
  return back;
}

TEST(ThinPoolTest, OvercommittedVolumesShareOnePool) {
  // Four 1 GiB volumes in a 1 MiB pool (16 chunks): 4096 times overcommitted.
  Engine e;
  auto r = Make(e, ThinText("volumes = 4\nwhen_full = \"error\""));
  ThinNode& t = r.vol;
  EXPECT_EQ(t.volumes(), 4u);
  EXPECT_EQ(t.geometry().capacity, 4 * kVolume);
  EXPECT_EQ(t.volume_offset(3), 3 * kVolume);
  for (uint32_t v = 0; v < 4; ++v) {
    for (uint64_t c = 0; c < 4; ++c) ASSERT_TRUE(WriteIn(e, t, v, c * 100).status.ok());
  }
  for (uint32_t v = 0; v < 4; ++v) EXPECT_EQ(t.volume_mapped_bytes(v), 4 * kChunk) << v;
  EXPECT_DOUBLE_EQ(t.data_percent(), 100.0);
  // Any volume's next new chunk finds the pool full; the data stays.
  EXPECT_EQ(WriteIn(e, t, 2, 7).status.code(), Status::Code::kNoSpace);
  EXPECT_EQ(WriteIn(e, t, 0, 9).status.code(), Status::Code::kNoSpace);
  for (uint32_t v = 0; v < 4; ++v) {
    for (uint64_t c = 0; c < 4; ++c) {
      EXPECT_EQ(ReadIn(e, t, v, c * 100), Pattern(4096, v * 1000 + c * 100 + 1)) << v << "/" << c;
    }
  }
  // The same chunk index in another volume is another chunk.
  EXPECT_EQ(ReadIn(e, t, 1, 1), std::vector<uint8_t>(4096, 0));
  StatList stats;
  t.AppendStats(stats);
  bool found = false;
  for (const StatValue& s : stats) {
    if (s.name == "volume3_mapped_bytes") found = s.value == 4.0 * kChunk;
  }
  EXPECT_TRUE(found);
}

TEST(ThinPoolTest, ADiscardInOneVolumeMakesRoomForAnother) {
  Engine e;
  auto r = Make(e, ThinText("volumes = 2\nwhen_full = \"error\""));
  ThinNode& t = r.vol;
  for (uint64_t c = 0; c < 16; ++c) ASSERT_TRUE(WriteIn(e, t, 0, c).status.ok());
  EXPECT_EQ(WriteIn(e, t, 1, 0).status.code(), Status::Code::kNoSpace);
  // fstrim in volume 0 (no flush): volume 1's write forces the commit.
  ASSERT_TRUE(DoIo(e, t, Op::kTrim, 4 * kChunk, 3 * kChunk, nullptr).status.ok());
  for (uint64_t c = 0; c < 3; ++c) ASSERT_TRUE(WriteIn(e, t, 1, c).status.ok()) << c;
  EXPECT_EQ(WriteIn(e, t, 1, 3).status.code(), Status::Code::kNoSpace);
  EXPECT_EQ(t.volume_mapped_bytes(0), 13 * kChunk);
  EXPECT_EQ(t.volume_mapped_bytes(1), 3 * kChunk);
  EXPECT_EQ(ReadIn(e, t, 1, 2), Pattern(4096, 1000 + 2 + 1));
  EXPECT_EQ(ReadIn(e, t, 0, 5), std::vector<uint8_t>(4096, 0));
  EXPECT_EQ(ReadIn(e, t, 0, 7), Pattern(4096, 7 + 1));
}

TEST(ThinPoolTest, OneVolumesFlushCommitsEveryVolumesMappings) {
  // dm-thin keeps one metadata transaction per pool: a FLUSH on any thin
  // volume commits all of them. A power cut before it loses them all.
  for (bool flush : {false, true}) {
    Engine e;
    auto r = Make(e, ThinText("volumes = 3\ncommit_period = \"0s\""));
    ThinNode& t = r.vol;
    ASSERT_TRUE(WriteIn(e, t, 0, 1).status.ok());
    ASSERT_TRUE(WriteIn(e, t, 2, 5).status.ok());
    if (flush) {
      ASSERT_TRUE(DoIo(e, t, Op::kFlush, 0, 0, nullptr).status.ok());
    }
    ASSERT_TRUE(WriteIn(e, t, 1, 3).status.ok());  // after the flush: not committed
    r.s.stack->PowerCut();
    EXPECT_EQ(t.metadata().mapped(), flush ? 2u : 0u);
    EXPECT_EQ(ReadIn(e, t, 0, 1), flush ? Pattern(4096, 2) : std::vector<uint8_t>(4096, 0));
    EXPECT_EQ(ReadIn(e, t, 2, 5), flush ? Pattern(4096, 2006) : std::vector<uint8_t>(4096, 0));
    EXPECT_EQ(ReadIn(e, t, 1, 3), std::vector<uint8_t>(4096, 0));
    // The pool took its chunks back: all 16 are free or mapped again.
    EXPECT_EQ(t.pool_free_bytes(), (16 - t.metadata().mapped()) * kChunk);
  }
}

TEST(ThinPoolTest, OracleFindsNothingLostWithDiscardsAcrossVolumes) {
  // Writes, reads, FUA writes, flushes and whole- or part-chunk discards at
  // depth 8 over four volumes of a pool that never fills; then a power cut
  // at a random step, a check, and the same again on the surviving state.
  for (uint64_t seed : {1, 2, 3, 4}) {
    Engine e;
    auto r = Make(e, ThinText("volumes = 4", "8MiB", "2MiB"));
    Oracle& oracle = r.s.stack->Adopt(std::make_unique<Oracle>(e, r.vol));
    Random rng(seed, "thin-oracle");
    const uint64_t pages = r.vol.geometry().capacity / 4096;
    std::vector<std::vector<uint64_t>> bufs(8, std::vector<uint64_t>(32 * 4096 / 8));
    for (int round = 0; round < 3; ++round) {
      bool stop = false;
      uint64_t errors = 0;
      std::function<void(int)> issue = [&](int slot) {
        if (stop) return;
        const uint64_t k = rng.Uniform(20);
        const Op op = k < 6 ? Op::kRead : k < 16 ? Op::kWrite : k < 18 ? Op::kTrim : Op::kFlush;
        const uint64_t length = 4096 * (1 + rng.Uniform(32));
        const uint64_t offset = rng.Uniform(pages - 32) * 4096;
        testing::FillBlocks(rng, bufs[slot].data(), length / 8);
        uint8_t* data = reinterpret_cast<uint8_t*>(bufs[slot].data());
        oracle.Submit(Request{.op = op,
                              .flags = k == 15 ? kFua : 0u,
                              .offset = offset,
                              .length = length,
                              .data = op == Op::kTrim ? nullptr : data,
                              .done = [&, slot](Status st) {
                                errors += st.ok() ? 0 : 1;
                                issue(slot);
                              }});
      };
      for (int slot = 0; slot < 8; ++slot) issue(slot);
      const uint64_t steps = 1000 + rng.Uniform(4000);
      for (uint64_t i = 0; i < steps && e.Step(); ++i) {
      }
      stop = true;
      EXPECT_EQ(errors, 0u);
      ASSERT_TRUE(oracle.read_violations().empty()) << "seed " << seed;
      r.s.stack->PowerCut();
      OracleReport rep = oracle.VerifyNow();
      EXPECT_TRUE(rep.ok()) << "seed " << seed << " round " << round << "\n" << rep.Summary();
      EXPECT_GT(rep.blocks_checked, 0u);
    }
  }
}

}  // namespace thin_pool_test
}  // namespace storlab
