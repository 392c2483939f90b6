// MakeFaults: the "faults" node type's profile keys.
//
//   media_errors = ["1MiB+4KiB"]   OFFSET+LENGTH ranges whose reads fail
//   media_error_writes = "remap"   or "fail": what a write over one does
//   media_error_latency = "7s"     time to report it (drive error recovery;
//                                  0 by default)
//   spike_probability = 0.001      chance a request is late ...
//   spike_latency = "200ms"        ... and by how much
//   disappear_at = "30s"           the device vanishes at this simulated time
//   disappear_after_ios = 1000     ... or after this many requests
//   torn_writes = true             writes in flight at a power cut land in part
#include <memory>
#include <string>

#include "sim/layers/faults/faults_node.h"
#include "sim/profile/factories/factories.h"
#include "sim/profile/units.h"
#include "sim/quoted.h"

namespace storlab {
namespace {

// "OFFSET+LENGTH" → (offset, length).
Result<std::pair<uint64_t, uint64_t>> ParseRange(const std::string& text) {
  const size_t plus = text.find('+');
  if (plus == std::string::npos) {
    return Status::InvalidArgument(Quoted(text) + ": expected OFFSET+LENGTH, like \"1MiB+4KiB\"");
  }
  auto off = ParseSize(text.substr(0, plus));
  auto len = ParseSize(text.substr(plus + 1));
  if (!off.ok()) return Status::InvalidArgument(Quoted(text) + ": " + off.status().message());
  if (!len.ok()) return Status::InvalidArgument(Quoted(text) + ": " + len.status().message());
  if (*len == 0) return Status::InvalidArgument(Quoted(text) + ": empty range");
  return std::make_pair(*off, *len);
}

}  // namespace

Result<std::unique_ptr<Node>> MakeFaults(Params& params, BuildContext& ctx) {
  FaultsNode::Config c;
  std::vector<std::string> ranges;
  std::string bad_writes = "remap";
  Nanos disappear_at;
  const bool disappears = params.Has("disappear_at");
  params.StringList("media_errors", &ranges);
  params.Enum("media_error_writes", &bad_writes, {"remap", "fail"});
  params.Duration("media_error_latency", &c.media_error_latency);
  params.Fraction("spike_probability", &c.spike_probability);
  params.Duration("spike_latency", &c.spike_latency);
  params.Duration("disappear_at", &disappear_at);
  params.Int("disappear_after_ios", &c.disappear_after_ios, 1, INT64_MAX);
  params.Bool("torn_writes", &c.torn_writes);
  RETURN_IF_ERROR(params.Finish());

  const Node& child = *ctx.children[0];
  for (const std::string& r : ranges) {
    auto range = ParseRange(r);
    if (!range.ok()) {
      params.Fail("media_errors", range.status().message());
      continue;
    }
    if (range->first > child.geometry().capacity ||
        range->second > child.geometry().capacity - range->first) {
      params.Fail("media_errors", Quoted(r) + " ends beyond the device (" +
                                      std::to_string(child.geometry().capacity) + " bytes)");
    }
    c.media_errors.push_back(*range);
  }
  c.bad_writes =
      bad_writes == "fail" ? FaultsNode::BadWrites::kFail : FaultsNode::BadWrites::kRemap;
  if (c.spike_probability > 0 && c.spike_latency <= Nanos(0)) {
    params.Fail("spike_latency", "is required (and positive) when spike_probability > 0");
  }
  if (disappears) c.disappear_at = disappear_at;
  RETURN_IF_ERROR(params.Finish());
  return std::unique_ptr<Node>(
      new FaultsNode(ctx.engine, ctx.node_name, *ctx.children[0], c, ctx.seed));
}

}  // namespace storlab
