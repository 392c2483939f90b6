#include "workloads/scenarios/scenario.h"

namespace storlab::scenarios {

const std::vector<Scenario>& Scenarios() {
  static const std::vector<Scenario> kAll = {
      {"fsync", "the same writes with and without fsync, then a power cut: what each kept",
       RunFsync},
      {"usb-pull",
       "a copy to a USB 3 disk that \"finished\", the disk pulled without unmount: what was "
       "acknowledged, on media, lost; and with sync first",
       RunUsbPull},
      {"wearout",
       "an SSD's wear (Proxmox's Wearout, SMART percentage used) under a VM's writes times the "
       "drive's write amplification, and how long the drive lasts",
       RunWearout},
      {"nas-inflation",
       "the seed's NAS test B (4897 MB/s over 1GbE) with where the bytes went, and the same "
       "job with --direct=1",
       RunNasInflation},
      {"thin-full",
       "three 100 GB thin volumes on a 200 GB LVM-thin pool written full: every VM's writes "
       "fail when the pool is full (queue for 60 s, or error at once)",
       RunThinFull},
      {"raid-rebuild",
       "md RAID5 vs RAID6 of six 3 TB drives: the rebuild's time idle and under VMs, and the "
       "chance of losing the array (or blocks) during it from published failure rates",
       RunRaidRebuild},
  };
  return kAll;
}

const Scenario* FindScenario(std::string_view name) {
  for (const auto& s : Scenarios()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace storlab::scenarios
