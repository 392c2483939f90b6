#include "sim/layers/link/link_presets.h"

#include "sim/layers/link/ethernet_frame.h"

namespace storlab {
namespace {

using namespace time_literals;

constexpr double kGbps = 1e9 / 8;  // bytes per second in one Gb/s

// USB 3.2 Gen 1 (5 Gb/s, 8b/10b) and Gen 2 (10 Gb/s, 128b/132b): USB 3.2
// spec. Effective payload ~450 MB/s and ~1.1 GB/s at best (everythingusb
// speed table), so efficiency = 450/500 and 1100/1212 (derived).
LinkConfig Usb(double gbps, double encoding, double efficiency, bool uas) {
  LinkConfig c;
  c.line_rate = gbps * kGbps;
  c.encoding = encoding;
  c.efficiency = efficiency;
  c.full_duplex = true;  // SuperSpeed is dual-simplex (separate TX/RX pairs)
  if (uas) {
    // UAS: command IU out, sense IU in, over streams; tagged queueing. The
    // bridge (JMS580) forwards to SATA NCQ, 32 tags (AHCI/SATA spec).
    // Latencies assumed: a few tens of µs of bridge firmware per command, no
    // published figure. (The 608 IOPS of the bb-qq/uas UAS measurement is
    // bound by the drive's NCQ, not by these: 0 µs or 150 µs give the same.)
    c.command_latency = 40_us;
    c.status_latency = 20_us;
    c.queue_depth = 32;
  } else {
    // BOT: CBW (31 B) out, data, CSW (13 B) in, one command at a time (USB
    // Mass Storage Class Bulk-Only Transport 1.0). Latencies fitted to
    // reproduce 192 IOPS 4K random read on the same drive and bridge
    // (bb-qq/uas README) with the hdd-7200 model: 340 µs per command in all;
    // the split between CBW and CSW is assumed. The Linux usb-storage driver
    // waits for each CSW before the next CBW.
    c.command_latency = 200_us;
    c.status_latency = 140_us;
    c.queue_depth = 1;
  }
  return c;
}

// SATA 6 Gb/s, 8b/10b → 600 MB/s; FIS framing leaves ~550–600 MB/s usable
// (SATA 3.0 spec; 860/870 EVO reviews reach 550–560 MB/s): 0.95 assumed.
// Half duplex: one link, one FIS at a time. NCQ: 32 tags (AHCI). Command and
// status FIS exchange: a few µs (assumed).
LinkConfig Sata() {
  LinkConfig c;
  c.line_rate = 6 * kGbps;
  c.encoding = 0.8;
  c.efficiency = 0.95;
  c.full_duplex = false;
  c.command_latency = 2_us;
  c.status_latency = 2_us;
  c.queue_depth = 32;
  return c;
}

// PCIe gen3 8 GT/s, gen4 16 GT/s per lane, 128b/130b (PCIe base spec).
// TLP framing with a 256-byte max payload: 256/(256+26) ≈ 0.9 (derived), so
// gen3 x4 ≈ 3.55 GB/s (970 EVO Plus reads 3.5 GB/s) and gen4 x4 ≈ 7.1 GB/s
// (980 Pro reads 7 GB/s). Doorbell write + completion: ~1 µs (assumed).
// NVMe: up to 64K entries per queue (NVMe spec).
LinkConfig Pcie(double gts, uint32_t lanes) {
  LinkConfig c;
  c.line_rate = gts * kGbps;
  c.lanes = lanes;
  c.encoding = 128.0 / 130.0;
  c.efficiency = 0.9;
  c.full_duplex = true;
  c.command_latency = Nanos(500);
  c.status_latency = Nanos(500);
  c.queue_depth = 65535;
  return c;
}

// Ethernet: payload bytes per wire byte from the MTU (EthernetFrame: IEEE
// 802.3, RFC 791/793/7323): MTU 1500 → 1448 of 1538 (0.9415, ≈117.7 MB/s at
// 1 Gb/s), MTU 9000 → 8948 of 9038 (0.9900). 2.5GBASE-T: IEEE 802.3bz. LAN
// round trip ~100 µs at 1 Gb/s, ~80 µs at 2.5 Gb/s, ~50 µs at 10 Gb/s
// (assumed typical switch + stack figures), half each way. Queue: as deep
// as TCP lets a client pipeline (assumed 128).
LinkConfig Ethernet(double gbps, Nanos one_way, uint32_t mtu = 1500) {
  LinkConfig c;
  c.line_rate = gbps * kGbps;
  c.encoding = 1.0;  // the 1 Gb/s figure is already the data rate
  c.efficiency = EthernetFrame::ForMtu(mtu).efficiency();
  c.full_duplex = true;
  c.command_latency = one_way;
  c.status_latency = one_way;
  c.queue_depth = 128;
  return c;
}

}  // namespace

const std::vector<LinkPreset>& LinkPresets() {
  static const std::vector<LinkPreset> kPresets = {
      {"usb3-gen1-bot", "USB 3 Gen 1 (5 Gb/s), Bulk-Only Transport: one command at a time",
       Usb(5, 0.8, 0.9, false)},
      {"usb3-gen1-uas", "USB 3 Gen 1 (5 Gb/s), UAS: tagged command queueing",
       Usb(5, 0.8, 0.9, true)},
      {"usb3-gen2-bot", "USB 3 Gen 2 (10 Gb/s), Bulk-Only Transport",
       Usb(10, 128.0 / 132.0, 0.907, false)},
      {"usb3-gen2-uas", "USB 3 Gen 2 (10 Gb/s), UAS", Usb(10, 128.0 / 132.0, 0.907, true)},
      {"sata3", "SATA 6 Gb/s, half duplex, NCQ 32", Sata()},
      {"pcie3-x1", "PCIe 3.0 x1", Pcie(8, 1)},
      {"pcie3-x2", "PCIe 3.0 x2", Pcie(8, 2)},
      {"pcie3-x4", "PCIe 3.0 x4", Pcie(8, 4)},
      {"pcie4-x4", "PCIe 4.0 x4", Pcie(16, 4)},
      {"ethernet-1g", "1 Gb/s Ethernet (TCP payload)", Ethernet(1, Nanos(50'000))},
      {"ethernet-10g", "10 Gb/s Ethernet (TCP payload)", Ethernet(10, Nanos(25'000))},
      {"ethernet-1g-mtu9000", "1 Gb/s Ethernet, 9000-byte jumbo frames",
       Ethernet(1, Nanos(50'000), 9000)},
      {"ethernet-2.5g", "2.5 Gb/s Ethernet (TCP payload)", Ethernet(2.5, Nanos(40'000))},
      {"ethernet-2.5g-mtu9000", "2.5 Gb/s Ethernet, 9000-byte jumbo frames",
       Ethernet(2.5, Nanos(40'000), 9000)},
      {"ethernet-10g-mtu9000", "10 Gb/s Ethernet, 9000-byte jumbo frames",
       Ethernet(10, Nanos(25'000), 9000)},
  };
  return kPresets;
}

const LinkPreset* FindLinkPreset(std::string_view name) {
  for (const auto& p : LinkPresets())
    if (p.name == name) return &p;
  return nullptr;
}

std::string LinkPresetNames() {
  std::string s;
  for (const auto& p : LinkPresets()) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

}  // namespace storlab
