// The iscsi node: PDU arithmetic (immediate, unsolicited and R2T-solicited
// data), exact timings of a read and of a write that needs R2Ts, the queue
// depth the initiator and target allow, the LUN's write cache, bad keys; and
// what an ESXi VM on a ZFS zvol over iSCSI does with flushes under each
// `sync` setting of the zvol. Virtual time only.
#include "sim/layers/iscsi/iscsi.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/layers/link/ethernet_frame.h"
#include "sim/layers/vm/vm_node.h"
#include "sim/profile/loader.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace iscsi_test {

using namespace time_literals;
using testing::Pattern;

constexpr double kLine = 1.25e9;  // 10 Gb/s
const double kRate = EthernetFrame::ForMtu(1500).payload_rate(kLine);

std::string IscsiText(const std::string& keys, const std::string& dev = "latency = \"0us\"\n") {
  return "[node.lun]\ntype = \"iscsi\"\nchild = \"dev\"\nrtt = \"50us\"\n" + keys +
         "\n[node.dev]\ntype = \"ram\"\ncapacity = \"1GiB\"\nbandwidth = \"100GB/s\"\n" + dev;
}

TEST(IscsiSessionTest, SplitsAWriteIntoUnsolicitedDataAndBursts) {
  IscsiSession s;  // ESXi to SCST: 256 KiB first burst and bursts, no InitialR2T
  auto small = s.PlanWrite(4096);
  EXPECT_EQ(small.unsolicited, 4096u);
  EXPECT_EQ(small.command_bytes, 48u + 4096u);
  EXPECT_EQ(small.bursts, 0u);
  auto big = s.PlanWrite(1 << 20);
  EXPECT_EQ(big.unsolicited, 262144u);
  EXPECT_EQ(big.solicited, (1u << 20) - 262144u);
  EXPECT_EQ(big.bursts, 3u);
  // RFC 7143's defaults (InitialR2T=Yes, 8 KiB segments, 64 KiB first burst):
  // only the immediate data goes unsolicited.
  IscsiSession rfc{.initial_r2t = true,
                   .first_burst = 65536,
                   .target_max_recv_segment = 8192,
                   .initiator_max_recv_segment = 8192};
  auto r = rfc.PlanWrite(65536);
  EXPECT_EQ(r.unsolicited, 8192u);
  EXPECT_EQ(r.command_bytes, 48u + 8192u);
  EXPECT_EQ(r.bursts, 1u);
  EXPECT_EQ(rfc.BurstBytes(57344), 57344u + 7 * 48u);  // seven Data-Out PDUs
  EXPECT_EQ(rfc.ReadReplyBytes(65536), 65536u + 8 * 48u);
  rfc.immediate_data = false;
  EXPECT_EQ(rfc.PlanWrite(4096).unsolicited, 0u);
  EXPECT_EQ(rfc.PlanWrite(4096).bursts, 1u);
}

TEST(IscsiTest, AReadCostsTheCommandTheLunTheDataInAndTwoOneWayTrips) {
  Engine e;
  auto s = testing::MustLoadText(IscsiText(""), e);
  std::vector<uint8_t> buf(65536);
  auto rd = testing::Read(e, s.stack->root(), 0, buf);
  ASSERT_TRUE(rd.status.ok());
  const Nanos lun = TransferTime(65536, 100e9);
  EXPECT_EQ(rd.latency,
            TransferTime(48, kRate) + 25_us + lun + TransferTime(65536 + 48, kRate) + 25_us);
}

