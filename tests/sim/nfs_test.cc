// The nfs node in virtual time: the 1GbE payload ceiling, an RTT per small
// synchronous write, RPC splitting, COMMIT under sync and async exports, and
// what a server power cut loses under each.
#include "sim/layers/nfs/nfs.h"

#include <gtest/gtest.h>

#include "tests/sim/test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace nfs_test {

using namespace time_literals;
using testing::MustLoadText;
using testing::Pattern;

// 1GbE, 1500-byte frames: 1448 payload bytes per 1538 on the wire.
constexpr double kPayload = 125e6 * 1448 / 1538;

std::string NfsStack(const std::string& nfs_keys, const std::string& disk_keys = "") {
  return R"(
[node.nfs]
type = "nfs"
child = "disk"
)" + nfs_keys +
         R"(

[node.disk]
type = "ram"
capacity = "4GiB"
)" + disk_keys;
}

Nfs& NfsOf(LoadedStack& s) { return static_cast<Nfs&>(s.stack->root()); }

TEST(Nfs, PayloadRateIsDerivedFromTheFrames) {
  Engine e;
  auto s = MustLoadText(NfsStack(""), e);
  EXPECT_DOUBLE_EQ(NfsOf(s).link().payload_bytes_per_s(), kPayload);  // 117.7 MB/s
  auto jumbo = MustLoadText(NfsStack("mtu = 9000"), e);
  EXPECT_DOUBLE_EQ(NfsOf(jumbo).link().payload_bytes_per_s(), 125e6 * 8948 / 9038);
}

TEST(Nfs, LargeSequentialWritesReachTheLinkAndNoMore) {
  Engine e;
  auto s = MustLoadText(NfsStack(""), e);
  ProbeSpec p;
  p.op = Op::kWrite;
  p.block_size = 1 << 20;
  p.queue_depth = 4;
  p.random = false;
  p.duration = 2_s;
  ProbeResult r = RunProbe(e, s.stack->root(), p);
  EXPECT_GT(r.bytes_per_s, 117.0e6);
  EXPECT_LE(r.bytes_per_s, kPayload);
  // Reads come back over the other direction at the same ceiling.
  p.op = Op::kRead;
  r = RunProbe(e, s.stack->root(), p);
  EXPECT_GT(r.bytes_per_s, 117.0e6);
  EXPECT_LE(r.bytes_per_s, kPayload);
  // One at a time, every MiB also waits a round trip: a little less.
  p.op = Op::kWrite;
  p.queue_depth = 1;
  r = RunProbe(e, s.stack->root(), p);
  EXPECT_GT(r.bytes_per_s, 114e6);
  EXPECT_LT(r.bytes_per_s, 116e6);
}

