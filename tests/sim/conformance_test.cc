// The conformance suite every node type must pass: each catalog stack, and
// each stack under tests/sim/conformance/*.toml (layers in configurations
// the catalog does not cover). Add a model → add a stack that uses it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/oracle.h"
#include "sim/profile/catalog.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace conformance_test {

using testing::DoIo;
using testing::Pattern;

class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  LoadedStack Load(Engine& e, uint64_t seed = 1) { return testing::MustLoad(GetParam(), e, seed); }
  // Offsets spread over the device (start, middle, end), aligned.
  std::vector<uint64_t> Offsets(const Node& n, uint64_t len) {
    uint64_t cap = n.geometry().capacity;
    uint64_t a = std::max<uint64_t>(n.geometry().physical_block, 4096);
    uint64_t mid = (cap / 2) / a * a;
    uint64_t end = (cap - len) / a * a;
    uint64_t second = (2 * len + a - 1) / a * a;  // clear of the first range
    return {0, second, mid, end};
  }
};

TEST_P(Conformance, ReadsReturnWhatWasWritten) {
  Engine e;
  auto s = Load(e);
  Node& n = s.stack->root();
  uint64_t i = 0;
  for (uint64_t len : {uint64_t{4096}, uint64_t{65536}, uint64_t{1} << 20}) {
    for (uint64_t off : Offsets(n, len)) {
      auto w = Pattern(len, ++i);
      ASSERT_TRUE(testing::Write(e, n, off, w).status.ok()) << off;
      std::vector<uint8_t> r(len);
      auto res = testing::Read(e, n, off, r);
      ASSERT_TRUE(res.status.ok()) << res.status.ToString();
      ASSERT_EQ(r, w) << "offset " << off << " length " << len;
    }
  }
  // A logical-block write inside a written range.
  uint32_t lb = n.geometry().logical_block;
  auto small = Pattern(lb, 99);
  ASSERT_TRUE(testing::Write(e, n, 4096 + lb, small).status.ok());
  std::vector<uint8_t> r(lb);
  ASSERT_TRUE(testing::Read(e, n, 4096 + lb, r).status.ok());
  EXPECT_EQ(r, small);
}

TEST_P(Conformance, UnwrittenBlocksReadAsZeros) {
  Engine e;
  auto s = Load(e);
  std::vector<uint8_t> r(8192, 0xAA);
  ASSERT_TRUE(testing::Read(e, s.stack->root(), 1 << 20, r).status.ok());
  EXPECT_EQ(r, std::vector<uint8_t>(8192, 0));
}

TEST_P(Conformance, FlushedWritesSurviveAPowerCut) {
  Engine e;
  auto s = Load(e);
  Node& n = s.stack->root();
  if (!n.caps().honors_flush) GTEST_SKIP() << "stack declares that FLUSH is not honoured";
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> written;
  uint64_t i = 0;
  for (uint64_t off : Offsets(n, 65536)) {
    written.emplace_back(off, Pattern(65536, ++i));
    ASSERT_TRUE(testing::Write(e, n, off, written.back().second).status.ok());
  }
  ASSERT_TRUE(testing::Flush(e, n).status.ok());
  s.stack->PowerCut();
  for (auto& [off, w] : written) {
    std::vector<uint8_t> r(w.size());
    ASSERT_TRUE(testing::Read(e, n, off, r).status.ok());
    EXPECT_EQ(r, w) << "offset " << off << " lost after flush + power cut";
  }
}

TEST_P(Conformance, FuaWritesSurviveAPowerCut) {
  Engine e;
  auto s = Load(e);
  Node& n = s.stack->root();
  if (!n.caps().honors_fua) GTEST_SKIP() << "stack declares that FUA is not honoured";
  auto w = Pattern(16384, 5);
  ASSERT_TRUE(testing::Write(e, n, 8192, w, kFua).status.ok());
  s.stack->PowerCut();
  std::vector<uint8_t> r(w.size());
  ASSERT_TRUE(testing::Read(e, n, 8192, r).status.ok());
  EXPECT_EQ(r, w);
}

