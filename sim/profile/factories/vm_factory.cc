// MakeVm: the "vm" node type's profile keys, read into the guest's HostSpec
// (its page cache) and VirtualDisk::Config; builds the guest's page cache
// over the virtual disk over the child (sim/layers/vm/vm_node.h).
#include <memory>
#include <string>

#include "sim/layers/page_cache/page_cache.h"
#include "sim/layers/vm/virtual_disk.h"
#include "sim/layers/vm/vm_node.h"
#include "sim/profile/factories/factories.h"

namespace storlab {
namespace {

// The bus the guest sees its disk on: the guest's queue depth there and the
// per-request cost of its emulation.
struct Bus {
  std::string_view name;
  uint32_t queue_depth;
  double iops;
};
// virtio-blk: hw/block/virtio-blk.c "queue-size" default 256. Ceiling: one
//   virtqueue on a RAM disk (so the emulation is all the cost), fio 4 KiB
//   QD128 cache=none, 1 vCPU: 123k random reads, 129k random writes per
//   second (qemu-devel, "[RFC patch 0/1] block: vhost-blk backend",
//   A. Zhadchenko, 2022-07-25); 125k lies inside that range.
// virtio-scsi: the guest's per-LUN queue depth is the device's cmd_per_lun,
//   hw/scsi/virtio-scsi.c default 128 (Linux virtio_scsi.c sets
//   shost->cmd_per_lun from it). Ceiling ASSUMED virtio-blk's: no published
//   Linux-guest figure found; qemu.org "Configuring virtio-blk and
//   virtio-scsi Devices" (2021) prefers virtio-blk for performance, giving
//   no number.
// sata: QEMU's AHCI emulation, NCQ with 32 command slots (hw/ide/ahci.h
//   AHCI_MAX_CMDS). Ceiling 20k: KubeVirt, fio 4 KiB random read on a
//   hostPath volume, bus=sata 20,632 IOPS vs bus=virtio 120,883
//   (cloud-bulldozer/benchmark-operator pull request #396, 2020).
// ide: the PIIX IDE emulation has no command queueing (hw/ide/core.c: one
//   command per drive; Linux's libata runs a non-NCQ device at queue depth
//   1). Ceiling ASSUMED the SATA emulation's (both emulate ATA registers
//   with a vmexit per access; no published figure found).
constexpr Bus kBuses[] = {
    {"virtio-blk", 256, 125'000},
    {"virtio-scsi", 128, 125'000},
    {"sata", 32, 20'000},
    {"ide", 1, 20'000},
};

// The guest's RAM and CPUs and its kernel's dirty limits (the guest's page
// cache is the host page cache's model, sim/layers/page_cache/page_cache.h).
void GuestKeys(Params& params, HostSpec* g) {
  // 2 GiB: the memory Proxmox VE's "Create: Virtual Machine" wizard proposes
  // (pve-manager www/manager6/qemu/MemoryEdit.js, setMemory: 2048 MiB, 4096
  // for a Windows 11 guest; since commit 77496e1, "fix #2708: ui: increase
  // default memory in VM create wizard to 2GiB", 2020-05-07; unchanged at
  // 14a22df, 2026-08-21). QEMU alone starts with 128 MiB (hw/core/machine.c
  // default_ram_size).
  g->mem_bytes = uint64_t{2} << 30;
  params.Size({"guest_mem",
               "the guest's RAM (Proxmox VE's VM wizard proposes 2 GiB: pve-manager "
               "MemoryEdit.js); its page cache's dirty limits are fractions of it"},
              &g->mem_bytes, uint64_t{64} << 20);
  params.Size({"guest_used_mem", "guest RAM held by its kernel and programs, not dirtyable"},
              &g->used_mem_bytes);
  // QEMU's -smp default and qemu-server's (sockets 1 × cores 1).
  g->cores = 1;
  params.Int({"vcpus",
              "the guest's virtual CPUs: they copy data into its page cache and run "
              "the workload's threads (QEMU and Proxmox VE default 1)"},
             &g->cores, 1, 1024);
  params.Fraction({"guest_dirty_background_ratio",
                   "the guest kernel's vm.dirty_background_ratio (Linux default 10%)"},
                  &g->dirty_background_ratio);
  params.Fraction({"guest_dirty_ratio", "the guest kernel's vm.dirty_ratio (Linux default 20%)"},
                  &g->dirty_ratio, Params::Bound::kPositive);
  params.Duration({"guest_dirty_expire", "the guest's dirty_expire_centisecs (Linux 30 s)"},
                  &g->dirty_expire);
}

}  // namespace

// Each key's meaning is beside its getter (`storlab stacks types vm`).
Result<std::unique_ptr<Node>> MakeVm(Params& params, BuildContext& ctx) {
  VirtualDisk::Config c;
  std::string hypervisor = "qemu";
  params.Enum({"hypervisor",
               "qemu (KVM, Proxmox VE, libvirt) or esxi: no host cache, guest flushes completed "
               "by ESXi, every write FILE_SYNC on an NFS datastore"},
              &hypervisor, {"qemu", "esxi"});
  c.esxi = hypervisor == "esxi";
  // vSphere's default provisioning for a new VMDK on VMFS is thick, lazy
  // zeroed (VMware vSphere 7.0 Storage, "About Virtual Disk Provisioning
  // Policies": "Thick Provision Lazy Zeroed: Creates a virtual disk in a
  // default thick format ... zeroed out on demand later on first write from
  // the virtual machine"); zeroed on demand ("thick: ... the space
  // is zeroed on demand as the space is used", vSphere API reference, Ovf
  // DiskProvisioningType; Broadcom KB 343258, "Understanding large-scale
  // sequential write performance in VMDKs residing on VMFS datastores").
  std::string vmdk = "lazy-zeroed";
  // Read for ESXi (or to refuse it on QEMU): a QEMU stack's resolved form has no vmdk.
  if (c.esxi || params.Has("vmdk")) {
    params.Enum({"vmdk",
                 "ESXi, block datastore: the VMDK's provisioning; lazy-zeroed (vSphere's default "
                 "thick) and thin zero each 1 MiB VMFS block before its first write (one WRITE "
                 "SAME), eager-zeroed was zeroed at creation"},
                &vmdk, {"lazy-zeroed", "thin", "eager-zeroed"});
  }
  c.vmdk_zero_on_first_write = c.esxi && vmdk != "eager-zeroed";
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
  std::string bus = "virtio-blk";
  params.Enum({"bus",
               "the guest's disk controller: virtio-blk (libvirt's \"virtio\"), virtio-scsi, "
               "sata (AHCI) or ide; sets the defaults of "
               "queue_depth and iops"},
              &bus, {"virtio-blk", "virtio-scsi", "sata", "ide"});
  Bus b = kBuses[0];
  for (const Bus& x : kBuses) {
    if (x.name == bus) b = x;
  }
  // Per-request cost of the virtual disk, the same on every bus. FIT: 20 us
  // lies inside the published range of what a QEMU/KVM guest adds at QD1
  // over the host's own latency: 11.1 us tuned (Blockbridge, "Announcing
  // Release 6.0", blockbridge.com/announcing-release-6-0: 512-byte reads at
  // QD1 over NVMe/TCP, 20.5 us on the host, 31.6 us inside a Proxmox
  // VE/QEMU guest on the same machine; its technote
  // kb.blockbridge.com/technote/proxmox-tuning-low-latency-storage: a tuned
  // guest within "roughly 10 microseconds of bare metal") up to about 32 us untuned
  // (derived: the same technote's tuning cuts the guest's QD1 latency by up
  // to 40 %, so the untuned guest took up to 31.6 / 0.6 = 53 us, 32 us over
  // the host's 20.5). No per-bus QD1 figure found for virtio-scsi, AHCI or
  // IDE (qemu.org, "Configuring virtio-blk and virtio-scsi Devices", 2021,
  // prefers virtio-blk for performance without a number).
  c.latency = Nanos(20'000);
  params.Duration({"latency",
                   "added per request: virtqueue kick, vmexit, completion irq (fit inside the "
                   "published 11-32 us a QEMU guest adds at QD1: Blockbridge, Proxmox VE)"},
                  &c.latency);
  c.iops = b.iops;
  params.Double({"iops",
                 "the emulation's ceiling, requests per second: virtio 125k (qemu-devel vhost-blk "
                 "RFC 2022: 123k-129k on a RAM disk), sata/ide 20k (KubeVirt fio, "
                 "benchmark-operator #396); 0: none"},
                &c.iops, 0, 1e9);
  c.queue_depth = b.queue_depth;
  params.Int({"queue_depth",
              "requests the guest keeps in flight on the bus: virtio-blk 256 (queue-size), "
              "virtio-scsi 128 (cmd_per_lun), sata 32 (NCQ), ide 1; more wait in the guest"},
             &c.queue_depth, 1, 65536);
  PageCacheConfig guest;
  GuestKeys(params, &guest.host);
  RETURN_IF_ERROR(params.Finish());
  if (!c.esxi && params.Has("vmdk")) {
    params.Fail("vmdk", "a VMDK's provisioning is ESXi's (hypervisor = \"esxi\")");
  }
  if (c.esxi && cache != "none") {
    params.Fail("cache",
                "ESXi has no host cache modes: VMFS reaches its datastore without a "
                "host page cache (cache = \"none\", or leave it out)");
  }
  if (guest.host.used_mem_bytes >= guest.host.mem_bytes) {
    params.Fail("guest_used_mem", "must be less than guest_mem");
  }
  if (guest.host.dirty_background_ratio > guest.host.dirty_ratio) {
    params.Fail("guest_dirty_background_ratio", "must not exceed guest_dirty_ratio");
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
  const uint32_t lb = ctx.children[0]->geometry().logical_block;
  if (lb > 4096 || 4096 % lb != 0) {
    params.Fail("child",
                "the guest's page cache needs a logical block that divides its 4096-byte "
                "page; the child's is " +
                    std::to_string(lb));
  }
  RETURN_IF_ERROR(params.Finish());
  // The guest's page cache sits on the virtual disk; both are parts of the
  // stack, adopted before the vm node itself.
  auto vdisk =
      std::make_unique<VirtualDisk>(ctx.engine, ctx.node_name + ".vdisk", *ctx.children[0], c);
  guest.keeps_data = ctx.keeps_data();
  auto cache_node =
      std::make_unique<PageCache>(ctx.engine, ctx.node_name + ".guest", guest, *vdisk);
  auto vm = std::make_unique<VmNode>(ctx.engine, ctx.node_name, *cache_node, *vdisk);
  ctx.parts.push_back(std::move(vdisk));
  ctx.parts.push_back(std::move(cache_node));
  return std::unique_ptr<Node>(std::move(vm));
}

}  // namespace storlab
