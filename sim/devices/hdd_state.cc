// The HDD's saved state (storlab sim --state, docs/state.md): the Hdd and
// the parts it owns — HddMechanics (where the head rests, the spindle's
// phase), HddReadAhead (the buffer a stream left), HddWriteCache (what is
// still dirty: nothing once the drive is idle, but kept if there is) and
// the generators. Saved when the stack is idle: no command in the drive.
#include <array>

#include "sim/devices/hdd.h"
#include "sim/devices/hdd_mechanics.h"
#include "sim/devices/hdd_read_ahead.h"
#include "sim/devices/hdd_write_cache.h"
#include "sim/state_coding.h"

namespace storlab {

void HddMechanics::SaveState(StateWriter& w) const {
  w.U64(head_lba_);
  w.U64(head_cyl_);
  w.Time(spindle_offset_);
}

Status HddMechanics::RestoreState(StateReader& r) {
  head_lba_ = r.U64();
  head_cyl_ = r.U64();
  spindle_offset_ = r.Time();
  return r.status();
}

void HddReadAhead::SaveState(StateWriter& w) const {
  w.Bool(streaming_);
  w.Bool(valid_);
  w.U64(lba0_);
  w.Time(t0_);
  w.U64(limit_);
  w.U64(stop_);
}

Status HddReadAhead::RestoreState(StateReader& r) {
  streaming_ = r.Bool();
  valid_ = r.Bool();
  lba0_ = r.U64();
  t0_ = r.Time();
  limit_ = r.U64();
  stop_ = r.U64();
  return r.status();
}

void HddWriteCache::SaveState(StateWriter& w) const {
  w.U64(dirty_.size());
  for (const auto& [start, end] : dirty_) {
    w.U64(start);
    w.U64(end);
  }
  overlay_.SaveState(w);
}

Status HddWriteCache::RestoreState(StateReader& r) {
  const uint64_t n = r.Count(2);
  uint64_t at = 0;
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t start = r.U64(), end = r.U64();
    if (start < at || end <= start) r.Fail("a bad dirty extent");
    if (!r.ok()) break;
    dirty_[start] = end;
    dirty_bytes_ += end - start;
    at = end;
  }
  RETURN_IF_ERROR(r.status());
  return overlay_.RestoreState(r);
}

Status Hdd::SaveState(StateWriter& w) const {
  if (tags_ || current_ || flush_ || !host_queue_.empty() || !queue_.empty() || !blocked_.empty()) {
    return Status::Internal("hdd not idle");
  }
  w.Words(cut_rng_.state());
  for (const auto& s : seek_jitter_.state()) w.Words(s);
  w.Time(interface_free_);
  mech_.SaveState(w);
  read_ahead_.SaveState(w);
  cache_.SaveState(w);
  return store_->SaveState(w);
}

Status Hdd::RestoreState(StateReader& r) {
  cut_rng_.set_state(r.Words());
  std::array<Random::State, 2> jitter;
  for (auto& s : jitter) s = r.Words();
  seek_jitter_.set_state(jitter);
  interface_free_ = r.Time();
  RETURN_IF_ERROR(r.status());
  RETURN_IF_ERROR(mech_.RestoreState(r));
  RETURN_IF_ERROR(read_ahead_.RestoreState(r));
  RETURN_IF_ERROR(cache_.RestoreState(r));
  RETURN_IF_ERROR(store_->RestoreState(r));
  return Status();
}

}  // namespace storlab