TEST(IscsiTest, EachBurstBeyondTheFirstCostsARoundTrip) {
  // A 1 MiB write: 256 KiB unsolicited, then three R2T bursts. With a first
  // burst of 1 MiB all of it goes unsolicited: the difference is the R2T
  // round trips the first burst's wire time did not hide.
  auto write_latency = [](const std::string& keys) {
    Engine e;
    auto s = testing::MustLoadText(IscsiText(keys), e);
    auto w = Pattern(1 << 20, 3);
    auto r = testing::Write(e, s.stack->root(), 0, w);
    EXPECT_TRUE(r.status.ok());
    auto* lun = NodeAs<Iscsi>(&s.stack->root());
    return std::make_pair(r.latency, lun->r2ts());
  };
  auto [r2t, r2ts] = write_latency("");
  auto [unsolicited, none] = write_latency(
      "first_burst = \"1MiB\"\nmax_burst = \"1MiB\"\ntarget_max_recv_segment = \"1MiB\"");
  EXPECT_EQ(r2ts, 3u);
  EXPECT_EQ(none, 0u);
  // The first R2T comes back while the unsolicited 256 KiB is still being
  // sent (210 us at 1.18 GB/s > 50 us); each later one costs a full round
  // trip plus its header; and the data goes as four PDUs instead of one.
  const Nanos per_r2t = 50_us + TransferTime(48, kRate);
  const Nanos four_pdus = TransferTime(48 + 262144, kRate) * 4;
  EXPECT_EQ(r2t - unsolicited, per_r2t * 2 + four_pdus - TransferTime(48 + (1 << 20), kRate));
}

TEST(IscsiTest, QueueDepthIsTheLowerOfInitiatorAndTarget) {
  Engine e;
  auto s = testing::MustLoadText(
      IscsiText("initiator_queue_depth = 128\ntarget_queue_depth = 8", "latency = \"1ms\"\n"), e);
  Node& lun = s.stack->root();
  EXPECT_EQ(lun.caps().queue_depth, 8u);
  Node& dev = *s.stack->Find("dev");
  int done = 0;
  std::vector<uint8_t> buf(4096 * 32);
  for (int i = 0; i < 32; ++i) {
    lun.Submit(Request{.op = Op::kRead,
                       .offset = uint64_t(i) * 4096,
                       .length = 4096,
                       .data = buf.data() + i * 4096,
                       .done = [&](Status st) {
                         EXPECT_TRUE(st.ok());
                         ++done;
                       }});
  }
  while (e.Step()) {
  }
  EXPECT_EQ(done, 32);
  EXPECT_EQ(dev.stats().max_in_flight(), 8u);
}

TEST(IscsiTest, WithoutTheWriteCacheEveryWriteIsWrittenThrough) {
  Engine e;
  const std::string lun_keys = "write_cache = false\n";
  auto s = testing::MustLoadText("[node.lun]\ntype = \"iscsi\"\nchild = \"disk\"\n" + lun_keys +
                                     "[node.disk]\ntype = \"hdd\"\ncapacity = \"1GiB\"\n",
                                 e);
  Node& lun = s.stack->root();
  EXPECT_FALSE(lun.caps().volatile_cache);
  auto w = Pattern(4096, 5);
  ASSERT_TRUE(testing::Write(e, lun, 0, w).status.ok());
  Engine e2;
  auto s2 = testing::MustLoadText(
      "[node.lun]\ntype = \"iscsi\"\nchild = \"disk\"\n[node.disk]\ntype = \"hdd\"\n"
      "capacity = \"1GiB\"\n",
      e2);
  EXPECT_TRUE(s2.stack->root().caps().volatile_cache);
  ASSERT_TRUE(testing::Write(e2, s2.stack->root(), 0, w).status.ok());
  // The HDD's FUA write waits for the platter; the cached one does not.
  EXPECT_GT(s.stack->Find("disk")->stats().op(Op::kWrite).latency_ns.max(),
            5 * s2.stack->Find("disk")->stats().op(Op::kWrite).latency_ns.max());
}

TEST(IscsiTest, BadKeysNameTheKeyAndTheFile) {
  for (const char* bad : {"mtu = 100", "target_queue_depth = 0", "max_burst = \"100\"",
                          "link_rate = \"0\"", "write_cache = 3"}) {
    Engine e;
    auto s = LoadStackText(IscsiText(bad), "lun.toml", ".", e, BuildOptions{});
    ASSERT_FALSE(s.ok()) << bad;
    const std::string msg(s.status().message());
    EXPECT_NE(msg.find("lun.toml"), std::string::npos) << msg;
    const std::string key(bad, std::string(bad).find(' '));
    EXPECT_NE(msg.find(key), std::string::npos) << msg;
  }
}