TEST_P(Conformance, UnflushedWritesAreOldOrNewAfterAPowerCut) {
  Engine e;
  auto s = Load(e);
  Node& n = s.stack->root();
  auto old_data = Pattern(65536, 1);
  ASSERT_TRUE(testing::Write(e, n, 0, old_data, kFua).status.ok());
  ASSERT_TRUE(testing::Flush(e, n).status.ok());
  if (!n.caps().honors_flush || !n.caps().honors_fua) {
    GTEST_SKIP() << "stack declares that FLUSH/FUA are not honoured";
  }
  auto new_data = Pattern(65536, 2);
  ASSERT_TRUE(testing::Write(e, n, 0, new_data).status.ok());
  s.stack->PowerCut();
  std::vector<uint8_t> r(65536);
  ASSERT_TRUE(testing::Read(e, n, 0, r).status.ok());
  uint32_t lb = n.geometry().logical_block;
  for (uint64_t b = 0; b < r.size(); b += lb) {
    bool is_old = std::equal(r.begin() + b, r.begin() + b + lb, old_data.begin() + b);
    bool is_new = std::equal(r.begin() + b, r.begin() + b + lb, new_data.begin() + b);
    ASSERT_TRUE(is_old || is_new) << "block at " << b << " is neither old nor new";
  }
}

