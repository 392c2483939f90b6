// The Linux NFS client's write-back rules (sim/layers/nfs/nfs_client.h) as
// the host page cache follows them over an nfs node: the coalescing rule
// (contiguous vs scattered pages → WRITE RPCs), the RPC slot table's
// growth, fsync's FILE_SYNC WRITEs per kernel line, congestion, and a
// rewrite waiting for the WRITE in flight over its page.
#include "sim/layers/nfs/nfs_client.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sim/layers/nfs/nfs.h"
#include "sim/layers/page_cache/page_cache.h"
#include "tests/sim/page_cache_util.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace nfs_client_test {

using namespace time_literals;
using testing::MustLoadText;

constexpr uint64_t kPage = 4096;

std::string Stack(const std::string& nfs_keys) {
  return R"(
[node.nfs]
type = "nfs"
child = "disk"
wsize = "64KiB"
)" + nfs_keys +
         R"(

[node.disk]
type = "ram"
capacity = "1GiB"
)";
}

// A page cache over the stack's nfs node; writeback only when asked (no
// periodic tick, limits far above what the tests dirty).
struct Client {
  explicit Client(const std::string& nfs_keys = "")
      : stack(MustLoadText(Stack(nfs_keys), e)), nfs(static_cast<Nfs&>(stack.stack->root())) {
    PageCacheConfig c;
    c.host.mem_bytes = uint64_t{4} << 30;
    c.host.writeback_interval = Nanos(0);
    c.keeps_data = false;
    pc = std::make_unique<PageCache>(e, "pc", c, nfs);
  }
  void WritePage(uint64_t page, uint32_t file = 1) {
    auto r = testing::PcIo(e, *pc, Op::kWrite, page * kPage, kPage, nullptr, 0, file);
    ASSERT_TRUE(r.status.ok());
  }
  Nanos Fsync(uint32_t file = 1) {
    auto r = testing::PcIo(e, *pc, Op::kFlush, 0, 0, nullptr, 0, file);
    EXPECT_TRUE(r.status.ok());
    return r.latency;
  }
  Engine e;
  LoadedStack stack;
  Nfs& nfs;
  std::unique_ptr<PageCache> pc;
};

TEST(NfsClient, CongestionDefaultFollowsTheKernelsTable) {
  // nfs_init_writepagecache()'s own table: 1GB: 32768k, 16GB: 131072k;
  // capped at 256 MiB.
  EXPECT_EQ(NfsClient::DefaultCongestionBytes(uint64_t{1} << 30), uint64_t{32768} * 1024);
  EXPECT_EQ(NfsClient::DefaultCongestionBytes(uint64_t{16} << 30), uint64_t{131072} * 1024);
  // 32 GiB: 16 × int_sqrt(8388608) = 16 × 2896 pages.
  EXPECT_EQ(NfsClient::DefaultCongestionBytes(uint64_t{32} << 30), uint64_t{16 * 2896} * kPage);
  EXPECT_EQ(NfsClient::DefaultCongestionBytes(uint64_t{1} << 40), uint64_t{256} << 20);
}

TEST(NfsClient, KernelVersionsParseAndBadOnesSayWhatWasExpected) {
  EXPECT_EQ(*NfsClient::ParseKernel("5.15"), 515u);
  EXPECT_EQ(*NfsClient::ParseKernel("6.2"), 602u);
  for (const char* bad : {"", "5", "six.two", "5.15.0x", "1.0"}) {
    auto k = NfsClient::ParseKernel(bad);
    ASSERT_FALSE(k.ok()) << bad;
    EXPECT_NE(k.status().message().find("MAJOR.MINOR"), std::string::npos);
  }
}

TEST(NfsClient, CongestionIsOnAboveTheThresholdAndOffBelowThreeQuarters) {
  NfsClient c(NfsClientConfig{.kernel = 602, .congestion_bytes = 400 * kPage}, 0, 1 << 20);
  EXPECT_EQ(c.congestion_mode(), NfsClient::Congestion::kSkip);
  c.OnWriteSent(400 * kPage);
  EXPECT_FALSE(c.congested());
  c.OnWriteSent(kPage);
  EXPECT_TRUE(c.congested());
  EXPECT_FALSE(c.BackgroundMayWrite());
  EXPECT_FALSE(c.OnWriteDone(1, 100 * kPage, false));  // 301 pages: still on
  EXPECT_TRUE(c.OnWriteDone(1, 2 * kPage, false));     // 299 < 300: off
  EXPECT_TRUE(c.BackgroundMayWrite());
  EXPECT_EQ(c.unstable_bytes(1), 102 * kPage);
  // 5.15: the flag only steers reclaim; 6.11+: the flusher waits.
  NfsClient old(NfsClientConfig{.kernel = 515, .congestion_bytes = kPage}, 0, 1 << 20);
  old.OnWriteSent(2 * kPage);
  EXPECT_TRUE(old.congested());
  EXPECT_TRUE(old.BackgroundMayWrite());
  EXPECT_EQ(NfsClient(NfsClientConfig{.kernel = 611}, 0, 1 << 20).congestion_mode(),
            NfsClient::Congestion::kWait);
}