// ESXi on a zvol over iSCSI: the guest's write then flush, then a power cut
// of the whole stack (the TrueNAS server with it).
struct EsxiOutcome {
  bool survives;
  Nanos write_latency;
  bool honors_flush;
};
EsxiOutcome EsxiWriteFlushCut(const std::string& sync) {
  Engine e;
  auto s = testing::MustLoadText(
      "[node.vm]\ntype = \"vm\"\nchild = \"lun\"\nhypervisor = \"esxi\"\n"
      "[node.lun]\ntype = \"iscsi\"\nchild = \"zvol\"\n"
      "[node.zvol]\ntype = \"zfs\"\nchild = \"disk\"\nvolblocksize = \"16KiB\"\n"
      "capacity = \"512MiB\"\nmem = \"4GiB\"\nsync = \"" +
          sync + "\"\n[node.disk]\ntype = \"hdd\"\ncapacity = \"2GiB\"\n",
      e);
  Node& vm = s.stack->root();
  auto w = Pattern(4096, 9);
  auto wr = testing::Write(e, vm, 65536, w, kDirect);
  EXPECT_TRUE(wr.status.ok());
  EXPECT_TRUE(testing::Flush(e, vm).status.ok());
  EXPECT_EQ(s.stack->Find("zvol")->stats().op(Op::kFlush).ops, 0u) << "ESXi passed a flush on";
  const bool honors = vm.caps().honors_flush;
  s.stack->PowerCut();
  std::vector<uint8_t> back(4096);
  EXPECT_TRUE(testing::Read(e, vm, 65536, back).status.ok());
  return {back == w, wr.latency, honors};
}

TEST(IscsiTest, EsxiOnAZvolKeepsAFlushedWriteOnlyWithSyncAlways) {
  const EsxiOutcome standard = EsxiWriteFlushCut("standard");
  const EsxiOutcome always = EsxiWriteFlushCut("always");
  EXPECT_FALSE(standard.survives);
  EXPECT_FALSE(standard.honors_flush);  // declared, so the oracle counts the loss as allowed
  EXPECT_TRUE(always.survives);
  EXPECT_TRUE(always.honors_flush);  // the zvol has no volatile cache left to lose
  // sync=always pays the ZIL write on the HDD before the write completes.
  EXPECT_GT(always.write_latency, standard.write_latency * 10);
}

TEST(IscsiTest, EsxiMakesEveryWriteStableOnAnNfsDatastore) {
  Engine e;
  auto s = testing::MustLoadText(
      "[node.vm]\ntype = \"vm\"\nchild = \"nfs\"\nhypervisor = \"esxi\"\n"
      "[node.nfs]\ntype = \"nfs\"\nchild = \"disk\"\n"
      "[node.disk]\ntype = \"ram\"\ncapacity = \"64MiB\"\n",
      e);
  auto w = Pattern(4096, 2);
  ASSERT_TRUE(testing::Write(e, s.stack->root(), 0, w, kDirect).status.ok());
  auto* nfs = s.stack->Find("nfs");
  EXPECT_EQ(nfs->stats().op(Op::kWrite).ops, 1u);
  EXPECT_TRUE(s.stack->root().caps().honors_flush);
  // The virtual disk shows the guest no volatile cache (the guest's own
  // page cache above it is volatile, as any guest's is).
  EXPECT_FALSE(NodeAs<VmNode>(&s.stack->root())->vdisk().caps().volatile_cache);
}

TEST(IscsiTest, EsxiHasNoCacheModes) {
  Engine e;
  auto s = LoadStackText(
      "[node.vm]\ntype = \"vm\"\nchild = \"disk\"\nhypervisor = \"esxi\"\ncache = \"writeback\"\n"
      "[node.disk]\ntype = \"ram\"\ncapacity = \"64MiB\"\n",
      "esxi.toml", ".", e, BuildOptions{});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.status().message()).find("cache"), std::string::npos);
}

}  // namespace iscsi_test
}  // namespace storlab
