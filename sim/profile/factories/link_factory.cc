// MakeLink: the "link" node type's profile keys: a preset `kind`
// (sim/layers/link/link_presets.h) and its overrides, read into LinkConfig.
#include <memory>
#include <string>

#include "sim/layers/link/link.h"
#include "sim/profile/factories/factories.h"
#include "sim/quoted.h"

namespace storlab {

Result<std::unique_ptr<Node>> MakeLink(Params& params, BuildContext& ctx) {
  std::string kind;
  params.Require("kind");
  params.String({"kind", "the preset whose figures the keys below override: " + LinkPresetNames()},
                &kind);
  const LinkPreset* preset = FindLinkPreset(kind);
  if (!preset && !params.describing()) {
    // Require() has already recorded a missing key; name the known kinds.
    params.Fail("kind",
                "unknown link kind " + Quoted(kind) + " (known: " + LinkPresetNames() + ")");
    return params.Finish();
  }
  // Describe mode (no kind) reads on over the first preset: every default
  // below but bandwidth's ("not set") is the kind's.
  LinkConfig c = (preset ? preset : &LinkPresets().front())->config;
  params.DefaultsFrom("kind");
  params.Rate({"line_rate", "signalling rate per lane and direction"}, &c.line_rate);
  params.Int({"lanes", "lanes in each direction (PCIe x4: 4)"}, &c.lanes, 1, 32);
  params.Fraction({"encoding", "line coding: payload bits per line bit (8b/10b: 0.8)"}, &c.encoding,
                  Params::Bound::kPositive);
  params.Fraction({"efficiency", "framing and protocol overhead: payload bytes per coded byte"},
                  &c.efficiency, Params::Bound::kPositive);
  double bandwidth = 0;
  params.Rate(
      {"bandwidth", "payload rate as given (not set: line_rate x lanes x encoding x efficiency)"},
      &bandwidth);
  std::string duplex = c.full_duplex ? "full" : "half";
  params.Enum({"duplex", "full: reads and writes move at once; half: one shared channel (SATA)"},
              &duplex, {"full", "half"});
  c.full_duplex = duplex == "full";
  params.Duration({"command_latency", "per command, host to device, before the child sees it"},
                  &c.command_latency);
  params.Duration({"status_latency", "per command, device to host, after the child completes"},
                  &c.status_latency);
  params.Int({"queue_depth", "commands outstanding at the child at once (USB BOT: 1)"},
             &c.queue_depth, 1, 65535);
  params.Bool({"broken_fua", "the bridge drops the FUA bit (Linux US_FL_BROKEN_FUA)"},
              &c.broken_fua);
  params.Bool({"trim_passthrough", "TRIM/UNMAP passes through to the child"}, &c.trim_passthrough);
  if (bandwidth > 0) {
    // The payload rate as given: no further coding or framing applies.
    c.line_rate = bandwidth;
    c.lanes = 1;
    c.encoding = c.efficiency = 1.0;
  }
  if (c.payload_rate() <= 0) params.Fail("line_rate", "the payload rate must be positive");
  RETURN_IF_ERROR(params.Finish());
  return std::unique_ptr<Node>(new Link(ctx.engine, ctx.node_name, *ctx.children[0], c));
}

}  // namespace storlab
