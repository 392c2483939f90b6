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
  params.String("kind", &kind);
  const LinkPreset* preset = FindLinkPreset(kind);
  if (!preset) {
    // Require() has already recorded a missing key; name the known kinds.
    params.Fail("kind",
                "unknown link kind " + Quoted(kind) + " (known: " + LinkPresetNames() + ")");
    return params.Finish();
  }
  LinkConfig c = preset->config;
  params.Rate("line_rate", &c.line_rate);
  params.Int("lanes", &c.lanes, 1, 32);
  params.Fraction("encoding", &c.encoding, Params::Bound::kPositive);
  params.Fraction("efficiency", &c.efficiency, Params::Bound::kPositive);
  double bandwidth = 0;
  params.Rate("bandwidth", &bandwidth);
  std::string duplex = c.full_duplex ? "full" : "half";
  params.Enum("duplex", &duplex, {"full", "half"});
  c.full_duplex = duplex == "full";
  params.Duration("command_latency", &c.command_latency);
  params.Duration("status_latency", &c.status_latency);
  params.Int("queue_depth", &c.queue_depth, 1, 65535);
  params.Bool("broken_fua", &c.broken_fua);
  params.Bool("trim_passthrough", &c.trim_passthrough);
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
