// The thin layer: provisioning on first write, zeros without touching the
// pool, ENOSPC or queueing when the pool is full, discards returning
// chunks, the metadata commit rules and what a power cut undoes.
#include <gtest/gtest.h>

#include "tests/sim/thin_test_util.h"

namespace storlab {
namespace thin_test {

using namespace time_literals;
using testing::DoIo;
using testing::kChunk;
using testing::Make;
using testing::Pattern;
using testing::ThinText;
using testing::WriteChunk;

TEST(ThinTest, UnwrittenChunksReadZerosWithoutTouchingThePool) {
  Engine e;
  auto r = Make(e, ThinText(""));
  EXPECT_EQ(r.vol.geometry().capacity, 1u << 30);
  std::vector<uint8_t> buf(1 << 20, 0xAA);
  auto res = testing::Read(e, r.vol, 512 << 20, buf);
  ASSERT_TRUE(res.status.ok());
  EXPECT_EQ(buf, std::vector<uint8_t>(1 << 20, 0));
  EXPECT_EQ(r.pool.stats().op(Op::kRead).ops, 0u);
  EXPECT_EQ(res.latency, Nanos(0));
}

TEST(ThinTest, FirstWriteProvisionsAChunkAndZeroesTheRest) {
  Engine e;
  auto r = Make(e, ThinText(""));
  auto w = Pattern(4096, 1);
  auto res = testing::Write(e, r.vol, 100 * kChunk + 8192, w);
  ASSERT_TRUE(res.status.ok());
  EXPECT_EQ(res.latency, 200_us);  // zero the chunk, then write
  EXPECT_EQ(r.vol.mapped_bytes(), kChunk);
  EXPECT_EQ(r.pool.stats().op(Op::kWrite).bytes, kChunk + 4096);
  std::vector<uint8_t> back(kChunk);
  ASSERT_TRUE(testing::Read(e, r.vol, 100 * kChunk, back).status.ok());
  std::vector<uint8_t> expect(kChunk, 0);
  std::copy(w.begin(), w.end(), expect.begin() + 8192);
  EXPECT_EQ(back, expect);
  // A rewrite costs one write; a whole new chunk needs no zeroing.
  EXPECT_EQ(testing::Write(e, r.vol, 100 * kChunk, w).latency, 100_us);
  auto whole = Pattern(kChunk, 2);
  EXPECT_EQ(testing::Write(e, r.vol, 7 * kChunk, whole).latency, 100_us);
  EXPECT_EQ(r.vol.mapped_bytes(), 2 * kChunk);
  EXPECT_DOUBLE_EQ(r.vol.data_percent(), 100.0 * 2 / 16);
}

TEST(ThinTest, FullPoolFailsWithEnospcAtOnceAndKeepsWhatItHolds) {
  Engine e;
  auto r = Make(e, ThinText("when_full = \"error\""));
  for (uint64_t c = 0; c < 16; ++c) ASSERT_TRUE(WriteChunk(e, r.vol, c * 1000).status.ok());
  EXPECT_EQ(r.vol.pool_free_bytes(), 0u);
  EXPECT_DOUBLE_EQ(r.vol.data_percent(), 100.0);
  auto full = WriteChunk(e, r.vol, 16000);
  EXPECT_EQ(full.status.code(), Status::Code::kNoSpace);
  EXPECT_NE(full.status.message().find("thin pool is out of data space"), std::string::npos);
  // dm-thin commits first in case that frees chunks (a flush of the data
  // device: 100 us); full for real, it fails. Then at once.
  EXPECT_EQ(full.latency, 100_us);
  EXPECT_EQ(WriteChunk(e, r.vol, 16001).latency, Nanos(0));
  // A write that spans a mapped and a new chunk fails whole, and leaves the
  // mapped one untouched.
  auto span = Pattern(2 * kChunk, 77);
  EXPECT_EQ(testing::Write(e, r.vol, 5000 * kChunk, span).status.code(), Status::Code::kNoSpace);
  EXPECT_EQ(r.vol.metadata().mapped(), 16u);
  // Mapped chunks still take writes; reads still work; nothing was lost,
  // not even across a flush and a power cut.
  EXPECT_TRUE(WriteChunk(e, r.vol, 5000).status.ok());
  std::vector<uint8_t> buf(4096);
  EXPECT_TRUE(testing::Read(e, r.vol, 16000 * kChunk, buf).status.ok());
  ASSERT_TRUE(testing::Flush(e, r.vol).status.ok());
  r.s.stack->PowerCut();
  for (uint64_t c = 0; c < 16; ++c) {
    ASSERT_TRUE(testing::Read(e, r.vol, c * 1000 * kChunk, buf).status.ok());
    EXPECT_EQ(buf, Pattern(4096, c * 1000 + 1)) << "chunk " << c * 1000;
  }
}

TEST(ThinTest, FullPoolQueuesThenFailsAfterTheTimeout) {
  for (std::string err : {"enospc", "eio"}) {
    Engine e;
    auto r = Make(e, ThinText("no_space_error = \"" + err + "\""));
    for (uint64_t c = 0; c < 16; ++c) ASSERT_TRUE(WriteChunk(e, r.vol, c).status.ok());
    const Nanos start = e.now();
    auto res = WriteChunk(e, r.vol, 20);
    EXPECT_EQ(res.status.code(), err == "enospc" ? Status::Code::kNoSpace : Status::Code::kIoError);
    EXPECT_EQ(res.done_at - start, 100_us + 60_s);  // a commit, then dm-thin's no_space_timeout
    // After the timeout the pool fails new allocations at once.
    EXPECT_EQ(WriteChunk(e, r.vol, 21).latency, Nanos(0));
  }
}

TEST(ThinTest, QueuedWritesGoOnWhenSpaceComesBack) {
  Engine e;
  auto r = Make(e, ThinText("", "2MiB") + "");
  r.vol.SetOtherVolumesUsage(1 << 20);  // another VM holds half the pool
  for (uint64_t c = 0; c < 16; ++c) ASSERT_TRUE(WriteChunk(e, r.vol, c).status.ok());
  bool done = false;
  Status st;
  auto w = Pattern(4096, 9);
  Request q{.op = Op::kWrite,
            .offset = 40 * kChunk,
            .length = 4096,
            .data = w.data(),
            .done = [&](Status s) {
              st = std::move(s);
              done = true;
            }};
  r.vol.Submit(std::move(q));
  VirtualDriver(e).RunUntil(e.now() + 10_s);
  EXPECT_FALSE(done);
  EXPECT_EQ(r.vol.waiting_for_space(), 1u);
  r.vol.SetOtherVolumesUsage(512 * 1024);  // the other VM discards
  VirtualDriver(e).RunUntilIdle();
  EXPECT_TRUE(done);
  EXPECT_TRUE(st.ok());
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(testing::Read(e, r.vol, 40 * kChunk, back).status.ok());
  EXPECT_EQ(back, w);
  // Growing the pool (lvextend) helps too; it cannot shrink.
  EXPECT_FALSE(r.vol.ExtendPool(1 << 20).ok());
  EXPECT_FALSE(r.vol.ExtendPool(4 << 20).ok());  // larger than the data device
}

TEST(ThinTest, DiscardReturnsWholeChunksAfterTheCommit) {
  Engine e;
  auto r = Make(e, ThinText("when_full = \"error\""));
  for (uint64_t c = 0; c < 16; ++c) ASSERT_TRUE(WriteChunk(e, r.vol, c).status.ok());
  ASSERT_TRUE(testing::Flush(e, r.vol).status.ok());
  // Half a chunk: nothing returns. Chunks 3 and 4 whole: both return.
  ASSERT_TRUE(DoIo(e, r.vol, Op::kTrim, 0, kChunk / 2, nullptr).status.ok());
  ASSERT_TRUE(DoIo(e, r.vol, Op::kTrim, 3 * kChunk, 2 * kChunk, nullptr).status.ok());
  EXPECT_EQ(r.vol.mapped_bytes(), 14 * kChunk);
  std::vector<uint8_t> buf(4096, 1);
  ASSERT_TRUE(testing::Read(e, r.vol, 3 * kChunk, buf).status.ok());
  EXPECT_EQ(buf, std::vector<uint8_t>(4096, 0));
  // Not reusable before the commit (a power cut would map them back), but
  // a write that finds the pool full forces one (dm-thin alloc_data_block).
  EXPECT_EQ(r.vol.pool_free_bytes(), 0u);
  const uint64_t commits = r.vol.commits();
  EXPECT_TRUE(WriteChunk(e, r.vol, 100).status.ok());
  EXPECT_EQ(r.vol.commits(), commits + 1);
  EXPECT_EQ(r.vol.pool_free_bytes(), kChunk);
  EXPECT_TRUE(WriteChunk(e, r.vol, 101).status.ok());
  // Now it is full for real: the forced commit frees nothing.
  EXPECT_EQ(WriteChunk(e, r.vol, 102).status.code(), Status::Code::kNoSpace);
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(testing::Read(e, r.vol, 101 * kChunk, back).status.ok());
  EXPECT_EQ(back, Pattern(4096, 102));
}

TEST(ThinTest, PowerCutUnmapsWhatWasProvisionedSinceTheLastCommit) {
  Engine e;
  auto r = Make(e, ThinText("commit_period = \"0s\""));
  auto a = Pattern(4096, 1), b = Pattern(4096, 2), c = Pattern(4096, 3);
  ASSERT_TRUE(testing::Write(e, r.vol, 0, a).status.ok());
  ASSERT_TRUE(testing::Flush(e, r.vol).status.ok());
  ASSERT_TRUE(testing::Write(e, r.vol, 5 * kChunk, b).status.ok());        // not committed
  ASSERT_TRUE(testing::Write(e, r.vol, 9 * kChunk, c, kFua).status.ok());  // FUA commits
  ASSERT_TRUE(testing::Write(e, r.vol, 0, b).status.ok());  // rewrite of a committed chunk
  EXPECT_EQ(r.vol.metadata().mapped(), 3u);
  EXPECT_EQ(r.vol.metadata().committed_mapped(), 3u);  // the FUA commit took chunk 5 too
  auto d = Pattern(4096, 4);
  ASSERT_TRUE(testing::Write(e, r.vol, 12 * kChunk, d).status.ok());  // not committed
  r.s.stack->PowerCut();
  EXPECT_EQ(r.vol.metadata().mapped(), 3u);
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(testing::Read(e, r.vol, 12 * kChunk, back).status.ok());
  EXPECT_EQ(back, std::vector<uint8_t>(4096, 0)) << "its data reached the pool, but unmapped";
  ASSERT_TRUE(testing::Read(e, r.vol, 9 * kChunk, back).status.ok());
  EXPECT_EQ(back, c);
  ASSERT_TRUE(testing::Read(e, r.vol, 0, back).status.ok());
  EXPECT_EQ(back, b);  // the pool is a RAM disk: the rewrite is durable
}

TEST(ThinTest, MetadataCommitsEverySecond) {
  Engine e;
  auto r = Make(e, ThinText(""));
  ASSERT_TRUE(WriteChunk(e, r.vol, 3).status.ok());
  EXPECT_EQ(r.vol.metadata().committed_mapped(), 0u);
  VirtualDriver(e).RunUntilIdle();  // the periodic commit, then nothing
  EXPECT_EQ(r.vol.metadata().committed_mapped(), 1u);
  EXPECT_EQ(r.vol.commits(), 1u);
  EXPECT_LE(e.now(), 1_s + 1_ms);
  r.s.stack->PowerCut();
  EXPECT_EQ(r.vol.metadata().mapped(), 1u);
}

TEST(ThinTest, WriteZeroesProvisionsNothing) {
  Engine e;
  auto r = Make(e, ThinText(""));
  auto w = Pattern(2 * kChunk, 1);
  ASSERT_TRUE(testing::Write(e, r.vol, 0, w).status.ok());
  ASSERT_TRUE(DoIo(e, r.vol, Op::kWriteZeroes, kChunk / 2, 10 * kChunk, nullptr).status.ok());
  EXPECT_EQ(r.vol.mapped_bytes(), 2 * kChunk);
  std::vector<uint8_t> back(2 * kChunk);
  ASSERT_TRUE(testing::Read(e, r.vol, 0, back).status.ok());
  std::fill(w.begin() + kChunk / 2, w.end(), 0);
  EXPECT_EQ(back, w);
}

TEST(ThinTest, RandomIoMatchesAModel) {
  Engine e;
  auto r = Make(e, ThinText("", "64MiB"));
  const uint64_t span = 32 << 20;
  std::vector<uint8_t> model(span, 0);
  Random rng(3);
  for (int i = 0; i < 300; ++i) {
    const uint64_t len = 512 * (1 + rng.Uniform(300));
    const uint64_t off = rng.Uniform((span - len) / 512) * 512;
    if (i % 10 == 9) {
      const uint64_t lo = (off + kChunk - 1) / kChunk * kChunk, hi = (off + len) / kChunk * kChunk;
      ASSERT_TRUE(DoIo(e, r.vol, Op::kTrim, off, len, nullptr).status.ok());
      if (lo < hi) std::fill(model.begin() + lo, model.begin() + hi, 0);
      // (the partial chunks passed down read as zeros on a RAM disk)
      std::fill(model.begin() + off, model.begin() + off + len, 0);
      continue;
    }
    auto w = Pattern(len, 100 + i);
    ASSERT_TRUE(testing::Write(e, r.vol, off, w).status.ok());
    std::copy(w.begin(), w.end(), model.begin() + off);
  }
  std::vector<uint8_t> back(span);
  ASSERT_TRUE(testing::Read(e, r.vol, 0, back).status.ok());
  EXPECT_EQ(back, model);
}

TEST(ThinTest, TimingOnlyRunsProvisionAndCountTheSame) {
  // Without data the mapping, the zeroing and the pool's I/O are the same.
  std::vector<uint64_t> pool_ops;
  for (auto kind : {DataMode::Kind::kRam, DataMode::Kind::kNone}) {
    Engine e;
    auto s = testing::MustLoadText(ThinText("volumes = 2\nwhen_full = \"error\""), e, 1, kind);
    auto& t = dynamic_cast<ThinNode&>(s.stack->root());
    for (uint64_t c = 0; c < 20; ++c) {
      DoIo(e, t, Op::kWrite, (c % 2) * (1u << 30) + c * 3 * kChunk, 4096, nullptr);
    }
    ASSERT_TRUE(DoIo(e, t, Op::kTrim, 0, 4 * kChunk, nullptr).status.ok());
    ASSERT_TRUE(testing::Flush(e, t).status.ok());
    EXPECT_EQ(t.metadata().committed_mapped(), 15u);  // 16 fit, one discarded
    s.stack->PowerCut();
    const Node& pool = *s.stack->Find("pool");
    pool_ops.push_back(pool.stats().op(Op::kWrite).ops * 1000 + pool.stats().op(Op::kFlush).ops);
  }
  EXPECT_EQ(pool_ops[0], pool_ops[1]);
}

TEST(ThinTest, BadParameters) {
  struct Case {
    std::string keys, expect, pool = "1MiB", size = "1GiB";
  };
  const Case cases[] = {
      {"chunk = \"96KiB\"", "key 'chunk': must be a multiple of 64KiB"},
      {"pool_size = \"2MiB\"", "key 'pool_size': is larger than the data device"},
      {"others_used = \"3MiB\"", "key 'others_used': is larger than the pool"},
      {"when_full = \"panic\"", "key 'when_full'"},
      {"commit_period = 5", "key 'commit_period'"},
      {"pool_size = \"32KiB\"", "key 'pool_size': holds less than one chunk"},
      {"chunk = \"32KiB\"", "key 'chunk'"},
      {"volumes = 0", "key 'volumes'"},
      {"volumes = 2", "key 'virtual_size': must be a multiple of the chunk", "1MiB", "1000KiB"},
      {"", "key 'pool_size': holds less than one chunk", "32KiB"},  // a tiny data device
      {"no_space_error = \"eagain\"", "key 'no_space_error'"},
  };
  for (const Case& c : cases) {
    Engine e;
    auto res = LoadStackText(ThinText(c.keys, c.pool, c.size), "t.toml", ".", e, BuildOptions{});
    ASSERT_FALSE(res.ok()) << c.keys;
    EXPECT_EQ(res.status().message().rfind("t.toml:", 0), 0u) << res.status().message();
    EXPECT_NE(res.status().message().find(c.expect), std::string::npos) << res.status().message();
  }
  Engine e;
  auto res = LoadStackText("[node.v]\ntype = \"thin\"\nchild = \"p\"\n[node.p]\ntype = \"ram\"\n",
                           "t.toml", ".", e, BuildOptions{});
  ASSERT_FALSE(res.ok());
  EXPECT_NE(res.status().message().find("key 'virtual_size': is required"), std::string::npos);
}

}  // namespace thin_test
}  // namespace storlab
