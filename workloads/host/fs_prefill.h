// FsPrefill: a file system aged to a fill level before a run (storlab sim
// --prefill PERCENT, a stack file's [fs] prefill), so "the disk was nearly
// full" can be simulated: fio's layout then meets ENOSPC as it would.
//
// Seeded and deterministic: files of log-uniform sizes (from
// max(block, capacity / 2^24) to max(1 MiB, capacity / 4096), block
// multiples) are created one after another until the device is full; then
// files picked in a seeded random order are deleted until the fill is at or
// below the target, and small files top it up. The free space left is the
// holes of the deleted files, scattered over the device, as on a file
// system that has lived a while. The files are named .prefill/NNNNNN.
// Not thread-safe.
#ifndef STORLAB_WORKLOADS_HOST_FS_PREFILL_H_
#define STORLAB_WORKLOADS_HOST_FS_PREFILL_H_

#include <cstdint>

#include "sim/fs/extent_fs.h"
#include "sim/status.h"

namespace storlab {

struct PrefillSummary {
  uint64_t files = 0;         // aged files left
  uint64_t used_bytes = 0;    // the fill reached
  uint64_t free_extents = 0;  // runs of free space
};

// Fills `fs` (REQUIRES: no files yet) to `percent` (0 to 100) of its
// capacity, within one block.
PrefillSummary PrefillFs(ExtentFs& fs, double percent, uint64_t seed);

}  // namespace storlab

#endif  // STORLAB_WORKLOADS_HOST_FS_PREFILL_H_
