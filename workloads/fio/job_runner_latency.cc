// JobRunner's latency_target (job_runner.h, latency_target.h): the depth
// the job may use, what a late completion does, and the quiesce, final run
// and end that fio's io_u.c lat_target_*() ask for.
#include <cerrno>
#include <cstring>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// account_io_completion(): a completion later than latency_target; at
// depth 1 with latency_percentile=100 it is fatal (lat_fatal(): ETIMEDOUT).
void JobRunner::LatencyTargetHit(const IoUnit& u, uint64_t lat_ns, Nanos t) {
  const LatencyTarget::Action a = lat_target_->OnCompletion(lat_ns, t, done_ios_[0] + done_ios_[1]);
  if (a != LatencyTarget::Action::kFatal) {
    LatencyTargetAct(a);
    return;
  }
  LatencyFatal(u, lat_ns, lat_target_->config().target_ns);
}

// io_u.c lat_fatal(): the job's error is ETIMEDOUT (the first one says
// why); the I/O itself still counts. max_latency and latency_target.
void JobRunner::LatencyFatal(const IoUnit& u, uint64_t lat_ns, uint64_t max_ns) {
  if (failed_) return;
  messages_.push_back("fio: latency of " + std::to_string(lat_ns) +
                      " nsec exceeds specified max (" + std::to_string(max_ns) +
                      " nsec): " + host_.fs().file(files_[u.file].id).name + " " +
                      (u.dir == kRead ? "read" : "write") + " " + std::to_string(u.offset) + " " +
                      std::to_string(u.length));
  failed_ = true;
  ts_.error = ETIMEDOUT;
  ts_.verror =
      std::string("file:io_u.c:1432, func=max latency exceeded, error=") + std::strerror(ETIMEDOUT);
}

void JobRunner::LatencyTargetAct(LatencyTarget::Action a) {
  switch (a) {
    case LatencyTarget::Action::kNone:
    case LatencyTarget::Action::kFatal:
      break;
    case LatencyTarget::Action::kQuiesce:
      quiescing_ = true;
      break;
    case LatencyTarget::Action::kFinalRun:
      // lat_target_success(): quiesce, then reset_all_stats(): only the
      // last window, at the depth found, is reported (Pump resets them once
      // nothing is in flight).
      quiescing_ = reset_after_quiesce_ = true;
      break;
    case LatencyTarget::Action::kDone:
      StopIssuing();
      break;
  }
}

}  // namespace storlab::fio
