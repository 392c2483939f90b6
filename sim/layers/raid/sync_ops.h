// The two units of background work on a RAID array, over a range of
// member offsets (rows): Regenerate rebuilds chosen members' contents from
// the others (a rebuild step; the rewrite after a read error), and Verify
// compares parity or copies (md's "check", and "repair" which rewrites what
// differs). Each takes the range lock on the rows and hands its ticket to
// the caller, who releases it (the rebuild engine holds it until the step
// is committed in order). Member requests carry kBackground.
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_RAID_SYNC_OPS_H_
#define STORLAB_SIM_LAYERS_RAID_SYNC_OPS_H_

#include <cstdint>
#include <utility>

#include "sim/callback.h"
#include "sim/layers/raid/raid_array.h"
#include "sim/status.h"

namespace storlab {

// The range-lock span that covers member rows [lo, hi): the rows
// themselves on RAID1/5/6, the array chunks stored in them on RAID10.
std::pair<uint64_t, uint64_t> LockSpanOfRows(const RaidLayout& l, uint64_t lo, uint64_t hi);

// Rebuilds the members in `targets` over member offsets [lo, hi) from the
// members that hold current data there. A target that fails to write is
// marked failed; `done` gets an error when the others cannot supply the
// data (too many lost, or read errors).
using RegenerateDone = Callback<void(Status st, uint64_t ticket)>;
void Regenerate(RaidArray& a, uint64_t targets, uint64_t lo, uint64_t hi, RegenerateDone done);

// Checks member rows [lo, hi): parity against data (RAID5/6), or every copy
// against the first (RAID1/10); with `repair`, rewrites the parity or the
// copies that differ. `mismatched_pages` counts pages (of a.page() bytes)
// that differed. Ranges a member fails to read are handed to
// a.on_read_error (rewritten once the rows are released) and not compared.
// REQUIRES: the array is not degraded.
using VerifyDone = Callback<void(Status st, uint64_t ticket, uint64_t mismatched_pages)>;
void Verify(RaidArray& a, uint64_t lo, uint64_t hi, bool repair, VerifyDone done);

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_SYNC_OPS_H_