TEST(Nfs, SmallSyncWritesCostARoundTripEach) {
  Engine e;
  auto s = MustLoadText(NfsStack(""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 1);
  const Nanos want =
      TransferTime(140 + 4096, kPayload) + 100_us + TransferTime(160, kPayload) + 100_us;
  for (int i = 0; i < 5; ++i) {
    auto r = testing::Write(e, n, i * 4096, w, kFua);
    ASSERT_TRUE(r.status.ok());
    EXPECT_EQ(r.latency, want);  // ~237 us: the RTT dominates
  }
  // A FLUSH (COMMIT) alone is a round trip too.
  EXPECT_EQ(testing::Flush(e, n).latency,
            TransferTime(140, kPayload) + 100_us + TransferTime(160, kPayload) + 100_us);
}

TEST(Nfs, RequestsSplitIntoRpcsOfWsize) {
  Engine e;
  auto s = MustLoadText(NfsStack("wsize = \"256KiB\""), e);
  auto w = Pattern(1 << 20, 2);
  ASSERT_TRUE(testing::Write(e, s.stack->root(), 0, w).status.ok());
  StatList st;
  NfsOf(s).AppendStats(st);
  auto get = [&](const std::string& k) {
    for (auto& v : st)
      if (v.name == k) return v.value;
    return -1.0;
  };
  EXPECT_EQ(get("rpcs_write"), 4);
  EXPECT_EQ(get("bytes_to_server"), 4 * 140 + (1 << 20));
  EXPECT_EQ(get("bytes_to_client"), 4 * 160);
}

std::string WithServerCache(const std::string& exp) {
  // A server with 1 GiB of page cache over a disk that writes 100 MB/s.
  return NfsStack("export = \"" + exp + "\"\nserver_cache_size = \"1GiB\"",
                  "bandwidth = \"100MB/s\"\n");
}

TEST(Nfs, UnstableWritesLandInTheServerCacheAndFileSyncGoesThrough) {
  Engine e;
  auto s = MustLoadText(NfsStack("server_cache_size = \"1GiB\"", "latency = \"5ms\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 3);
  auto unstable = testing::Write(e, n, 0, w);
  auto file_sync = testing::Write(e, n, 1 << 20, w, kFua);
  EXPECT_LT(unstable.latency, 300_us);
  EXPECT_GT(file_sync.latency, 5_ms);
  EXPECT_LT(file_sync.latency, 5_ms + 300_us);
  EXPECT_EQ(NfsOf(s).server_cache()->dirty_bytes(), 4096u);
}

TEST(Nfs, SyncCommitWritesTheServerCacheOutAndSurvivesAPowerCut) {
  Engine e;
  auto s = MustLoadText(WithServerCache("sync"), e);
  Node& n = s.stack->root();
  EXPECT_TRUE(n.caps().honors_flush);
  auto w = Pattern(64 << 20, 4);
  for (uint64_t off = 0; off < w.size(); off += 1 << 20) {
    ASSERT_TRUE(testing::DoIo(e, n, Op::kWrite, off, 1 << 20, w.data() + off).status.ok());
  }
  EXPECT_EQ(NfsOf(s).server_cache()->dirty_bytes(), w.size());
  auto c = testing::Flush(e, n);
  ASSERT_TRUE(c.status.ok());
  // 64 MiB from the server's RAM to a 100 MB/s disk.
  EXPECT_GT(c.latency, TransferTime(64 << 20, 100e6));
  EXPECT_LT(c.latency, TransferTime(64 << 20, 100e6) + 50_ms);
  EXPECT_EQ(NfsOf(s).server_cache()->dirty_bytes(), 0u);
  EXPECT_EQ(NfsOf(s).commits(), 1u);
  s.stack->PowerCut();
  std::vector<uint8_t> r(w.size());
  for (uint64_t off = 0; off < w.size(); off += 1 << 20) {
    ASSERT_TRUE(testing::DoIo(e, n, Op::kRead, off, 1 << 20, r.data() + off).status.ok());
  }
  EXPECT_EQ(r, w);
}

TEST(Nfs, AsyncCommitReturnsAtOnceAndAPowerCutLosesCommittedData) {
  Engine e;
  auto s = MustLoadText(WithServerCache("async"), e);
  Node& n = s.stack->root();
  EXPECT_FALSE(n.caps().honors_flush);
  EXPECT_FALSE(n.caps().honors_fua);
  auto w = Pattern(64 << 20, 5);
  for (uint64_t off = 0; off < w.size(); off += 1 << 20) {
    ASSERT_TRUE(testing::DoIo(e, n, Op::kWrite, off, 1 << 20, w.data() + off).status.ok());
  }
  auto fua = Pattern(4096, 6);
  ASSERT_TRUE(testing::Write(e, n, 100 << 20, fua, kFua).status.ok());
  auto c = testing::Flush(e, n);
  ASSERT_TRUE(c.status.ok());
  EXPECT_LT(c.latency, 250_us);  // a round trip: nothing was made stable
  EXPECT_EQ(NfsOf(s).server_cache()->dirty_bytes(), w.size() + 4096);
  s.stack->PowerCut();
  // Every "committed" byte is gone with the server's RAM.
  std::vector<uint8_t> r(1 << 20);
  ASSERT_TRUE(testing::DoIo(e, n, Op::kRead, 0, r.size(), r.data()).status.ok());
  EXPECT_TRUE(std::all_of(r.begin(), r.end(), [](uint8_t b) { return b == 0; }));
  std::vector<uint8_t> f(4096);
  ASSERT_TRUE(testing::Read(e, n, 100 << 20, f).status.ok());
  EXPECT_NE(f, fua);
}

TEST(Nfs, SlotsAndServerThreadsBoundTheRpcsInFlight) {
  Engine e;
  // One slot: two 4 KiB writes submitted together go one after the other.
  auto s = MustLoadText(NfsStack("slots = 1", "latency = \"1ms\""), e);
  Node& n = s.stack->root();
  auto w = Pattern(4096, 7);
  std::vector<Nanos> done;
  for (int i = 0; i < 2; ++i) {
    Request r{.op = Op::kWrite,
              .offset = static_cast<uint64_t>(i) * 4096,
              .length = 4096,
              .data = w.data(),
              .done = [&](Status st) {
                EXPECT_TRUE(st.ok());
                done.push_back(e.now());
              }};
    n.Submit(std::move(r));
  }
  VirtualDriver(e).RunUntilIdle();
  ASSERT_EQ(done.size(), 2u);
  const Nanos one =
      TransferTime(140 + 4096, kPayload) + 1_ms + TransferTime(160, kPayload) + 200_us;
  EXPECT_EQ(done[0], one);
  EXPECT_EQ(done[1], one * 2);
}

}  // namespace nfs_test
}  // namespace storlab
