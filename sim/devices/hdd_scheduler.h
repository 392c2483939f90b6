// The disk's command scheduler: which queued access the actuator serves
// next.
//
// Native Command Queueing lets a drive serve up to 32 queued commands in the
// order it likes; drives choose by shortest positioning time first (SPTF:
// seek + rotational wait from where the head is now, Worthington, Ganger &
// Patt, "Scheduling algorithms for modern disk drives", SIGMETRICS 1994),
// which lets the rotation, not only the seek, pick the next command. The
// firmware's estimate is conservative: a sector the head would reach with
// less than `guard` to spare is counted a revolution later (seek times vary;
// arriving late costs a whole turn), so such near misses are not chosen
// over safer candidates. The access itself takes its real time. Pure
// SPTF can starve a command that is always a little further away, so once
// commands have waited `age_limit` or longer, only they are eligible (nearest
// first among them) until none is left. Internal work (destaging the write cache) competes by
// positioning time too but never ages. With one candidate there is nothing to reorder.
//
// Pure functions; thread-safe.
#ifndef STORLAB_SIM_DEVICES_HDD_SCHEDULER_H_
#define STORLAB_SIM_DEVICES_HDD_SCHEDULER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/devices/hdd_mechanics.h"
#include "sim/time.h"

namespace storlab {

struct AccessCandidate {
  uint64_t lba = 0;
  uint64_t sectors = 0;
  bool write = false;
  Nanos ready;                   // the earliest the arm may start for it
  Nanos arrival = Nanos::Max();  // when the host queued it; Max(): internal, never ages
};

struct AccessChoice {
  size_t index = 0;
  HddMechanics::Access access;
  bool aged = false;  // chosen among commands that waited age_limit or longer
};

struct SchedulerPolicy {
  Nanos age_limit = Nanos(1'000'000'000);
  Nanos guard;
};

// Chooses among `candidates` at time `now`. Ties go to the earlier index, so
// the choice is deterministic. REQUIRES: !candidates.empty().
AccessChoice PickNextAccess(const std::vector<AccessCandidate>& candidates,
                            const HddMechanics& mech, Nanos now, const SchedulerPolicy& policy);

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_HDD_SCHEDULER_H_