TEST_P(Conformance, BadRequestsAreErrors) {
  Engine e;
  auto s = Load(e);
  Node& n = s.stack->root();
  uint64_t cap = n.geometry().capacity;
  std::vector<uint8_t> buf(8192);
  EXPECT_EQ(DoIo(e, n, Op::kRead, cap, 4096, buf.data()).status.code(), Status::Code::kOutOfRange);
  EXPECT_EQ(DoIo(e, n, Op::kWrite, cap - 4096, 8192, buf.data()).status.code(),
            Status::Code::kOutOfRange);
  EXPECT_EQ(DoIo(e, n, Op::kRead, UINT64_MAX - 511, 4096, buf.data()).status.code(),
            Status::Code::kOutOfRange);
  // Misaligned requests are errors, at least with O_DIRECT (a page cache
  // takes buffered I/O at any byte, as Linux does).
  EXPECT_EQ(DoIo(e, n, Op::kWrite, 1, 4096, buf.data(), kDirect).status.code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(DoIo(e, n, Op::kRead, 0, 100, buf.data(), kDirect).status.code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(DoIo(e, n, Op::kRead, 0, 0, buf.data()).status.code(), Status::Code::kInvalidArgument);
  // The node still works.
  auto w = Pattern(4096, 3);
  ASSERT_TRUE(testing::Write(e, n, 0, w).status.ok());
}

// A mixed queue-depth workload; returns every completion time.
std::vector<int64_t> MixedRun(Node& n, Engine& e, uint64_t seed) {
  std::vector<int64_t> times;
  Random rng(seed);
  uint64_t cap = n.geometry().capacity;
  uint64_t span = std::min<uint64_t>(cap, uint64_t{1} << 30) / 4096;
  int submitted = 0, completed = 0;
  std::vector<std::vector<uint8_t>> bufs(16, std::vector<uint8_t>(16384));
  std::function<void(int)> issue = [&](int slot) {
    if (submitted >= 400) return;
    ++submitted;
    int k = static_cast<int>(rng.Uniform(10));
    const uint64_t offset = rng.Uniform(span - 4) * 4096;
    const uint64_t length = 4096 * (1 + rng.Uniform(4));
    Nanos start = e.now();
    n.Submit(Request{.op = k < 5   ? Op::kRead
                           : k < 9 ? Op::kWrite
                                   : Op::kFlush,
                     .offset = offset,
                     .length = length,
                     .data = bufs[slot].data(),
                     .done = [&, slot, start](Status st) {
                       EXPECT_TRUE(st.ok()) << st.ToString();
                       EXPECT_GE(e.now(), start);
                       times.push_back(e.now().count());
                       ++completed;
                       issue(slot);
                     }});
  };
  for (int q = 0; q < 16; ++q) issue(q);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(completed, submitted);
  return times;
}

TEST_P(Conformance, CompletionTimesNeverGoBackwardsAndRepeatWithTheSeed) {
  Engine e1, e2, e3;
  auto s1 = Load(e1, 7), s2 = Load(e2, 7);
  auto t1 = MixedRun(s1.stack->root(), e1, 42);
  auto t2 = MixedRun(s2.stack->root(), e2, 42);
  ASSERT_EQ(t1.size(), 400u);
  EXPECT_TRUE(std::is_sorted(t1.begin(), t1.end()));
  EXPECT_EQ(t1, t2) << "same stack, workload and seed must give the same times";
}

TEST_P(Conformance, AcceptsFlushAndWriteZeroes) {
  Engine e;
  auto s = Load(e);
  Node& n = s.stack->root();
  auto w = Pattern(8192, 4);
  ASSERT_TRUE(testing::Write(e, n, 0, w).status.ok());
  ASSERT_TRUE(DoIo(e, n, Op::kWriteZeroes, 0, 8192, nullptr).status.ok());
  std::vector<uint8_t> r(8192, 1);
  ASSERT_TRUE(testing::Read(e, n, 0, r).status.ok());
  EXPECT_EQ(r, std::vector<uint8_t>(8192, 0));
  EXPECT_TRUE(testing::Flush(e, n).status.ok());
}

// Random writes, FUA writes, flushes and reads at queue depth 8 through the
// durability oracle; the power is cut at a random moment with requests in
// flight; nothing durable may be lost and no read may be stale.
TEST_P(Conformance, OracleFindsNothingLostAfterARandomCut) {
  for (uint64_t seed : {1, 2, 3}) {
    Engine e;
    auto s = Load(e, seed);
    Node& root = s.stack->root();
    Oracle& oracle = s.stack->Adopt(std::make_unique<Oracle>(e, root));
    Random rng(seed, "conformance");
    const uint64_t span = std::min<uint64_t>(root.geometry().capacity, 64 << 20) / 4096;
    std::vector<std::vector<uint8_t>> bufs(8, std::vector<uint8_t>(65536));
    bool stop = false;
    std::function<void(int)> issue = [&](int slot) {
      if (stop) return;
      int k = static_cast<int>(rng.Uniform(20));
      const uint64_t length = 4096 * (1 + rng.Uniform(16));
      const uint64_t offset = rng.Uniform(span - 16) * 4096;
      for (uint64_t i = 0; i < length; i += 8) {
        uint64_t word = rng.Next();
        std::memcpy(bufs[slot].data() + i, &word, 8);
      }
      oracle.Submit(Request{.op = k < 8    ? Op::kRead
                                  : k < 18 ? Op::kWrite
                                           : Op::kFlush,
                            .flags = k == 17 ? kFua : 0u,
                            .offset = offset,
                            .length = length,
                            .data = bufs[slot].data(),
                            .done = [&, slot](Status st) {
                              ASSERT_TRUE(st.ok()) << st.ToString();
                              issue(slot);
                            }});
    };
    for (int q = 0; q < 8; ++q) issue(q);
    uint64_t steps = 2000 + rng.Uniform(3000);
    for (uint64_t i = 0; i < steps && e.Step(); ++i) {
    }
    stop = true;
    ASSERT_TRUE(oracle.read_violations().empty())
        << "seed " << seed << ": " << oracle.read_violations()[0].what << " at byte "
        << oracle.read_violations()[0].offset;
    s.stack->PowerCut();
    OracleReport rep = oracle.VerifyNow();
    if (root.caps().honors_flush && root.caps().honors_fua) {
      EXPECT_TRUE(rep.ok()) << "seed " << seed << "\n" << rep.Summary();
    }
    EXPECT_GT(rep.blocks_checked, 0u);
  }
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = std::filesystem::path(info.param).stem().string();
  for (auto& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(AllStacks, Conformance,
                         ::testing::ValuesIn(testing::CatalogAndConformanceStacks()), TestName);

}  // namespace conformance_test
}  // namespace storlab
