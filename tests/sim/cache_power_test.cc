// Power cuts through the cache layer: a RAM write-back cache loses exactly
// its unflushed writes; a cache device keeps what a FLUSH committed; and a
// random workload cut at a random moment never loses durable data, in every
// mode and shape.
#include <gtest/gtest.h>

#include "tests/sim/cache_test_util.h"
#include "tests/sim/crash_oracle.h"

namespace storlab {
namespace cache_power_test {

using namespace time_literals;
using testing::MustLoadText;
using testing::Pattern;

CacheCore& Core(LoadedStack& s) { return testing::CoreOf(s); }

const char* kRamWriteBack = R"(
[node.cache]
type = "cache"
child = "disk"
size = "16MiB"
dirty_expire = "60s"

[node.disk]
type = "ram"
capacity = "64MiB"
latency = "4ms"
)";

TEST(CachePower, RamWriteBackLosesExactlyTheUnflushedWrites) {
  Engine e;
  auto s = MustLoadText(kRamWriteBack, e);
  Node& n = s.stack->root();
  // Twenty 8 KiB writes, a FLUSH, then twenty more over half of the same
  // blocks and new ones, never flushed.
  std::vector<uint8_t> image(4 << 20, 0);
  auto put = [&](std::vector<uint8_t>& img, uint64_t off, const std::vector<uint8_t>& w) {
    std::copy(w.begin(), w.end(), img.begin() + static_cast<std::ptrdiff_t>(off));
  };
  for (uint64_t i = 0; i < 20; ++i) {
    auto w = Pattern(8192, i + 1);
    ASSERT_TRUE(testing::Write(e, n, i * 65536, w).status.ok());
    put(image, i * 65536, w);
  }
  ASSERT_TRUE(testing::Flush(e, n).status.ok());
  std::vector<uint8_t> flushed = image;
  for (uint64_t i = 10; i < 30; ++i) {
    auto w = Pattern(8192, 100 + i);
    ASSERT_TRUE(testing::Write(e, n, i * 65536 + 4096, w).status.ok());
    put(image, i * 65536 + 4096, w);
  }
  // Below the background threshold and far from expiry: nothing destaged.
  EXPECT_EQ(Core(s).dirty_bytes(), 20u * 8192);
  std::vector<uint8_t> before(image.size());
  ASSERT_TRUE(testing::Read(e, n, 0, before).status.ok());
  EXPECT_EQ(before, image);
  s.stack->PowerCut();
  std::vector<uint8_t> after(image.size());
  ASSERT_TRUE(testing::Read(e, n, 0, after).status.ok());
  EXPECT_EQ(after,
            flushed);  // every unflushed write gone, every flushed one kept
  EXPECT_EQ(Core(s).dirty_bytes(), 0u);
  EXPECT_EQ(Core(s).cached_blocks(), 1024u);  // just what that read promoted
}

TEST(CachePower, RamWriteBackKeepsWhatWasDestagedBeforeTheCut) {
  Engine e;
  auto s = MustLoadText(kRamWriteBack, e);
  Node& n = s.stack->root();
  auto a = Pattern(4096, 1), b = Pattern(4096, 2);
  ASSERT_TRUE(testing::Write(e, n, 0, a).status.ok());
  VirtualDriver(e).RunUntil(e.now() + 30_s);
  ASSERT_TRUE(testing::Write(e, n, 1 << 20, b).status.ok());
  VirtualDriver(e).RunUntil(e.now() + 31_s);  // a expires (60 s) and is destaged; b not yet
  EXPECT_EQ(Core(s).dirty_bytes(), 4096u);
  s.stack->PowerCut();
  std::vector<uint8_t> r(4096);
  ASSERT_TRUE(testing::Read(e, n, 0, r).status.ok());
  EXPECT_EQ(r, a);
  ASSERT_TRUE(testing::Read(e, n, 1 << 20, r).status.ok());
  EXPECT_TRUE(std::all_of(r.begin(), r.end(), [](uint8_t x) { return x == 0; }));
}

// A write-back cache on an SSD that has a volatile buffer of its own.
const char* kSsdWriteBack = R"(
[node.cache]
type = "cache"
children = ["ssd", "hdd"]
mode = "writeback"
policy = "lru"
block_size = "32KiB"
size = "4MiB"

[node.ssd]
type = "cache"
child = "flash"
size = "2MiB"
dirty_expire = "1s"

[node.flash]
type = "ram"
capacity = "16MiB"
latency = "50us"
bandwidth = "500MB/s"

[node.hdd]
type = "ram"
capacity = "64MiB"
latency = "4ms"
bandwidth = "150MB/s"
queue_depth = 4
)";

