// JobRunner's serialize_overlap (job_runner.h): an I/O whose range
// overlaps one in flight waits for completions before it goes, as fio 3.33
// does it. backend.c io_u_submit(): with another I/O in flight
// (cur_depth > 1, this one counted), in_flight_overlap() compares the new
// I/O's [offset, offset + buflen) with every io_u flagged IO_U_F_FLIGHT
// (queued to the engine, not yet reaped) — by offset only, whatever the
// file — and on an overlap answers FIO_Q_BUSY: io_queue_event() requeues
// the I/O, commits what is queued, and do_io() waits for completions
// (`ret == FIO_Q_BUSY && td->cur_depth`); the requeued I/O is the next one
// get_io_u() hands out. init.c fixup_options() turns the option off for a
// job that neither writes nor trims, or runs at iodepth=1 (unless it
// replays an iolog or offloads its submissions).
#include "workloads/fio/job_runner.h"

namespace storlab::fio {
namespace {

bool Serializes(const JobSpec& spec) {
  if (!spec.opts.serialize_overlap) return false;
  if (spec.trace || spec.offload) return true;
  return (spec.do_write || spec.do_trim) && spec.iodepth > 1;
}

}  // namespace

bool JobRunner::OverlapsInFlight(const IoUnit& u) const {
  for (const IoUnit& v : units_) {
    if (&v == &u || !v.in_flight) continue;
    if (u.offset < v.offset + v.length && v.offset < u.offset + u.length) return true;
  }
  return false;
}

// After the I/O was picked: true when it is held back (FIO_Q_BUSY).
bool JobRunner::OverlapHold(IoUnit* u) {
  if (cur_depth_ == 0 || !Serializes(spec_) || !OverlapsInFlight(*u)) return false;
  overlap_held_ = u;
  return true;
}

// Pump(), before anything else: the held I/O goes once nothing in flight
// overlaps it (each reap pumps again). False: it still waits.
bool JobRunner::LaunchHeld(Nanos t) {
  IoUnit* u = overlap_held_;
  if (OverlapsInFlight(*u)) return false;
  overlap_held_ = nullptr;
  Launch(u, t);
  return true;
}

}  // namespace storlab::fio
