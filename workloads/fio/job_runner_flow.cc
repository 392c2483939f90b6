// JobRunner's flow control (flow.h; fio's flow.c flow_threshold_exceeded()
// as backend.c do_io() calls it before each I/O).
#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// Held back by the flow. fio with flow_sleep: io_u_quiesce() (wait for
// what is in flight), then usleep(flow_sleep), then ask again. Without
// it fio spins on the question; here the job waits until a job of its
// flow is let through or leaves the flow, or its runtime is up.
void JobRunner::FlowHold(Nanos t) {
  const JobOptions& o = spec_.opts;
  if (o.flow_sleep) {
    if (cur_depth_ > 0) {  // the last reap calls Pump, which sleeps
      quiescing_ = true;
      flow_sleep_due_ = true;
      return;
    }
    SleepUntil(FlowSleepEnd(t));
    return;
  }
  flow_waiting_ = true;
  sleeping_ = true;
  flow_->Watch([this] { FlowWake(); });
  if (o.runtime > Nanos(0) && ramp_over_) {
    host_.engine().At(Max(t, epoch_ + o.runtime), [this] { FlowWake(); });
  }
}

void JobRunner::FlowWake() {
  if (!flow_waiting_) return;  // woken already
  flow_waiting_ = false;
  sleeping_ = false;
  thread_free_ = Max(thread_free_, host_.engine().now());
  Pump();
}

// The end of a flow_sleep from `t`: at the runtime at the latest.
Nanos JobRunner::FlowSleepEnd(Nanos t) const {
  const JobOptions& o = spec_.opts;
  Nanos end = t + Nanos(o.flow_sleep * 1000);
  if (o.runtime > Nanos(0) && ramp_over_) end = Min(end, Max(t, epoch_ + o.runtime));
  return end;
}

}  // namespace storlab::fio
