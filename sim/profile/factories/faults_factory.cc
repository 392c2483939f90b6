// MakeFaults: the "faults" node type's profile keys (each with its meaning
// beside its getter: `storlab stacks types faults`).
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
  params.StringList({"media_errors", "\"OFFSET+LENGTH\" ranges whose reads fail (\"1MiB+4KiB\")"},
                    &ranges);
  params.Enum({"media_error_writes", "a write over a media error: remap it (and heal) or fail"},
              &bad_writes, {"remap", "fail"});
  params.Duration({"media_error_latency", "time to report a media error (drive error recovery)"},
                  &c.media_error_latency);
  params.Fraction({"spike_probability", "chance that a request is late"}, &c.spike_probability);
  params.Duration({"spike_latency", "how late a late request is"}, &c.spike_latency);
  params.Duration({"disappear_at", "the device vanishes at this simulated time (not set: never)"},
                  &disappear_at);
  params.Int({"disappear_after_ios", "the device vanishes after this many requests (0: never)"},
             &c.disappear_after_ios, 1, INT64_MAX);
  params.Bool({"torn_writes", "writes in flight at a power cut land in part"}, &c.torn_writes);
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