TEST(CachePower, CacheDeviceKeepsCommittedDirtyDataAndWritesItBack) {
  Engine e;
  auto s = MustLoadText(kSsdWriteBack, e);
  Node& n = s.stack->root();
  auto w = Pattern(256 << 10, 3);
  ASSERT_TRUE(testing::Write(e, n, 1 << 20, w).status.ok());
  ASSERT_TRUE(testing::Flush(e, n).status.ok());
  EXPECT_EQ(Core(s).dirty_bytes(), w.size());  // on the SSD, not the origin
  std::vector<uint8_t> origin(w.size());
  ASSERT_TRUE(testing::Read(e, *s.stack->Find("hdd"), 1 << 20, origin).status.ok());
  EXPECT_NE(origin, w);
  s.stack->PowerCut();
  // The committed mapping comes back, every block dirty (unclean shutdown).
  EXPECT_EQ(Core(s).dirty_bytes(), w.size());
  std::vector<uint8_t> r(w.size());
  ASSERT_TRUE(testing::Read(e, n, 1 << 20, r).status.ok());
  EXPECT_EQ(r, w);
  VirtualDriver(e).RunUntilIdle();  // expiry writes it all back
  EXPECT_EQ(Core(s).dirty_bytes(), 0u);
  ASSERT_TRUE(testing::Read(e, *s.stack->Find("hdd"), 1 << 20, origin).status.ok());
  EXPECT_EQ(origin, w);
}

TEST(CachePower, UncommittedPromotionsAreForgottenAtACut) {
  Engine e;
  auto s = MustLoadText(kSsdWriteBack, e);
  Node& n = s.stack->root();
  auto w = Pattern(64 << 10, 4);
  ASSERT_TRUE(testing::Write(e, n, 0, w).status.ok());  // dirty in the cache, not committed
  s.stack->PowerCut();
  EXPECT_EQ(Core(s).cached_blocks(), 0u);
  std::vector<uint8_t> r(w.size());
  ASSERT_TRUE(testing::Read(e, n, 0, r).status.ok());
  EXPECT_TRUE(std::all_of(r.begin(), r.end(), [](uint8_t x) { return x == 0; }));
}

struct OracleCase {
  const char* name;
  std::string text;
};

std::string TwoDevices(const std::string& keys, const std::string& ssd_capacity = "6MiB") {
  return R"(
[node.cache]
type = "cache"
children = ["ssd", "hdd"]
)" + keys +
         R"(
[node.ssd]
type = "cache"
child = "flash"
size = "512KiB"
dirty_expire = "200ms"

[node.flash]
type = "ram"
capacity = ")" +
         ssd_capacity + R"("
latency = "50us"
bandwidth = "500MB/s"

[node.hdd]
type = "cache"
child = "platter"
size = "1MiB"
dirty_expire = "300ms"

[node.platter]
type = "ram"
capacity = "32MiB"
latency = "3ms"
bandwidth = "150MB/s"
queue_depth = 4
)";
}

std::vector<OracleCase> OracleCases() {
  return {
      {"ram_writeback_lru", R"(
[node.cache]
type = "cache"
child = "disk"
size = "2MiB"
dirty_expire = "500ms"
[node.disk]
type = "ram"
capacity = "32MiB"
latency = "3ms"
queue_depth = 4
)"},
      {"ram_writeback_smq_bypass",
       R"(
[node.cache]
type = "cache"
child = "disk"
size = "1MiB"
policy = "smq"
block_size = "16KiB"
over_limit = "writethrough"
sequential_cutoff = "64KiB"
[node.disk]
type = "ram"
capacity = "32MiB"
latency = "3ms"
queue_depth = 4
)"},
      {"ssd_writeback_lru",
       TwoDevices("mode = \"writeback\"\npolicy = \"lru\"\nblock_size = \"16KiB\"")},
      {"ssd_writeback_smq", TwoDevices("mode = \"writeback\"\nblock_size = "
                                       "\"32KiB\"\ncommit_period = \"100ms\"")},
      {"ssd_writethrough_smq", TwoDevices("block_size = \"32KiB\"")},
      {"ssd_writearound_lru",
       TwoDevices("mode = \"writearound\"\npolicy = \"lru\"\nblock_size = \"8KiB\"")},
  };
}

class CacheOracle : public ::testing::TestWithParam<OracleCase> {};

TEST_P(CacheOracle, NoDurableWriteIsLostAtARandomPowerCut) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Engine e;
    auto s = MustLoadText(GetParam().text, e, seed);
    testing::CrashOracle::Options o;
    o.ops_before_cut = 200 + 97 * seed;
    testing::CrashOracle oracle(e, *s.stack, seed, o);
    oracle.Run();
    if (::testing::Test::HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Stacks, CacheOracle, ::testing::ValuesIn(OracleCases()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace cache_power_test
}  // namespace storlab
