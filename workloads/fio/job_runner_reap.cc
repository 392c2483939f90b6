// JobRunner's reaping of a completed I/O (job_runner.h): when the thread
// sees it, the latencies and counters fio's io_u.c account_io_completion()
// keeps, the latency limits, verification of what a read returned, and
// the next Pump().
#include <algorithm>
#include <utility>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {
namespace {

using namespace time_literals;

// Waits longer than this put the thread to sleep (a context switch in
// fio's "ctx"); shorter ones are copies and syscalls that return at once.
constexpr Nanos kSleepThreshold = 10_us;

}  // namespace

void JobRunner::OnStackDone(IoUnit* u, Status st) {
  Nanos now = host_.engine().now();
  FileState& f = files_[u->file];
  Nanos visible = now;
  bool serial =
      u->dir != kTrim && (eng_.per_fd_worker || (eng_.buffered_write_serial && !spec_.direct &&
                                                 (u->dir == kWrite || u->dir == kSync)));
  if (serial) {
    Nanos exit = eng_.per_fd_worker ? psync_.complete : Nanos(0);
    f.worker_free = now + exit;
    visible = f.worker_free + eng_.notify;
    f.worker_busy = false;
    if (f.q_size) StartWorker(f, f.worker_free);
  }
  if (spec_.queueing.batching && !u->blocks_thread) {
    Completed(u, std::move(st));  // reaped when the thread gets the event
    return;
  }
  Reap(u, st, visible);
}

void JobRunner::Reap(IoUnit* u, const Status& st, Nanos visible) {
  const JobOptions& o = spec_.opts;
  if (u->locked) {  // lockfile=exclusive: the queue call returned (unlock_file())
    u->locked = false;
    locks_->Release(files_[u->file].id);
  }
  if (u->dir == kWrite && VerifyOn()) VerifyWritten(*u);
  // A context switch when the thread had to sleep for the completion: a
  // call that returns within kSleepThreshold (a page-cache copy) does not switch.
  if (visible - (u->blocks_thread ? u->arrival : thread_free_) > kSleepThreshold) ++ts_.ctx;
  Nanos t0 = u->blocks_thread ? visible : Max(visible, thread_free_);
  // sqthread_poll: fio_ioring_getevents() reaps the ring without
  // io_uring_enter(); userspace_reap: libaio's user_io_getevents() without
  // io_getevents().
  const bool no_call = spec_.sqthread_poll || spec_.user_reap;
  const Nanos complete = no_call ? Nanos(0) : eng_.complete;
  Nanos reap = no_call ? t0 : Book(t0, complete);
  sys_ns_ += complete;
  thread_free_ = Max(thread_free_, reap);
  if (u->blocks_thread) blocked_io_ = false;
  if (u->submit_blocks) u->issue = visible;
  if (!st.ok()) {
    RecordError(*u, st);
  } else if (u->dir == kRead && EmptyRead(*u)) {
    // create_on_open: nothing there (job_runner_errors.cc).
  } else if (u->dir == kSync) {
    if (!o.disable_clat) ts_.sync_lat.Add(static_cast<uint64_t>((reap - u->issue).count()));
  } else {
    // io_u.c account_io_completion(): disable_lat / disable_clat /
    // disable_slat (and gtod_reduce, all three) leave their figures out.
    DirStat& d = ts_.dir[u->dir];
    uint64_t clat = static_cast<uint64_t>((reap - u->issue).count());
    // FIO_NOSTATS (filecreate & co.): account_io_completion() takes no
    // latency samples; the bytes and I/Os count.
    const bool samples = !eng_.no_stats;
    // A trim is done inside the engine's queue call (FIO_Q_COMPLETED):
    // io_u_queued() never takes its slat.
    if (eng_.async && !eng_.no_io && !o.disable_slat && u->dir != kTrim) {
      d.slat.Add(static_cast<uint64_t>((u->issue - u->start).count()));
    }
    if (!o.disable_clat && samples) {
      d.clat.Add(clat);
      ts_.MarkLatency(clat);
    }
    const auto lat = static_cast<uint64_t>((reap - u->start).count());
    if (!o.disable_lat && samples) d.lat.Add(lat);
    // stat.c add_clat_sample() / add_lat_sample(): the I/O's priority's
    // figure, its total latency with lat_percentiles.
    if (samples && !(ts_.lat_percentiles ? o.disable_lat : o.disable_clat))
      d.AddPrio(u->ioprio, ts_.lat_percentiles ? lat : clat);
    if (o.max_latency_ns[u->dir] && lat > o.max_latency_ns[u->dir] && !o.disable_lat && samples) {
      LatencyFatal(*u, lat, o.max_latency_ns[u->dir]);
    }
    if (lat_target_ && !o.disable_lat && samples) {
      LatencyTargetHit(*u, static_cast<uint64_t>((reap - u->start).count()), reap);
    }
    if (ramp_over_) {
      // io_u.c account_io_completion(): trim_block_info().
      if (u->dir == kTrim && !ts_.blocks.empty() && o.stats && samples) {
        ts_.blocks.Trimmed(BlockIndex(*u));
      }
      Account(u->dir, u->length, reap);
      if (logs_ && samples) LogIo(*u, reap, clat, static_cast<uint64_t>((reap - u->start).count()));
    }
    d.io_bytes += u->length;
    if (u->dir == kWrite) {  // io_completed(): file_log_write_comp()
      vlog_.LogWriteComp(u->file, u->offset);
      FileState& f = files_[u->file];
      f.first_write = std::min(f.first_write, u->offset);
      f.last_write = std::max(f.last_write, u->offset + u->length);
    }
    ++completed_blocks_;
    if (ramp_over_ && u->dir < 3) {
      done_bytes_[u->dir] += u->length;
      ++done_ios_[u->dir];
      if (MinRateMissed(u->dir, reap)) failed_ = true;
    }
    if (u->dir == kRead && VerifyOn()) VerifyRead(*u);
  }
  if (!in_getevents_) ts_.MarkComplete(1);
  --cur_depth_;
  u->in_flight = false;
  free_.push_back(u);
  // backend.c do_io(): after the completions, lat_target_check().
  if (lat_target_ && ramp_over_ && !failed_ && phase_ == Phase::kRunning) {
    LatencyTargetAct(lat_target_->Check(reap, done_ios_[0] + done_ios_[1]));
  }
  if (phase_ == Phase::kDraining) {
    if (cur_depth_ == 0) FinishIo(thread_free_);
    return;
  }
  if (in_getevents_) return;  // GetEvents() pumps after the batch
  poll_wait_ = false;         // a synchronous unit (trim, fsync) was the wait
  Pump();
}

// lockfile=exclusive: the lock `u` waited for is its job's now (handed
// over inside another job's completion, so the I/O goes from an event of
// its own). A job that stopped meanwhile gives it back.
void JobRunner::LockGranted(IoUnit* u) {
  host_.engine().At(host_.engine().now(), [this, u] {
    blocked_io_ = false;
    if (phase_ != Phase::kRunning) {
      u->locked = false;
      locks_->Release(files_[u->file].id);
      free_.push_back(u);
      return;
    }
    Launch(u, Max(host_.engine().now(), thread_free_));
    Pump();
  });
}

}  // namespace storlab::fio
