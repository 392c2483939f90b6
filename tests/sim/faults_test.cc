// The faults layer: media errors and healing, latency spikes, a vanishing
// device, torn writes at a power cut, run-time injection, and how a RAID
// array above it copes.
#include <gtest/gtest.h>

#include <set>

#include "sim/layers/faults/faults_node.h"
#include "tests/sim/raid_test_util.h"

namespace storlab {
namespace faults_test {

using namespace time_literals;
using testing::DoIo;
using testing::Pattern;

std::string FaultsOverRam(const std::string& keys, const std::string& ram = "") {
  return "[node.f]\ntype = \"faults\"\nchild = \"d\"\n" + keys +
         "\n[node.d]\ntype = \"ram\"\ncapacity = \"16MiB\"\n" + ram + "\n";
}

FaultsNode& Faults(LoadedStack& s) { return dynamic_cast<FaultsNode&>(s.stack->root()); }

TEST(FaultsTest, MediaErrorsFailReadsAndHealOnWrite) {
  Engine e;
  auto s = testing::MustLoadText(
      FaultsOverRam("media_errors = [\"1MiB+4KiB\"]\nmedia_error_latency = \"7s\""), e);
  FaultsNode& f = Faults(s);
  std::vector<uint8_t> buf(8192);
  auto bad = testing::Read(e, f, 1024 * 1024 - 4096, buf);
  EXPECT_EQ(bad.status.code(), Status::Code::kIoError);
  EXPECT_EQ(bad.latency, 7_s);
  EXPECT_TRUE(testing::Read(e, f, 1024 * 1024 + 4096, buf).status.ok());
  // A write over part of the range remaps those sectors only.
  auto w = Pattern(2048, 1);
  ASSERT_TRUE(testing::Write(e, f, 1024 * 1024, w).status.ok());
  EXPECT_EQ(f.media_errors().bytes(), 2048u);
  std::vector<uint8_t> r(2048);
  ASSERT_TRUE(testing::Read(e, f, 1024 * 1024, r).status.ok());
  EXPECT_EQ(r, w);
  EXPECT_FALSE(testing::Read(e, f, 1024 * 1024 + 2048, r).status.ok());
}

TEST(FaultsTest, BadWritesCanFailToo) {
  Engine e;
  auto s = testing::MustLoadText(
      FaultsOverRam("media_errors = [\"0+512\"]\nmedia_error_writes = \"fail\""), e);
  auto w = Pattern(4096, 1);
  EXPECT_EQ(testing::Write(e, Faults(s), 0, w).status.code(), Status::Code::kIoError);
  EXPECT_EQ(Faults(s).media_errors().bytes(), 512u);
  EXPECT_TRUE(testing::Write(e, Faults(s), 4096, w).status.ok());
}

std::vector<int64_t> SpikeLatencies(uint64_t seed, int* spikes) {
  Engine e;
  auto s = testing::MustLoadText(
      FaultsOverRam("spike_probability = 0.01\nspike_latency = \"250ms\"", "latency = \"100us\""),
      e, seed);
  std::vector<int64_t> lat;
  std::vector<uint8_t> buf(4096);
  *spikes = 0;
  for (int i = 0; i < 5000; ++i) {
    auto r = testing::Read(e, Faults(s), (i % 1000) * 4096, buf);
    EXPECT_TRUE(r.status.ok());
    lat.push_back(r.latency.count());
    if (r.latency == 100_us + 250_ms) {
      ++*spikes;
    } else {
      EXPECT_EQ(r.latency, 100_us);
    }
  }
  return lat;
}

TEST(FaultsTest, LatencySpikesAreSeeded) {
  int a = 0, b = 0, c = 0;
  auto l1 = SpikeLatencies(1, &a);
  auto l2 = SpikeLatencies(1, &b);
  auto l3 = SpikeLatencies(2, &c);
  EXPECT_EQ(l1, l2);
  EXPECT_NE(l1, l3);
  // Binomial(5000, 0.01): mean 50, sd 7.
  EXPECT_GT(a, 25);
  EXPECT_LT(a, 75);
}

TEST(FaultsTest, DeviceDisappearsAtATimeOrAfterNRequests) {
  {
    Engine e;
    auto s = testing::MustLoadText(FaultsOverRam("disappear_at = \"1s\""), e);
    std::vector<uint8_t> buf(4096);
    EXPECT_TRUE(testing::Read(e, Faults(s), 0, buf).status.ok());
    VirtualDriver(e).RunUntil(1_s);
    EXPECT_EQ(testing::Read(e, Faults(s), 0, buf).status.code(), Status::Code::kIoError);
    EXPECT_EQ(testing::Flush(e, Faults(s)).status.code(), Status::Code::kIoError);
    EXPECT_TRUE(Faults(s).disappeared());
    Faults(s).Reappear();
    EXPECT_TRUE(testing::Read(e, Faults(s), 0, buf).status.ok());
  }
  {
    Engine e;
    auto s = testing::MustLoadText(FaultsOverRam("disappear_after_ios = 3"), e);
    std::vector<uint8_t> buf(4096);
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(testing::Read(e, Faults(s), 0, buf).status.ok());
    EXPECT_FALSE(testing::Read(e, Faults(s), 0, buf).status.ok());
    EXPECT_FALSE(testing::Write(e, Faults(s), 0, buf).status.ok());
  }
}

TEST(FaultsTest, RunTimeInjection) {
  Engine e;
  auto s = testing::MustLoadText(FaultsOverRam(""), e);
  FaultsNode& f = Faults(s);
  std::vector<uint8_t> buf(4096);
  f.AddMediaError(8192, 512);
  EXPECT_FALSE(testing::Read(e, f, 8192, buf).status.ok());
  f.ClearMediaErrors();
  EXPECT_TRUE(testing::Read(e, f, 8192, buf).status.ok());
  f.SetLatencySpikes(1.0, 5_ms);
  EXPECT_EQ(testing::Read(e, f, 0, buf).latency, 5_ms);
  f.SetLatencySpikes(0, Nanos(0));
  f.Disappear();
  EXPECT_FALSE(testing::Read(e, f, 0, buf).status.ok());
}

// Submits a write, cuts the power while it is in flight, and returns how
// many leading 512-byte sectors of it are there afterwards (the rest must
// be old).
int TornPrefix(uint64_t seed) {
  Engine e;
  auto s = testing::MustLoadText(FaultsOverRam("torn_writes = true", "latency = \"1ms\""), e, seed);
  FaultsNode& f = Faults(s);
  auto old_data = Pattern(65536, 1), new_data = Pattern(65536, 2);
  EXPECT_TRUE(testing::Write(e, f, 0, old_data).status.ok());
  Request q{.op = Op::kWrite, .length = 65536, .data = new_data.data(), .done = [](Status) {
              ADD_FAILURE() << "completed across the power cut";
            }};
  f.Submit(std::move(q));
  VirtualDriver(e).RunUntil(e.now() + 500_us);
  s.stack->PowerCut();
  std::fill(new_data.begin(), new_data.end(), 0);  // the submitter's buffer is gone
  new_data = Pattern(65536, 2);
  std::vector<uint8_t> r(65536);
  EXPECT_TRUE(testing::Read(e, f, 0, r).status.ok());  // after the torn part landed
  int prefix = 0;
  while (prefix < 128 && std::equal(r.begin() + prefix * 512, r.begin() + prefix * 512 + 512,
                                    new_data.begin() + prefix * 512)) {
    ++prefix;
  }
  EXPECT_TRUE(std::equal(r.begin() + prefix * 512, r.end(), old_data.begin() + prefix * 512))
      << "a torn write lands as a prefix";
  return prefix;
}

TEST(FaultsTest, TornWritesLandASeededPrefix) {
  EXPECT_EQ(TornPrefix(1), TornPrefix(1));
  std::set<int> seen;
  for (uint64_t seed = 1; seed <= 20; ++seed) seen.insert(TornPrefix(seed));
  EXPECT_GT(seen.size(), 10u);  // uniform over 0..128 sectors
}

TEST(FaultsTest, BadParameters) {
  struct Case {
    std::string keys, expect;
  };
  const Case cases[] = {
      {"media_errors = [\"1MiB\"]", "key 'media_errors': '1MiB': expected OFFSET+LENGTH"},
      {"media_errors = [\"20MiB+4KiB\"]",
       "key 'media_errors': '20MiB+4KiB' ends beyond the device"},
      {"spike_probability = 0.1", "key 'spike_latency': is required"},
      {"spike_probability = 1.5\nspike_latency = \"1ms\"", "key 'spike_probability'"},
      {"media_error_writes = \"ignore\"", "key 'media_error_writes'"},
      {"disappear_after_ios = 0", "key 'disappear_after_ios'"},
  };
  for (const Case& c : cases) {
    Engine e;
    auto r = LoadStackText(FaultsOverRam(c.keys), "f.toml", ".", e, BuildOptions{});
    ASSERT_FALSE(r.ok()) << c.keys;
    EXPECT_NE(r.status().message().find("f.toml:"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find(c.expect), std::string::npos) << r.status().message();
  }
}

// RAID over faulty members.
std::string RaidOverFaults(int level, const std::string& faults_keys) {
  return "[node.md]\ntype = \"raid\"\nlevel = " + std::to_string(level) +
         "\nchunk = \"64KiB\"\nchildren = [\"f0\", \"d1\", \"d2\", \"d3\"]\n"
         "[node.f0]\ntype = \"faults\"\nchild = \"d0\"\n" +
         faults_keys +
         "\n[node.d0]\ntype = \"ram\"\ncapacity = \"4MiB\"\n"
         "[node.d1]\ntype = \"ram\"\ncapacity = \"4MiB\"\n"
         "[node.d2]\ntype = \"ram\"\ncapacity = \"4MiB\"\n"
         "[node.d3]\ntype = \"ram\"\ncapacity = \"4MiB\"\n";
}

TEST(FaultsTest, RaidServesAndRewritesAMemberReadError) {
  for (int level : {1, 5, 6, 10}) {
    Engine e;
    auto s = testing::MustLoadText(RaidOverFaults(level, ""), e);
    auto& md = dynamic_cast<RaidNode&>(s.stack->root());
    auto& f0 = dynamic_cast<FaultsNode&>(*s.stack->Find("f0"));
    auto data = Pattern(md.geometry().capacity, 3);
    ASSERT_TRUE(testing::Write(e, md, 0, data).status.ok());
    // Bad sectors on member 0 where it holds data or a copy (stripes 0 and
    // 1 on every level here), and where RAID5 keeps only parity (stripe 3).
    f0.AddMediaError(0, 8192);
    f0.AddMediaError(65536 + 4096, 512);
    f0.AddMediaError(3 * 65536 + 4096, 512);
    EXPECT_EQ(testing::ReadAll(e, md), data) << "raid" << level;
    VirtualDriver(e).RunUntilIdle();  // the rewrites
    EXPECT_FALSE(md.degraded()) << "raid" << level;
    EXPECT_GT(md.array().counters().read_errors_corrected, 0u) << "raid" << level;
    EXPECT_FALSE(f0.media_errors().Intersects(65536, 65536)) << "raid" << level;
    // A check reads everything, parity and every copy included, and has
    // the rest rewritten.
    ASSERT_TRUE(md.StartCheck(false).ok());
    VirtualDriver(e).RunUntilIdle();
    EXPECT_TRUE(f0.media_errors().empty()) << "raid" << level;
    EXPECT_EQ(md.sync().mismatch_sectors(), 0u);
    EXPECT_EQ(testing::ReadAll(e, md), data) << "raid" << level;
  }
}

TEST(FaultsTest, RaidFailsAMemberWhoseRewriteFails) {
  Engine e;
  auto s = testing::MustLoadText(RaidOverFaults(5, "media_error_writes = \"fail\""), e);
  auto& md = dynamic_cast<RaidNode&>(s.stack->root());
  auto& f0 = dynamic_cast<FaultsNode&>(*s.stack->Find("f0"));
  auto data = Pattern(md.geometry().capacity, 4);
  ASSERT_TRUE(testing::Write(e, md, 0, data).status.ok());
  f0.AddMediaError(65536 * 6, 4096);
  EXPECT_EQ(testing::ReadAll(e, md), data);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_TRUE(md.degraded());
  EXPECT_EQ(md.member_frontier(0), 0u);  // failed
  EXPECT_EQ(testing::ReadAll(e, md), data);
}

TEST(FaultsTest, RaidCarriesOnWhenAMemberDisappears) {
  Engine e;
  auto s = testing::MustLoadText(RaidOverFaults(6, "disappear_after_ios = 20"), e);
  auto& md = dynamic_cast<RaidNode&>(s.stack->root());
  std::vector<uint8_t> model(md.geometry().capacity, 0);
  Random rng(5);
  for (int i = 0; i < 100; ++i) {
    const uint64_t len = 4096 * (1 + rng.Uniform(16));
    const uint64_t off = rng.Uniform((model.size() - len) / 4096) * 4096;
    auto w = Pattern(len, 50 + i);
    ASSERT_TRUE(testing::Write(e, md, off, w).status.ok());
    std::copy(w.begin(), w.end(), model.begin() + off);
  }
  EXPECT_TRUE(md.degraded());
  EXPECT_FALSE(md.failed());
  EXPECT_EQ(testing::ReadAll(e, md), model);
}

}  // namespace faults_test
}  // namespace storlab
