// Link presets: the published figures of common host links and bridges
// (USB 3 BOT/UAS, SATA, PCIe, Ethernet), by name, for the link model.
//
// A preset is a starting point: every field can be overridden by a profile
// key of the same name (see link.h). Each figure's source is written beside
// it in link_presets.cc. Plain data; thread-safe (read-only).
#ifndef STORLAB_SIM_LAYERS_LINK_LINK_PRESETS_H_
#define STORLAB_SIM_LAYERS_LINK_LINK_PRESETS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/time.h"

namespace storlab {

struct LinkConfig {
  // Signalling rate per lane and direction, bytes per second (5 Gb/s = 625e6).
  double line_rate = 0;
  uint32_t lanes = 1;
  // Line coding: payload bits per line bit (8b/10b = 0.8, 128b/130b ≈ 0.985).
  double encoding = 1.0;
  // Framing and protocol overhead: payload bytes per coded byte on the wire
  // (packet headers, TLP/FIS framing, Ethernet/IP/TCP headers).
  double efficiency = 1.0;
  // Full duplex: reads and writes move data at the same time (USB 3, PCIe,
  // Ethernet). Half duplex: one shared channel (SATA).
  bool full_duplex = true;
  // Per command: host → device before the child sees it (command block,
  // bridge firmware), and device → host after the child completes (status).
  Nanos command_latency;
  Nanos status_latency;
  // Commands outstanding at the child at once: 1 for USB BOT (no queueing).
  uint32_t queue_depth = 32;
  // Bridge quirks: drops the FUA bit (Linux US_FL_BROKEN_FUA); does not pass
  // TRIM/UNMAP through.
  bool broken_fua = false;
  bool trim_passthrough = true;

  // Payload bytes per second in each direction.
  double payload_rate() const { return line_rate * lanes * encoding * efficiency; }
};

struct LinkPreset {
  std::string_view name;
  std::string_view summary;
  LinkConfig config;
};

// All presets, in a fixed order.
const std::vector<LinkPreset>& LinkPresets();
// nullptr if `name` is not a preset.
const LinkPreset* FindLinkPreset(std::string_view name);
// "usb3-gen1-bot, usb3-gen1-uas, ..." for error messages.
std::string LinkPresetNames();

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_LINK_LINK_PRESETS_H_
