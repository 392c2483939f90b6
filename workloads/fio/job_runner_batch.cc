// JobRunner's io_u queueing when a job sets iodepth_batch,
// iodepth_batch_complete_min/max or iodepth_low (job_runner.h; with fio's
// defaults the runner submits each I/O at once and reaps each completion as
// it comes, which is what fio's queueing then amounts to).
//
// As fio 3.33 does it: td_io_queue() (ioengines.c) queues an I/O and
// commits (io_submit) once iodepth_batch are queued; td_io_getevents()
// commits what is queued before it waits. backend.c do_io() waits when the
// queue is full (io_u.c queue_full(): no free io_u), in
// wait_for_completions(): it reaps at least min(complete_min, cur_depth)
// events (1 when complete_min is 0), at most complete_max, and goes on
// reaping while more than iodepth_low are in flight; with complete_min and
// complete_max both 0 (io_in_polling()) it waits for one event after every
// I/O, which real fio 3.33 shows as depth 1 (libaio, iodepth=32). A completion is
// counted (clat) when it is reaped, not when the device finished it.
#include <algorithm>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// td_io_queue(): an I/O the engine completes in its queue call (a trim,
// an fsync, a buffered libaio I/O) makes it commit what is queued first
// (FIO_Q_BUSY, then td_io_commit()).
void JobRunner::Queue(IoUnit* u) {
  if (eng_.merges && QueueMerged(u)) return;  // vsync (job_runner_vsync.cc)
  if (u->blocks_thread) {
    Commit();
    ts_.MarkDepth(cur_depth_);
    ts_.MarkSubmit(1);
    Dispatch(u);
    return;
  }
  batch_.push_back(u);
  if (batch_.size() >= spec_.queueing.batch) Commit();
}

// td_io_commit(): io_u_mark_depth() counts the batch at the depth it makes,
// the engine's commit io_u_mark_submit() its size; libaio and io_uring
// take the issue time at commit (FIO_ASYNCIO_SETS_ISSUE_TIME).
void JobRunner::Commit() {
  if (eng_.merges) {
    CommitMerged();
    return;
  }
  if (batch_.empty()) return;
  const auto nr = static_cast<uint32_t>(batch_.size());
  for (uint32_t i = 0; i < nr; ++i) ts_.MarkDepth(cur_depth_);
  ts_.MarkSubmit(nr);
  const Nanos t = thread_free_;
  for (IoUnit* u : batch_) {
    u->issue = u->arrival = Max(u->arrival, t);
    Dispatch(u);
  }
  batch_.clear();
}

// The end of a Pump(): the thread stops submitting, so it commits; with
// the queue full it waits in wait_for_completions().
void JobRunner::AfterPump() {
  Commit();
  if (phase_ == Phase::kRunning && cur_depth_ > 0 && cur_depth_ >= DepthLimit()) low_wait_ = true;
  GetEvents();
}

void JobRunner::Completed(IoUnit* u, Status st) {
  unreaped_.push_back({u, std::move(st)});
  GetEvents();
}

// io_u_queued_complete() from wait_for_completions() (queue full), or with
// one event at least when the thread waits for anything else (draining:
// cleanup_pending_aio(); quiescing: io_u_quiesce()).
void JobRunner::GetEvents() {
  if (in_getevents_ || in_pump_ || blocked_io_ || unreaped_.empty()) return;
  const JobSpec::Queueing& q = spec_.queueing;
  uint32_t min_evts = 1;
  if (low_wait_ && phase_ == Phase::kRunning && q.complete_min)
    min_evts = std::min(q.complete_min, cur_depth_);
  if (unreaped_.size() < min_evts) return;
  // td_io_getevents(): max capped at cur_depth, at least min.
  const uint32_t max_evts = std::max(std::min(q.complete_max, cur_depth_), min_evts);
  const auto n = static_cast<uint32_t>(std::min<size_t>(max_evts, unreaped_.size()));
  const Nanos now = host_.engine().now();
  in_getevents_ = true;
  for (uint32_t i = 0; i < n; ++i) {
    Unreaped e = std::move(unreaped_.front());
    unreaped_.pop_front();
    Reap(e.u, e.st, now);
  }
  in_getevents_ = false;
  ts_.MarkComplete(n);
  if (phase_ != Phase::kRunning) {
    GetEvents();
    return;
  }
  // wait_for_completions(): while (full && cur_depth > iodepth_low).
  if (low_wait_ && cur_depth_ > q.low) {
    GetEvents();
    return;
  }
  low_wait_ = poll_wait_ = false;
  Pump();
}

}  // namespace storlab::fio
