#include "sim/layers/vm/vm_node.h"

namespace storlab {

VmNode::VmNode(Engine& engine, std::string name, PageCache& guest, VirtualDisk& vdisk)
    : NodeWrapper(engine, std::move(name), guest), guest_(guest), vdisk_(vdisk) {}

uint64_t VmNode::Alignment(const Request& req) const {
  const bool buffered = (req.flags & kDirect) == 0 && (req.op == Op::kRead || req.op == Op::kWrite);
  return buffered ? 1 : geometry_.logical_block;
}

}  // namespace storlab
