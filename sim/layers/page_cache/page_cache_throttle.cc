#include "sim/layers/page_cache/page_cache_throttle.h"

#include <algorithm>

#include "sim/state_coding.h"

namespace storlab {

DirtyThrottle::DirtyThrottle(const HostSpec& host) : host_(host) { SetLocked(0); }

void DirtyThrottle::SetLocked(uint64_t bytes) {
  const uint64_t used = std::min(host_.used_mem_bytes + bytes, host_.mem_bytes);
  limits_.dirtyable = host_.mem_bytes - used;
  const double d = static_cast<double>(limits_.dirtyable);
  limits_.background = static_cast<uint64_t>(host_.dirty_background_ratio * d);
  limits_.limit = static_cast<uint64_t>(host_.dirty_ratio * d);
  limits_.freerun = (limits_.background + limits_.limit) / 2;
  limits_.setpoint = (limits_.freerun + limits_.limit) / 2;
}

double DirtyThrottle::PosRatio(uint64_t dirty) const {
  if (dirty <= limits_.freerun) return 2.0;
  if (dirty >= limits_.limit) return 0.0;
  // pos_ratio = 1 + ((setpoint - dirty) / (limit - setpoint))^3
  // (mm/page-writeback.c: pos_ratio_polynom)
  const double span = static_cast<double>(limits_.limit - limits_.setpoint) + 1.0;
  const double x = (static_cast<double>(limits_.setpoint) - static_cast<double>(dirty)) / span;
  return std::clamp(1.0 + x * x * x, 0.0, 2.0);
}

Nanos DirtyThrottle::Pause(Nanos now, uint64_t dirty, uint64_t new_bytes) {
  if (dirty <= limits_.freerun || new_bytes == 0) {
    if (dirty <= limits_.freerun) next_free_ = now;
    return now;
  }
  const double rate = avg_bw_ * PosRatio(dirty);
  Nanos pause = kMaxPause;
  if (rate > 0) {
    pause = Min(kMaxPause, TransferTime(new_bytes, rate));
  }
  next_free_ = Max(next_free_, now) + pause;
  return next_free_;
}

void DirtyThrottle::OnWritebackStart(Nanos now) {
  // wb_bandwidth_estimate_start(): after an idle spell the sample restarts.
  if (!sampling_ || (idle_ && now - idle_since_ > kBandwidthInterval)) {
    sampling_ = true;
    stamp_ = now;
    written_ = 0;
  }
  idle_ = false;
}

void DirtyThrottle::OnWritebackIdle(Nanos now) {
  idle_ = true;
  idle_since_ = now;
}

void DirtyThrottle::OnWrittenBack(Nanos now, uint64_t bytes) {
  written_ += bytes;
  const Nanos elapsed = now - stamp_;
  if (elapsed < kBandwidthInterval) return;
  // wb_update_write_bandwidth(): blend the sample into write_bandwidth over
  // the period, then move avg_write_bandwidth towards it when both agree.
  const double sample = static_cast<double>(written_) / elapsed.seconds();
  const double old = bw_;
  if (elapsed > kBandwidthPeriod) {
    bw_ = sample;
    avg_bw_ = sample;
  } else {
    const double e = static_cast<double>(elapsed.count());
    const double p = static_cast<double>(kBandwidthPeriod.count());
    bw_ = (sample * e + old * (p - e)) / p;
    if (avg_bw_ > old && old >= bw_) avg_bw_ -= (avg_bw_ - old) / 8;
    if (avg_bw_ < old && old <= bw_) avg_bw_ += (old - avg_bw_) / 8;
  }
  avg_bw_ = std::max(avg_bw_, 1.0);
  stamp_ = now;
  written_ = 0;
}

void DirtyThrottle::Reset() {
  bw_ = avg_bw_ = kInitialBandwidth;
  sampling_ = false;
  idle_ = true;
  written_ = 0;
  next_free_ = Nanos();
}

void DirtyThrottle::SaveState(StateWriter& w) const {
  w.Double(bw_);
  w.Double(avg_bw_);
  w.Time(stamp_);
  w.U64(written_);
  w.Bool(sampling_);
  w.Bool(idle_);
  w.Time(idle_since_);
  w.Time(next_free_);
}

Status DirtyThrottle::RestoreState(StateReader& r) {
  bw_ = r.Double();
  avg_bw_ = r.Double();
  stamp_ = r.Time();
  written_ = r.U64();
  sampling_ = r.Bool();
  idle_ = r.Bool();
  idle_since_ = r.Time();
  next_free_ = r.Time();
  return r.status();
}

}  // namespace storlab
