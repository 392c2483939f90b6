// HostSpec: the machine a workload runs on, for the page cache and the ZFS
// pool of virtual-time runs (read from the `[host]` table of a stack file by
// sim/profile/host.h, or from command-line options). Plain value type.
//
// The dirty limits are the kernel's defaults (Linux mm/page-writeback.c:
// vm.dirty_background_ratio 10, vm.dirty_ratio 20, dirty_expire_centisecs
// 3000, dirty_writeback_centisecs 500). RAM and cores describe the host; the
// seed's author did not state his RAM, so it is a parameter.
#ifndef STORLAB_SIM_HOST_SPEC_H_
#define STORLAB_SIM_HOST_SPEC_H_

#include <cstdint>

#include "sim/time.h"

namespace storlab {

struct HostSpec {
  uint64_t mem_bytes = uint64_t{16} << 30;  // RAM; dirty limits are fractions of it
  // RAM the kernel and applications hold: neither dirtyable nor available
  // to the page cache (Linux global_dirtyable_memory() counts free and file
  // pages only). 0: the whole of `mem`.
  uint64_t used_mem_bytes = 0;
  uint32_t cores = 4;
  // One core copying user data into the page cache (memcpy plus page
  // allocation); several writers scale with cores up to `memory_bandwidth`.
  double copy_bytes_per_s_per_core = 4e9;
  double memory_bandwidth = 12e9;  // the whole machine's copy ceiling
  double dirty_background_ratio = 0.10;
  double dirty_ratio = 0.20;
  Nanos dirty_expire = Nanos(30'000'000'000);
  Nanos writeback_interval = Nanos(5'000'000'000);
};

}  // namespace storlab

#endif  // STORLAB_SIM_HOST_SPEC_H_
