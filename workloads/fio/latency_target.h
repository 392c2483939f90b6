// LatencyTarget: fio's search for the deepest queue that meets a latency
// target (io_u.c lat_target_init/_check/_success/_failed): the depth starts
// at 1 and doubles while a latency_window's I/Os meet latency_target (at
// latency_percentile), bisects between the last good and the first bad
// depth when they do not, and once the depth stops changing runs one more
// window at it with fresh statistics, then ends the job (unless
// latency_run=1: it keeps adjusting). Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_LATENCY_TARGET_H_
#define STORLAB_WORKLOADS_FIO_LATENCY_TARGET_H_

#include <cstdint>

#include "sim/time.h"

namespace storlab::fio {

class LatencyTarget {
 public:
  struct Config {
    uint64_t target_ns = 0;
    Nanos window;
    double percentile = 100.0;
    bool keep_running = false;  // latency_run
    uint32_t iodepth = 1;
  };
  // What the job must do after a completion or a check.
  enum class Action {
    kNone,
    kQuiesce,   // wait for what is in flight before issuing more
    kFinalRun,  // quiesce, reset the statistics: the last window counts
    kDone,      // the job ends (fio's td->done)
    kFatal,     // a latency over the target at depth 1, percentile 100
  };

  explicit LatencyTarget(const Config& c) : c_(c) {}

  // lat_target_init() / lat_target_reset() (the end of ramp_time): from
  // depth 1, unless the final run has begun.
  void Reset(Nanos now, uint64_t ios);
  // A completion whose latency (start to completion) was `lat_ns`.
  Action OnCompletion(uint64_t lat_ns, Nanos now, uint64_t ios);
  // lat_target_check(), after completions: `ios` done since the reset.
  Action Check(Nanos now, uint64_t ios);

  uint32_t depth() const { return qd_; }
  const Config& config() const { return c_; }

 private:
  bool RampDown(Nanos now, uint64_t ios);  // __lat_target_failed(): false at depth 1
  Action Success(Nanos now, uint64_t ios);
  void NewCycle(Nanos now, uint64_t ios);

  Config c_;
  uint32_t qd_ = 1, qd_high_ = 1, qd_low_ = 1;
  uint32_t stable_count_ = 0;
  uint64_t failed_ = 0;
  uint64_t cycle_ios_ = 0;
  Nanos cycle_start_;
  bool end_run_ = false;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_LATENCY_TARGET_H_
