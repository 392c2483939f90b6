// Ethernet frame arithmetic (EthernetFrame) and the Ethernet link presets
// built on it: exact frame counts, the old presets unchanged, and a 1 MiB
// read's payload rate in virtual time equal to the derived figure.
#include "sim/layers/link/ethernet_frame.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/layers/link/link_presets.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace ethernet_frame_test {

using testing::DoIo;
using testing::MustLoadText;

TEST(EthernetFrameTest, PayloadAndWireBytesPerFrame) {
  // 1500 − 20 (IPv4) − 20 (TCP) − 12 (timestamps) = 1448;
  // 1500 + 14 (header) + 4 (FCS) + 8 (preamble/SFD) + 12 (gap) = 1538.
  constexpr EthernetFrame std_frame = EthernetFrame::ForMtu(1500);
  EXPECT_EQ(std_frame.payload, 1448u);
  EXPECT_EQ(std_frame.wire, 1538u);
  constexpr EthernetFrame jumbo = EthernetFrame::ForMtu(9000);
  EXPECT_EQ(jumbo.payload, 8948u);
  EXPECT_EQ(jumbo.wire, 9038u);
  EXPECT_NEAR(jumbo.efficiency(), 0.99004, 1e-5);
}

TEST(EthernetFrameTest, OldPresetsKeepTheirExactEfficiency) {
  // The figure ethernet-1g/10g had before the shared arithmetic, bit for bit.
  EXPECT_EQ(FindLinkPreset("ethernet-1g")->config.efficiency, 1448.0 / 1538.0);
  EXPECT_EQ(FindLinkPreset("ethernet-10g")->config.efficiency, 1448.0 / 1538.0);
}

TEST(EthernetFrameTest, PresetsAtEachRateAndMtu) {
  struct Case {
    const char* name;
    double gbps;
    uint32_t mtu;
  };
  for (const Case& c : {Case{"ethernet-1g", 1, 1500}, Case{"ethernet-1g-mtu9000", 1, 9000},
                        Case{"ethernet-2.5g", 2.5, 1500}, Case{"ethernet-2.5g-mtu9000", 2.5, 9000},
                        Case{"ethernet-10g", 10, 1500}, Case{"ethernet-10g-mtu9000", 10, 9000}}) {
    const LinkPreset* p = FindLinkPreset(c.name);
    ASSERT_NE(p, nullptr) << c.name;
    const EthernetFrame f = EthernetFrame::ForMtu(c.mtu);
    EXPECT_DOUBLE_EQ(p->config.payload_rate(), c.gbps * 1e9 / 8 * f.payload / f.wire) << c.name;
  }
}

TEST(EthernetFrameTest, MiBReadMovesAtTheDerivedPayloadRate) {
  // No command/status latency: a 1 MiB read costs its wire time only.
  for (const char* kind : {"ethernet-10g", "ethernet-10g-mtu9000"}) {
    Engine e;
    auto s = MustLoadText(std::string("[node.link]\ntype = \"link\"\nchild = \"dev\"\nkind = \"") +
                              kind +
                              "\"\ncommand_latency = \"0us\"\nstatus_latency = \"0us\"\n"
                              "[node.dev]\ntype = \"ram\"\ncapacity = \"1GiB\"\n",
                          e);
    std::vector<uint8_t> buf(1 << 20);
    auto rd = DoIo(e, s.stack->root(), Op::kRead, 0, buf.size(), buf.data());
    ASSERT_TRUE(rd.status.ok()) << kind;
    const double rate = FindLinkPreset(kind)->config.payload_rate();
    EXPECT_EQ(rd.latency, TransferTime(1 << 20, rate)) << kind;
    // ≈ 1.1769 GB/s at MTU 1500, ≈ 1.2375 GB/s at MTU 9000.
    EXPECT_NEAR(double(1 << 20) / (double(rd.latency.count()) * 1e-9), rate, rate * 1e-6) << kind;
  }
}

}  // namespace ethernet_frame_test
}  // namespace storlab