TEST(NfsClient, ContiguousPagesShareAWriteScatteredPagesGoOneEach) {
  Client contiguous;
  for (uint64_t p = 0; p < 32; ++p) contiguous.WritePage(p);
  contiguous.Fsync();
  // 32 pages = 128 KiB: two WRITEs of wsize (64 KiB).
  EXPECT_EQ(contiguous.nfs.write_rpcs(), 2u);

  Client scattered;
  for (uint64_t p = 0; p < 32; ++p) scattered.WritePage(2 * p);  // every other page
  scattered.Fsync();
  EXPECT_EQ(scattered.nfs.write_rpcs(), 32u);
}

TEST(NfsClient, FsyncOfScatteredPagesGoesFileSyncBefore610) {
  // 6.2 (the default; 5.15 the same): each run ended by a non-adjacent page
  // is sent without pg_moreio:
  // FILE_SYNC, and nothing is left to COMMIT.
  Client old;
  for (uint64_t p = 0; p < 16; ++p) old.WritePage(2 * p);
  old.Fsync();
  EXPECT_EQ(old.nfs.write_rpcs(), 16u);
  EXPECT_EQ(old.nfs.file_sync_writes(), 16u);
  EXPECT_EQ(old.nfs.commits(), 0u);
  // 6.10 (a527c3ba): UNSTABLE but the pass's last RPC, then one COMMIT.
  Client fixed(R"(client_kernel = "6.10")");
  for (uint64_t p = 0; p < 16; ++p) fixed.WritePage(2 * p);
  fixed.Fsync();
  EXPECT_EQ(fixed.nfs.write_rpcs(), 16u);
  EXPECT_EQ(fixed.nfs.file_sync_writes(), 1u);
  EXPECT_EQ(fixed.nfs.commits(), 1u);
  EXPECT_EQ(fixed.pc->counters().nfs_commits, 1u);
  // Full wsize WRITEs go with pg_moreio: UNSTABLE on either line; the
  // last one (nfs_pageio_complete) FILE_SYNC while nothing awaits COMMIT.
  Client big;
  for (uint64_t p = 0; p < 48; ++p) big.WritePage(p);
  big.Fsync();
  EXPECT_EQ(big.nfs.write_rpcs(), 3u);
  EXPECT_EQ(big.nfs.file_sync_writes(), 1u);
  EXPECT_EQ(big.nfs.commits(), 1u);
}

TEST(NfsClient, SlotTableGrowsFromTwoOnDemandAndShrinksBack) {
  Client c;
  EXPECT_EQ(c.nfs.slots_allocated(), 2u);  // RPC_MIN_SLOT_TABLE
  for (uint64_t p = 0; p < 100; ++p) c.WritePage(2 * p);
  c.Fsync();
  // 100 scattered WRITEs queued at once: a slot each.
  EXPECT_EQ(c.nfs.slots_high_water(), 100u);
  EXPECT_EQ(c.nfs.slots_allocated(), 2u);  // freed back to the minimum
  Client capped("slots = 8\n");
  for (uint64_t p = 0; p < 100; ++p) capped.WritePage(2 * p);
  capped.Fsync();
  EXPECT_EQ(capped.nfs.slots_high_water(), 8u);  // tcp_max_slot_table_entries
  EXPECT_EQ(capped.nfs.write_rpcs(), 100u);
}

TEST(NfsClient, ARewriteWaitsForTheWriteInFlightOverItsPage) {
  Client c;
  c.WritePage(0);
  // Start the page's writeback (an fsync) and rewrite it while its WRITE is
  // on the wire: the rewrite is acknowledged only after the reply.
  bool synced = false;
  c.pc->Submit(Request{.op = Op::kFlush, .file_id = 1, .done = [&](Status) { synced = true; }});
  VirtualDriver(c.e).RunUntil(c.e.now() + 10_us);  // the WRITE was sent, not answered
  ASSERT_FALSE(synced);
  auto r = testing::PcIo(c.e, *c.pc, Op::kWrite, 0, kPage, nullptr, 0, 1);
  ASSERT_TRUE(r.status.ok());
  EXPECT_GT(r.latency, 100_us);  // at least the rest of the round trip
  EXPECT_EQ(c.pc->counters().nfs_rewrite_waits, 1u);
  // A page not in flight does not wait.
  r = testing::PcIo(c.e, *c.pc, Op::kWrite, 8 * kPage, kPage, nullptr, 0, 1);
  EXPECT_LT(r.latency, 100_us);
  EXPECT_EQ(c.pc->counters().nfs_rewrite_waits, 1u);
}

}  // namespace nfs_client_test
}  // namespace storlab
