#include "workloads/fio/latency_target.h"

namespace storlab::fio {

void LatencyTarget::Reset(Nanos now, uint64_t ios) {
  if (end_run_) return;
  qd_ = 1;
  qd_high_ = c_.iodepth;
  qd_low_ = 1;
  NewCycle(now, ios);
}

// lat_new_cycle().
void LatencyTarget::NewCycle(Nanos now, uint64_t ios) {
  cycle_start_ = now;
  cycle_ios_ = ios;
  failed_ = 0;
}

bool LatencyTarget::RampDown(Nanos now, uint64_t ios) {
  if (qd_ == 1) return false;
  qd_high_ = qd_;
  if (qd_ == qd_low_) --qd_low_;
  qd_ = (qd_ + qd_low_) / 2;
  stable_count_ = 0;
  NewCycle(now, ios);
  return true;
}

// account_io_completion() → lat_target_failed(): at percentile 100 one late
// I/O ramps down at once (and at depth 1 is fatal); otherwise it is counted.
LatencyTarget::Action LatencyTarget::OnCompletion(uint64_t lat_ns, Nanos now, uint64_t ios) {
  if (lat_ns <= c_.target_ns) return Action::kNone;
  if (c_.percentile == 100.0) return RampDown(now, ios) ? Action::kQuiesce : Action::kFatal;
  ++failed_;
  return Action::kNone;
}

LatencyTarget::Action LatencyTarget::Check(Nanos now, uint64_t ios) {
  if (now - cycle_start_ < c_.window) return Action::kNone;
  const uint64_t n = ios - cycle_ios_;
  const double success = n ? 100.0 * static_cast<double>(n - failed_) / static_cast<double>(n) : 0;
  if (success >= c_.percentile) return Success(now, ios);
  RampDown(now, ios);
  return Action::kQuiesce;
}

// lat_target_success(): double the depth until it fails, then bisect; at
// a depth one below the failing one three times in a row, try one higher.
LatencyTarget::Action LatencyTarget::Success(Nanos now, uint64_t ios) {
  const uint32_t qd = qd_;
  qd_low_ = qd_;
  if (qd_ + 1 == qd_high_ && ++stable_count_ >= 3) {
    ++qd_high_;
    stable_count_ = 0;
  }
  qd_ = qd_high_ != c_.iodepth ? (qd_ + qd_high_) / 2 : qd_ * 2;
  if (qd_ > c_.iodepth) qd_ = c_.iodepth;
  Action a = Action::kNone;
  if (!c_.keep_running && qd_ == qd) {
    if (end_run_) return Action::kDone;
    end_run_ = true;
    a = Action::kFinalRun;
  }
  NewCycle(now, a == Action::kFinalRun ? 0 : ios);
  return a;
}

}  // namespace storlab::fio
