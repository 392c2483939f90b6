#include "sim/profile/node_types.h"

#include "sim/profile/factories/factories.h"

namespace storlab {

const std::vector<NodeType>& NodeTypes() {
  static const std::vector<NodeType> kTypes = {
      {"ram", "RAM disk: fixed latency and bandwidth, no volatile cache", 0, 0, &MakeRamDisk},
      {"hdd", "hard disk: fitted seek curve, spindle angle, zoned rates, NCQ, volatile write cache",
       0, 0, &MakeHdd},
      {"link",
       "host link or bridge (USB BOT/UAS, SATA, PCIe, Ethernet): latency, bandwidth, queue depth",
       1, 1, &MakeLink},
      {"page_cache", "host page cache: buffered I/O, dirty limits, writeback, read-ahead", 1, 1,
       &MakePageCache},
      {"ssd", "SATA or NVMe SSD: flash dies, SLC cache, FTL/GC, write buffer, PLP", 0, 0, &MakeSsd},
      {"concat", "devices joined end to end (dm-linear; a multi-bay enclosure)", 1, -1,
       &MakeConcat},
      {"zfs", "ZFS-like pool: records, ARC, txgs, write throttle, ZIL, compression", 1, -1,
       &MakeZfs},
      {"raid", "md software RAID 0/1/5/6/10 over its children (members)", 1, -1, &MakeRaid},
      {"faults", "fault injection: media errors, latency spikes, a vanishing device, torn writes",
       1, 1, &MakeFaults},
      {"rmw", "block-size mismatch: sub-unit writes cost a read-modify-write of the unit", 1, 1,
       &MakeRmw},
      {"thin", "LVM-thin (dm-thin) pool and its thin volumes: overcommit, ENOSPC, metadata commits",
       1, 1, &MakeThin},
      {"cache", "block cache: [fast, slow] children (dm-cache, bcache) or RAM over one origin", 1,
       2, &MakeCache},
      {"vm", "QEMU virtual disk over the image's home: host cache mode, per-request cost", 1, 1,
       &MakeVm},
      {"qcow2", "qcow2 image: clusters allocated on first write, COW, L2 cache, metadata flushes",
       1, 1, &MakeQcow2},
      {"nfs", "NFSv3 mount: RPCs over a shared Ethernet link, sync/async export, server cache", 1,
       1, &MakeNfs},
      {"iscsi", "iSCSI session over Ethernet to a target serving its child as a LUN: PDUs, R2T", 1,
       1, &MakeIscsi},
  };
  return kTypes;
}

const NodeType* FindNodeType(std::string_view name) {
  for (const auto& t : NodeTypes())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace storlab
