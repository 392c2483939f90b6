// The request paths of a RAID array: each starts one client request on a
// RaidArray and completes it later (see ArrayOp). Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_RAID_RAID_OPS_H_
#define STORLAB_SIM_LAYERS_RAID_RAID_OPS_H_

#include "sim/layers/raid/raid_array.h"
#include "sim/request.h"

namespace storlab {

// READ on RAID0/5/6, reconstructing what lost members held (5/6).
void StartStripedRead(RaidArray& a, Request req);
// WRITE or WRITE ZEROES on RAID5/6: full-stripe, read-modify-write or
// reconstruct-write per stripe row, chosen as md does.
void StartParityWrite(RaidArray& a, Request req);
// TRIM on RAID5/6: whole stripes only, on every member (parity of zeros is
// zeros), as md does with devices_handle_discard_safely.
void StartParityTrim(RaidArray& a, Request req);
// WRITE, WRITE ZEROES or TRIM on RAID0: each chunk to its member.
void StartRaid0Write(RaidArray& a, Request req);
// READ on RAID1/10 with md's read balancing.
void StartMirrorRead(RaidArray& a, Request req);
// WRITE, WRITE ZEROES or TRIM on RAID1/10: every copy.
void StartMirrorWrite(RaidArray& a, Request req);

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_RAID_OPS_H_
