// FioRun's job scheduling: stonewall segments, wait_for fences, startdelay,
// and exitall when a job ends (backend.c run_threads, thread_main).
#include <vector>

#include "workloads/fio/fio_run.h"

namespace storlab::fio {

void FioRun::StartSegment(int segment) {
  // create_serialize=0: these jobs set their files up now, when the jobs
  // before their stonewall have exited; the segment starts after the layout (fio_run_setup.cc).
  for (size_t k = 0; k < runners_.size(); ++k) {
    if (late_[k] && runners_[k]->spec().segment == segment) SetUpLate(k);
  }
  current_segment_ = segment;
  segment_start_ = host_.engine().now();
  phases_.Begin(segment, host_.stack(), segment_start_);
  bool any = false;
  for (auto& r : runners_) {
    if (r->spec().segment != segment) continue;
    any = true;
    waiting_.push_back(r.get());
  }
  StartWaiting();
  if (!any && segment + 1 < segments_) StartSegment(segment + 1);
}

// backend.c waitee_running(): a job with wait_for=NAME is fenced while any
// other job called NAME (numjobs clones share the name) has not exited.
bool FioRun::WaiteeRunning(const JobRunner& job) const {
  const std::string& waitee = job.spec().opts.wait_for;
  if (waitee.empty()) return false;
  for (const auto& r : runners_) {
    if (r->spec().name == job.spec().name || r->spec().name != waitee) continue;
    if (!r->done()) return true;
  }
  return false;
}

// backend.c run_threads(): each pass starts the jobs of this segment that
// no waitee fences, in order. (fio polls every 100 ms; here a fenced job
// starts when its waitee exits.) Its startdelay still counts from the
// segment's start, as fio's counts from the run's.
void FioRun::StartWaiting() {
  Nanos now = host_.engine().now();
  std::vector<JobRunner*> still;
  for (JobRunner* r : waiting_) {
    if (WaiteeRunning(*r)) {
      still.push_back(r);
      continue;
    }
    Nanos delay = r->spec().opts.startdelay;
    Nanos t = segment_start_ + delay >= now ? segment_start_ : now - delay;
    r->Start(t, [this, job = r] {
      ++done_;
      OnJobExit(*job);
      if (!waiting_.empty()) StartWaiting();
      // A stonewall starts the next segment when this one is all done.
      for (auto& x : runners_) {
        if (x->spec().segment == current_segment_ && !x->done()) return;
      }
      if (current_segment_ + 1 < segments_) StartSegment(current_segment_ + 1);
    });
  }
  waiting_ = std::move(still);
}

// backend.c thread_main(): a job that ends ends others when any job set
// exitall (fio's global exitall_on_terminate) or it failed with
// exitall_on_error; libfio.c fio_terminate_threads() picks them by its
// exit_what: its group, every job running now, or all (later ones too).
void FioRun::OnJobExit(const JobRunner& job) {
  const JobOptions& o = job.spec().opts;
  if (!exitall_ && !(o.exitall_on_error && job.failed())) return;
  for (auto& r : runners_) {
    if (r.get() == &job) continue;
    if ((o.exit_what == "group" && r->spec().groupid == job.spec().groupid) ||
        (o.exit_what == "stonewall" && r->running()) || o.exit_what == "all") {
      r->Terminate();
    }
  }
}

}  // namespace storlab::fio
