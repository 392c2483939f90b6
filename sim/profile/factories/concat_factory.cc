// MakeConcat: the "concat" node type (no keys of its own; checks the children).
#include <algorithm>
#include <memory>
#include <string>

#include "sim/layers/concat.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

Result<std::unique_ptr<Node>> MakeConcat(Params& params, BuildContext& ctx) {
  RETURN_IF_ERROR(params.Finish());
  uint32_t lb = 512;
  for (Node* c : ctx.children) lb = std::max(lb, c->geometry().logical_block);
  for (Node* c : ctx.children) {
    if (c->geometry().capacity % lb != 0) {
      params.Fail("children", "'" + c->name() + "' is not a multiple of the " + std::to_string(lb) +
                                  "-byte logical block");
      return params.Finish();
    }
  }
  return std::unique_ptr<Node>(new Concat(ctx.engine, ctx.node_name, ctx.children));
}

}  // namespace storlab
