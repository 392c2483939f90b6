// The NFS server's own dirty throttle (NfsServerDirty): nfsd threads pause
// in balance_dirty_pages() once the server's page cache is over freerun,
// so WRITE replies slow to the rate the server's disks drain the cache.
#include "sim/layers/nfs/nfs_server_dirty.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "sim/layers/nfs/nfs.h"
#include "sim/virtual_driver.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace nfs_server_dirty_test {

using namespace time_literals;
using testing::MustLoadText;

constexpr uint64_t kMiB = 1 << 20;

TEST(NfsServerDirty, LimitsAreFractionsOfTheServerCache) {
  NfsServerDirty d(1024 * kMiB, 0.10, 0.20);
  EXPECT_EQ(d.limits().background, 107374182u);
  EXPECT_EQ(d.limits().limit, 214748364u);
  EXPECT_EQ(d.limits().freerun, 161061273u);  // (background + limit) / 2
  EXPECT_EQ(d.limits().setpoint, 187904818u);
}

TEST(NfsServerDirty, NoPauseUnderFreerunThenTheMeasuredRateTimesPosRatio) {
  NfsServerDirty d(1024 * kMiB, 0.10, 0.20);
  const Nanos t = 1_s;
  // Under freerun an nfsd thread replies at once.
  EXPECT_EQ(d.ReplyAt(t, d.limits().freerun, kMiB), t);
  // At the setpoint pos_ratio is 1: 1 MiB at the initial 100 MiB/s
  // estimate (INIT_BW) takes 10 ms, and the next thread queues behind it.
  EXPECT_EQ(d.ReplyAt(t, d.limits().setpoint, kMiB), t + 10_ms);
  EXPECT_EQ(d.ReplyAt(t, d.limits().setpoint, kMiB), t + 20_ms);
  // Rewriting pages that are dirty already dirties nothing new: no pause.
  EXPECT_EQ(d.ReplyAt(t, d.limits().setpoint, 0), t);
  EXPECT_EQ(d.paused_writes(), 2u);
  EXPECT_EQ(d.paused_time(), 30_ms);
}

TEST(NfsServerDirty, WriteRepliesSlowToTheDiskDrainOverTheDirtyLimits) {
  // A server with 64 MiB of page cache over a disk that writes 50 MB/s:
  // the link brings 117.7 MB/s, so the cache fills to freerun (9.6 MiB)
  // in about 0.15 s, and from then on the nfsd threads pause.
  Engine e;
  auto s = MustLoadText(R"(
[node.nfs]
type = "nfs"
child = "disk"
export = "async"
server_cache_size = "64MiB"

[node.disk]
type = "ram"
capacity = "4GiB"
bandwidth = "50MB/s"
)",
                        e);
  Node& n = s.stack->root();
  const Nfs& nfs = static_cast<const Nfs&>(n);
  std::vector<uint8_t> buf = testing::Pattern(kMiB, 9);
  uint64_t next = 0, in_window = 0;
  const Nanos from = 1_s, to = 3_s;
  std::function<void()> submit = [&] {
    if (e.now() >= to) return;
    Request r{.op = Op::kWrite,
              .offset = next % (2048 * kMiB),
              .length = kMiB,
              .data = buf.data(),
              .done = [&](Status st) {
                ASSERT_TRUE(st.ok());
                if (e.now() >= from && e.now() < to) in_window += kMiB;
                submit();
              }};
    next += kMiB;
    n.Submit(std::move(r));
  };
  for (int i = 0; i < 8; ++i) submit();
  VirtualDriver(e).RunUntil(to);
  const double rate = static_cast<double>(in_window) / (to - from).seconds();
  // The replies come at the disk's 50 MB/s, not the link's 117.7.
  EXPECT_GT(rate, 48e6);
  EXPECT_LT(rate, 52e6);
  const uint64_t dirty = nfs.server_cache()->dirty_bytes();
  EXPECT_GT(dirty, nfs.server_dirty()->limits().freerun);
  EXPECT_LT(dirty, nfs.server_dirty()->limits().limit);
  EXPECT_GT(nfs.server_dirty()->paused_writes(), 0u);
  // The estimate of the disks' rate (avg_write_bandwidth) comes down from
  // INIT_BW (100 MiB/s) towards the 50 MB/s they write.
  EXPECT_GT(nfs.server_dirty()->write_bandwidth(), 50e6);
  EXPECT_LT(nfs.server_dirty()->write_bandwidth(), DirtyThrottle::kInitialBandwidth);
}

}  // namespace nfs_server_dirty_test
}  // namespace storlab
