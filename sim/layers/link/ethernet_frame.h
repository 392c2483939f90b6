// EthernetFrame: the bytes one full-sized TCP/IPv4 segment carries and the
// bytes it occupies on the wire, from the MTU. The one copy of this
// arithmetic: the NFS link and the Ethernet link presets both use it.
//
// Payload per frame: MTU - IPv4 header 20 (RFC 791 §3.1, no options) - TCP
// header 20 (RFC 793 §3.1) - timestamps option 12 (RFC 7323 §3: 10 bytes,
// padded to 12 with two NOPs as Linux sends it). Wire bytes per frame: MTU +
// Ethernet header 14 + FCS 4 + preamble/SFD 8 + inter-packet gap 12 (IEEE
// 802.3 clauses 3.1.1 and 4.4.2). For MTU 1500: 1448 of 1538 bytes (0.9415);
// for MTU 9000 (jumbo frames, not in 802.3 but universal): 8948 of 9038
// (0.9900). Plain data; thread-safe.
#ifndef STORLAB_SIM_LAYERS_LINK_ETHERNET_FRAME_H_
#define STORLAB_SIM_LAYERS_LINK_ETHERNET_FRAME_H_

#include <cstdint>

namespace storlab {

struct EthernetFrame {
  static constexpr uint32_t kTcpIpHeaders = 52;   // IPv4 20 + TCP 20 + timestamps 12
  static constexpr uint32_t kEthernetExtra = 38;  // header 14 + FCS 4 + preamble 8 + gap 12
  // Every IPv4 host accepts 576-byte datagrams (RFC 791 §3.1, Total Length);
  // 9216 is the largest jumbo frame common switches accept. Outside: a
  // profile error.
  static constexpr uint32_t kMinMtu = 576;
  static constexpr uint32_t kMaxMtu = 9216;

  uint32_t payload;  // TCP payload bytes per frame
  uint32_t wire;     // bytes of wire time per frame

  static constexpr EthernetFrame ForMtu(uint32_t mtu) {
    return {mtu - kTcpIpHeaders, mtu + kEthernetExtra};
  }
  // Payload bytes per line byte.
  constexpr double efficiency() const { return double(payload) / double(wire); }
  // Payload bytes per second at `line_bytes_per_s`. Multiplies before it
  // divides, as the NFS link always has (keeps its results bit-identical).
  constexpr double payload_rate(double line_bytes_per_s) const {
    return line_bytes_per_s * payload / wire;
  }
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_LINK_ETHERNET_FRAME_H_
