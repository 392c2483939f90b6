// MakeVm: the "vm" node type's profile keys, read into VmNode::Config.
#include <memory>
#include <string>

#include "sim/layers/vm/vm_node.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

// Each key's meaning is beside its getter (`storlab stacks types vm`).
Result<std::unique_ptr<Node>> MakeVm(Params& params, BuildContext& ctx) {
  VmNode::Config c;
  std::string hypervisor = "qemu";
  params.Enum({"hypervisor",
               "qemu (KVM, Proxmox VE, libvirt) or esxi: no host cache, guest flushes completed "
               "by ESXi, every write FILE_SYNC on an NFS datastore"},
              &hypervisor, {"qemu", "esxi"});
  c.esxi = hypervisor == "esxi";
  // Plain QEMU's default (qemu-options.hx: "writeback is the default");
  // ESXi: direct, no flush emulation (the esxi flag gives its flush semantics).
  std::string cache = c.esxi ? "none" : "writeback";
  // qemu-options.hx, -drive cache=: the five modes and their three flags.
  params.Enum({"cache", "host cache mode (qemu -drive cache=); Proxmox VE's default is none"},
              &cache, {"none", "writeback", "writethrough", "directsync", "unsafe"});
  std::string discard = "ignore";  // qemu-options.hx: discard=ignore is the default
  params.Enum(
      {"discard", "TRIM passthrough: unmap passes the guest's discards on, ignore drops them"},
      &discard, {"ignore", "unmap"});
  // Per-request cost of the virtual disk. The added latency is ASSUMED (not
  // yet sourced). The ceiling is published: QEMU virtio-blk with one
  // virtqueue on a RAM disk (so the emulation is all the cost), fio 4 KiB
  // QD128 cache=none, 1 vCPU: 123k random reads, 129k random writes per
  // second (qemu-devel, "[RFC patch 0/1] block: vhost-blk backend",
  // A. Zhadchenko, 2022-07-25); 125k lies inside that range.
  c.latency = Nanos(20'000);
  params.Duration(
      {"latency", "added per request: virtqueue kick, vmexit, completion irq (assumed)"},
      &c.latency);
  c.iops = 125'000;
  params.Double({"iops",
                 "one virtqueue's ceiling, requests per second (qemu-devel vhost-blk RFC 2022: "
                 "123k-129k on a RAM disk); 0: none"},
                &c.iops, 0, 1e9);
  params.Int({"queue_depth", "the virtqueue's depth (virtio-blk queue-size, qemu default 256)"},
             &c.queue_depth, 1, 65536);
  RETURN_IF_ERROR(params.Finish());
  if (c.esxi && cache != "none") {
    params.Fail("cache",
                "ESXi has no host cache modes: VMFS reaches its datastore without a "
                "host page cache (cache = \"none\", or leave it out)");
  }
  c.writeback = cache == "none" || cache == "writeback" || cache == "unsafe";
  c.direct = cache == "none" || cache == "directsync";
  c.no_flush = cache == "unsafe";
  c.discard = discard == "unmap";
  // The host page cache is a node of its own: a mode that uses it needs one
  // as the child (a node the stack file names, with the host's figures).
  // An image format (qcow2) sits between: the file below it is what the
  // host caches.
  const Node* home = ctx.children[0];
  if (home->kind() == NodeKind::kQcow2) home = home->children()[0];
  if (!c.direct && home->kind() != NodeKind::kPageCache) {
    params.Fail("cache", "\"" + cache + "\" uses the host page cache: the vm's child (or its " +
                             "qcow2 image's child) must be a page_cache node (or use cache = " +
                             "\"none\" or \"directsync\")");
  }
  RETURN_IF_ERROR(params.Finish());
  return std::unique_ptr<Node>(new VmNode(ctx.engine, ctx.node_name, *ctx.children[0], c));
}

}  // namespace storlab
