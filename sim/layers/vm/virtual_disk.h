// VirtualDisk: the hypervisor's side of a "vm" node (vm_node.h builds it
// below the guest's page cache): a QEMU virtual disk between the guest's
// block requests and the image's home (the child).
//
// Modelled: the virtual disk's per-request cost (a fixed added latency and
// one iothread's IOPS ceiling: requests leave the iothread no closer
// together than 1/iops), the guest's queue depth on its bus (virtio-blk,
// virtio-scsi, emulated SATA (AHCI) or IDE: the figures are the factory's,
// sim/profile/factories/vm_factory.cc) and the host cache mode with qemu's three
// flags (qemu-options.hx, "-drive cache="):
//   mode          cache.writeback cache.direct cache.no-flush
//   none          on              on           off
//   writeback     on              off          off
//   writethrough  off             off          off
//   directsync    off             on           off
//   unsafe        on              off          on
// cache.direct sends requests with kDirect (O_DIRECT: a page_cache child
// passes them through); cache.writeback=off follows every write with a
// flush of the child (block/block-backend.c sets BDRV_REQ_FUA when the
// write cache is off; block/io.c bdrv_driver_pwritev emulates FUA with
// bdrv_co_flush) and shows the guest no volatile cache; cache.no-flush drops
// the guest's flushes (block/io.c bdrv_co_flush: BDRV_O_NO_FLUSH), so the
// node declares honors_flush/honors_fua false for the oracle.
// discard=ignore completes trims without passing them on.
// An ESXi host (`esxi`) has no host cache modes: VMFS reaches its datastore
// without a host page cache, and ESXi treats the datastore as write-through
// storage — it completes the guest's cache flushes itself and sends plain
// writes to a block datastore (iSCSI, FC), but makes every write stable on
// an NFS datastore (its NFS client sends each WRITE FILE_SYNC). So a ZFS
// iSCSI target with sync=standard holds acknowledged writes in RAM until
// its txg commits, and an NFS datastore is slow ("Sync writes, or: Why is
// my ESXi NFS so slow, and why is iSCSI faster?", TrueNAS community
// resource; the power-loss table in "ESXi 5.5 and ZFS - sync, async NFS +
// iSCSI powerloss data security", ServeTheHome forums, 2014). Declared to
// the oracle: on a block datastore with a volatile cache the node honours
// neither flush nor FUA. On a block datastore the VMDK is a file on VMFS:
// a lazy-zeroed thick or thin VMDK (`vmdk_zero_on_first_write`) zeroes each
// 1 MiB VMFS block before the first guest write to it reaches the LUN, with
// one WRITE SAME (write-zeroes, kNoUnmap) when the LUN takes it (VAAI Block
// Zeroing); the blocks and their sources are vmdk_blocks.h's. An NFS
// datastore holds the VMDK as a file of the NAS, which ESXi does not zero.
// The image format is a node of its own below (qcow2_node.h); raw is none.
// NOT modelled: the buses' differences beyond their cost and queue depth
// (SCSI sense data, ATA's 32 MiB command limit); a thin VMDK's allocation
// of a block (a VMFS metadata update, no published cost found: thin costs
// what lazy-zeroed does); reads of a block not yet zeroed, which VMFS may
// answer with zeros without reading (they read the LUN here); the guest's
// UNMAP returning a thin VMDK's blocks. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_VM_VIRTUAL_DISK_H_
#define STORLAB_SIM_LAYERS_VM_VIRTUAL_DISK_H_

#include <deque>
#include <memory>
#include <string>

#include "sim/layers/vm/vmdk_blocks.h"
#include "sim/node.h"

namespace storlab {

class VirtualDisk : public NodeWrapper {
 public:
  struct Config {
    bool writeback = true;       // cache.writeback
    bool direct = true;          // cache.direct
    bool no_flush = false;       // cache.no-flush
    bool discard = false;        // discard=unmap (true) or ignore
    Nanos latency = Nanos(0);    // added per request (virtqueue kick, vmexit, completion irq)
    double iops = 0;             // the iothread's ceiling; 0: none
    uint32_t queue_depth = 256;  // the guest's queue depth on the bus (virtio-blk queue-size)
    bool esxi = false;           // an ESXi host instead of QEMU (the three flags unused)
    // ESXi, block datastore: a lazy-zeroed thick or thin VMDK, zeroed on the
    // first write to each VMFS block (vmdk_blocks.h); false: eager-zeroed.
    bool vmdk_zero_on_first_write = false;
  };
  VirtualDisk(Engine& engine, std::string name, Node& child, const Config& config);
  static constexpr NodeKind kKind = NodeKind::kVirtualDisk;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "virtual_disk"; }
  void AppendStats(StatList& out) const override;
  // An idle virtual disk holds nothing a later run depends on (the
  // iothread's next slot is in the past once the stack is idle) but the
  // VMDK's zeroed blocks.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;
  // The VMDK's zeroed blocks (ESXi, lazy-zeroed or thin); nullptr otherwise.
  const VmdkBlocks* vmdk_blocks() const { return vmdk_.get(); }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  // Takes one of the bus's queue slots until `req` completes.
  void Start(Request req);
  void Issue(Request req);
  void FlushAfterWrite(Request req);
  // Sends `req` on once the VMFS blocks it writes are zeroed.
  void AfterZeroing(Request req);

  Config config_;
  Nanos next_slot_ = Nanos(0);  // when the iothread can take the next request
  uint64_t epoch_ = 0;
  uint64_t dropped_flushes_ = 0;
  uint64_t emulated_flushes_ = 0;
  bool stable_writes_ = false;   // ESXi on NFS: every write FILE_SYNC
  uint32_t in_flight_ = 0;       // requests holding a queue slot
  std::deque<Request> waiting_;  // beyond the queue depth: held in the guest's block layer
  uint64_t queue_waits_ = 0;
  std::unique_ptr<VmdkBlocks> vmdk_;  // ESXi lazy-zeroed or thin VMDK on a block datastore
  VmdkBlocks::StartZeroing start_zeroing_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_VM_VIRTUAL_DISK_H_
