// ChunkChooser: which size of chunk a PageArena in its `kCheaper` mode
// (the real-time service's stores) takes next — a 2 MiB chunk the kernel
// can map with one huge page, or 64 pages — from what the last chunks of
// each size cost per 4 KiB page, measured by the arena (mapping, faulting
// in and a first write to each page).
//
// Which is cheaper depends on the host and changes as a run goes on. On a
// guest whose hypervisor shadows its page tables, every 4 KiB page costs an
// exit at its first user write and a huge page one (stop 48's VM, FUSE 4K
// random writes 35-38k -> 52-62k IOPS with huge chunks). On a guest that
// hands free memory back to its host (virtio-balloon's free page
// reporting, which reports free blocks of pageblock order, 2 MiB:
// mm/page_reporting.c page_reporting_register; `page_reporting_order` 9 on
// stop 54's VM), a huge page is just such a block, one the host may no
// longer back: 9-11 us a 4 KiB page to fault back in, where the guest's
// scattered 4 KiB free pages, never reported, cost 1.2 us while they last
// (bench/first_touch.cc; docs/fusefs.md, stops 51 and 54). So the chooser
// prefers huge chunks (fewer TLB misses for every later read) while they
// cost at most kHugeWorth times what a small one does, takes the other
// kind once every kProbeEvery chunks to see whether that changed, and
// starts by measuring each kind once.
//
// Pure logic, deterministic in what it is told. Not thread-safe.
#ifndef STORLAB_SIM_STORE_CHUNK_CHOOSER_H_
#define STORLAB_SIM_STORE_CHUNK_CHOOSER_H_

#include <cstdint>

namespace storlab {

class ChunkChooser {
 public:
  // A huge chunk is taken while it costs at most this many times a small
  // one per page.
  static constexpr double kHugeWorth = 2;
  // Chunks of the preferred kind between two of the other.
  static constexpr uint32_t kProbeEvery = 32;

  // Whether the next chunk should be a huge one.
  bool NextHuge() const {
    if (cost_[kHuge] < 0) return true;
    if (cost_[kSmall] < 0) return false;
    return run_ >= kProbeEvery ? !PreferHuge() : PreferHuge();
  }
  // A chunk of that kind was taken and cost `ns_per_page` per 4 KiB page.
  void Record(bool huge, double ns_per_page) {
    const bool both = cost_[kHuge] >= 0 && cost_[kSmall] >= 0;
    const bool probe = both && huge != PreferHuge();
    double& c = cost_[huge ? kHuge : kSmall];
    c = c < 0 ? ns_per_page : (c + ns_per_page) / 2;  // the last few count
    run_ = both && !probe ? run_ + 1 : 0;
  }
  // The cost per page last estimated (negative: not measured yet).
  double cost_ns(bool huge) const { return cost_[huge ? kHuge : kSmall]; }

 private:
  static constexpr int kSmall = 0, kHuge = 1;
  bool PreferHuge() const { return cost_[kHuge] <= kHugeWorth * cost_[kSmall]; }
  double cost_[2] = {-1, -1};
  uint32_t run_ = 0;  // chunks of the preferred kind since the last probe
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_CHUNK_CHOOSER_H_
