// Ssd: what the drive does when the host leaves it alone — SLC folding, the
// GC work it still owes, and idle GC towards a full free pool. One step at a
// time, each an engine event at the end of the previous step's die work;
// steps stop as soon as the host is back and nothing is scheduled once the
// work is done (so RunUntilIdle() ends).
#include <algorithm>

#include "sim/devices/ssd.h"

namespace storlab {

bool Ssd::HasIdleWork() const {
  return slc_.used() > 0 || flash_.owes() || ftl_.WouldReclaim(config_.gc_idle_target);
}

void Ssd::ArmIdle() {
  if (idle_event_ || !HasIdleWork()) return;
  const Nanos at = Max(engine_.now(), last_activity_ + config_.idle_delay);
  idle_event_ = engine_.At(at, [this] {
    idle_event_ = {};
    IdleStep();
  });
}

void Ssd::IdleStep() {
  const Nanos now = engine_.now();
  if (!queue_.idle()) return;  // Finish() re-arms when the host is done
  if (now < last_activity_ + config_.idle_delay) return ArmIdle();
  const Nanos quantum = config_.program_time;
  Nanos end = now;
  if (flash_.owes()) {
    end = flash_.WorkOff(now, quantum);
  } else if (slc_.used() > 0) {
    // Fold the SLC block with the least valid data (the open one too: the
    // host has gone quiet) and erase it.
    if (buffer_.has_open()) CloseUnit();
    slc_.CloseOpen();
    uint32_t block = 0;
    uint64_t valid = 0;
    if (slc_.Cheapest(&block, &valid)) FoldSlcBlock(block);
    end = flash_.WorkOff(now, quantum);
  } else {
    SsdScaledFtl::Work w;
    if (!ftl_.Reclaim(config_.gc_idle_target, &w)) {
      RecordSeries();
      return;  // all done: nothing more is scheduled
    }
    AddGcWork(w);
    end = flash_.WorkOff(now, quantum);
  }
  RecordSeries();
  idle_event_ = engine_.At(Max(end, now + Nanos(1)), [this] {
    idle_event_ = {};
    IdleStep();
  });
}

}  // namespace storlab
