// VmNode: the "vm" node type (issue 16 §1): a virtual machine between a
// workload and the image's home. The workload runs in the guest; the node
// is the guest's view of its disk, three nodes deep:
//
//   vm            this node: what the guest's programs call (forwards)
//   vm.guest      the guest kernel's page cache (PageCache, the same model
//                 as the host's: dirty_background_ratio / dirty_ratio of the
//                 guest's RAM, writeback, read-ahead, throttling)
//   vm.vdisk      the virtual disk (VirtualDisk, virtual_disk.h): the bus's
//                 per-request cost and queue depth, the host cache mode
//   <child>       the image's home (a qcow2 node, a host page cache over a
//                 file's device, a zvol, an iSCSI LUN ...)
//
// Buffered requests are absorbed by the guest's page cache up to the guest's
// dirty limit; a guest's O_DIRECT (kDirect) passes the guest's cache (kept
// coherent, as Linux does) and reaches the virtual disk, where the host
// cache mode alone decides whether the host's page cache takes it.
// The factory builds the two inner nodes as parts of the stack (named
// "<name>.guest" and "<name>.vdisk"), so their stats, power cuts, traces
// and saved state are every node's. A power cut is the host's: the guest's
// dirty pages are lost with it. The guest's RAM and vCPUs are the machine a
// workload runs on (workloads/host/sim_host.h takes them from guest()).
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_VM_VM_NODE_H_
#define STORLAB_SIM_LAYERS_VM_VM_NODE_H_

#include <string>

#include "sim/layers/page_cache/page_cache.h"
#include "sim/layers/vm/virtual_disk.h"
#include "sim/node.h"

namespace storlab {

class VmNode : public NodeWrapper {
 public:
  // REQUIRES: guest's child is vdisk; both outlive this node.
  VmNode(Engine& engine, std::string name, PageCache& guest, VirtualDisk& vdisk);
  static constexpr NodeKind kKind = NodeKind::kVm;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "vm"; }

  // The guest's page cache (its HostSpec: the guest's RAM, vCPUs and dirty
  // limits) and the virtual disk below it.
  PageCache& guest() const { return guest_; }
  VirtualDisk& vdisk() const { return vdisk_; }

  // Holds nothing of its own: the guest's page cache saves its pages.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter&) const override { return Status(); }
  Status RestoreState(StateReader&) override { return Status(); }

 protected:
  // As the guest's page cache: buffered reads and writes at any byte.
  uint64_t Alignment(const Request& req) const override;

 private:
  PageCache& guest_;
  VirtualDisk& vdisk_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_VM_VM_NODE_H_
