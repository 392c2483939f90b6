// The node types a stack file can name, and how each one is built.
//
// Every node type has one factory (sim/profile/factories/factories.h, one
// file per type: factories/<type>_factory.cc):
//
//   Result<std::unique_ptr<Node>> MakeHdd(Params& p, BuildContext& ctx);
//
// which reads its parameters from `p` into the model's plain Config (ending
// with `return p.Finish()`-style error handling: if p.Finish() is not OK,
// return it), checks ctx.children against what it needs, and returns the
// node. The models (sim/devices/, sim/layers/) know nothing of Params or
// BuildContext. The table in node_types.cc lists every factory; there is no
// static self-registration, so the order and the set of types are plain to
// see.
#ifndef STORLAB_SIM_PROFILE_NODE_TYPES_H_
#define STORLAB_SIM_PROFILE_NODE_TYPES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine.h"
#include "sim/node.h"
#include "sim/profile/params.h"
#include "sim/status.h"
#include "sim/store/store.h"

namespace storlab {

struct BuildContext {
  Engine& engine;
  uint64_t seed;                // the run's seed; models derive Random(seed, name)
  DataMode data_mode;           // how durable stores keep data
  std::string node_name;        // the node being built (unique within the stack)
  std::vector<Node*> children;  // already built, in the order the file lists them
  // Nodes a factory builds inside the one it returns (the vm node's guest
  // page cache and virtual disk), children first; the stack adopts them
  // before it. Their names must start with node_name and a dot.
  std::vector<std::unique_ptr<Node>> parts;

  // The durable store for this node (RAM, sparse file or none, by data_mode).
  Result<std::unique_ptr<Store>> MakeStore(uint64_t capacity) const {
    return storlab::MakeStore(data_mode, node_name, capacity);
  }
  // Whether volatile overlays should keep data (false in timing-only runs).
  bool keeps_data() const { return data_mode.kind != DataMode::Kind::kNone; }
};

using NodeFactory = Result<std::unique_ptr<Node>> (*)(Params& params, BuildContext& ctx);

struct NodeType {
  std::string_view name;     // as written in `type = "..."`
  std::string_view summary;  // one line for `storlab stacks types`
  int min_children;
  int max_children;  // -1: any number
  NodeFactory make;
};

// All node types, in a fixed order.
const std::vector<NodeType>& NodeTypes();
const NodeType* FindNodeType(std::string_view name);

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_NODE_TYPES_H_
