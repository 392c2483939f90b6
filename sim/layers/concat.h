// Concat: several devices joined end to end into one address space, like
// device-mapper's linear target or a multi-bay USB enclosure presenting its
// drives through one bridge and one link.
//
// A request that crosses a boundary is split into one request per child
// and completes when all parts have (with the first error). FLUSH goes to
// every child. Capabilities are what all children share (trim, durability
// promises); the logical block is the largest of theirs. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CONCAT_H_
#define STORLAB_SIM_LAYERS_CONCAT_H_

#include <vector>

#include "sim/node.h"

namespace storlab {

class Concat : public Node {
 public:
  // REQUIRES: children non-empty, each capacity a multiple of every
  // child's logical block.
  Concat(Engine& engine, std::string name, std::vector<Node*> children);
  static constexpr NodeKind kKind = NodeKind::kConcat;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "concat"; }
  std::vector<Node*> children() const override { return children_; }
  // --state: nothing (an address map; the children carry the data).
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter&) const override { return Status(); }
  Status RestoreState(StateReader&) override { return Status(); }

 protected:
  void DoSubmit(Request req) override;

 private:
  std::vector<Node*> children_;
  std::vector<uint64_t> starts_;  // where each child begins
};

// `type = "concat"`, one or more children, no keys.

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CONCAT_H_
