// JobRunner's I/O path (job_runner.h): choosing each I/O's direction, rate
// limits, thinktime and fsync=, issuing it through the engine model (per-fd
// helper threads included). Reaping is in job_runner_reap.cc, offsets and
// sizes in job_runner_offset.cc.
#include <algorithm>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {
bool JobRunner::ShouldStop(Nanos t) const {
  if (failed_ || terminated_) return true;
  const JobOptions& o = spec_.opts;
  if (ramp_over_ && o.runtime > Nanos(0) && t - epoch_ >= o.runtime) return true;
  // backend.c do_io(): the loop goes on while the trim verify list has
  // blocks, too (with trim_backlog: without it nothing would take them).
  if (!o.time_based && issued_loop_bytes_ >= io_size_ &&
      loops_done_ + 1 >= static_cast<uint64_t>(o.loops) &&
      !(o.trim_backlog && vlog_.trims.entries())) {
    return true;
  }
  // number_ios: I/Os counted as fio's io_blocks (reset by ramp_time).
  if (o.number_ios && issued_ios_[kRead] + issued_ios_[kWrite] + issued_ios_[kTrim] >=
                          static_cast<uint64_t>(o.number_ios)) {
    return true;
  }
  return o.create_only;
}

void JobRunner::Pump() {
  if (in_pump_) return;
  in_pump_ = true;
  Engine& engine = host_.engine();
  const JobOptions& o = spec_.opts;
  while (phase_ == Phase::kRunning && !blocked_io_ && !sleeping_ && !low_wait_ && !poll_wait_ &&
         cur_depth_ < DepthLimit()) {
    if (quiescing_ && cur_depth_ > 0) break;  // io_u_quiesce(): the last reap calls Pump
    Nanos t = Max(engine.now(), thread_free_);
    if (quiescing_ && reset_after_quiesce_) ResetStats(t);  // latency_target's final run
    quiescing_ = reset_after_quiesce_ = false;
    if (flow_sleep_due_) {  // held back by its flow, quiesced: now the flow_sleep
      flow_sleep_due_ = false;
      SleepUntil(FlowSleepEnd(t));
      break;
    }
    if (verifying_) {  // do_verify(): read back every block written
      if (failed_ || terminated_ || vlog_.pos >= vlog_.hist.size()) {
        StopIssuing();
        break;
      }
      Issue(kRead, t);
      continue;
    }
    if (ShouldStop(t)) {
      StopIssuing();
      break;
    }
    // serialize_overlap: the I/O held back goes first, once nothing in
    // flight overlaps it (job_runner_overlap.cc).
    if (overlap_held_) {
      if (!LaunchHeld(t)) break;
      continue;  // the stop checks again, with the held I/O counted
    }
    // Not time_based: a loop ends when io_size bytes were issued (the last
    // one goes on only for trim verify's trims, above).
    if (!o.time_based && issued_loop_bytes_ >= io_size_ &&
        loops_done_ + 1 < static_cast<uint64_t>(o.loops)) {
      // unlink_each_loop: do_io() has reaped the loop's I/O before the
      // files go (the last reap calls Pump again).
      if (o.unlink_each_loop && cur_depth_ > 0) break;
      ++loops_done_;
      issued_loop_bytes_ = 0;
      RestartFiles();
      if (o.unlink_each_loop && !UnlinkEachLoop()) {
        StopIssuing();
        break;
      }
    }
    // thinktime: quiesce, then think (job_runner_pace.cc).
    if (o.thinktime > Nanos(0) && ThinkDue(t)) {
      if (cur_depth_ > 0) break;  // the last reap calls Pump again
      Think(t);
      break;
    }
    // flow_threshold_exceeded() (backend.c do_io(): before each I/O, once).
    if (flow_ && !flow_passed_) {
      if (flow_->Exceeded(flow_count_, static_cast<uint64_t>(o.flow))) {
        FlowHold(t);
        break;
      }
      ++flow_count_;
      flow_passed_ = true;
    }
    // fsync=N / fdatasync=N: after every N writes issued.
    int64_t every = o.fsync_blocks ? o.fsync_blocks : o.fdatasync_blocks;
    if (every && last_dir_issued_ == kWrite && write_issues_ &&
        write_issues_ % static_cast<uint64_t>(every) == 0) {
      Issue(kSync, t);
      continue;
    }
    // sync_file_range=FLAGS:N (io_u.c get_rw_ddir(): after fsync= and
    // fdatasync=, every N writes issued).
    if (spec_.sfr_every && last_dir_issued_ == kWrite && write_issues_ &&
        write_issues_ % spec_.sfr_every == 0) {
      Issue(kSync, t, /*sync_range=*/true);
      continue;
    }
    if (spec_.trace) {  // read_iolog: the trace says what and when
      int rdir = 0;
      Nanos due;
      if (!ReplayNext(t, &rdir, &due)) {
        StopIssuing();
        break;
      }
      if (due > t) {
        SleepUntil(due);
        break;
      }
      ReplayIssue(rdir, t);
      continue;
    }
    // verify_backlog: verify reads of blocks written (io_u.c check_get_verify()).
    if (BacklogDue()) {
      backlog_pick_ = true;
      Issue(kRead, t);
      backlog_pick_ = false;
      continue;
    }
    // trim_backlog: trims of blocks written (io_u.c check_get_trim()).
    if (VerifyOn() && vlog_.trims.Due(vlog_.live, last_dir_issued_ == kRead)) {
      backlog_pick_ = true;
      Issue(kTrim, t);
      backlog_pick_ = false;
      continue;
    }
    int dir = pending_dir_;
    if (dir < 0) {
      if (spec_.do_trim) {
        dir = TrimWriteDir();
      } else if (spec_.do_read && spec_.do_write) {
        dir =
            static_cast<int>((static_cast<uint64_t>(mix_rng_.Next()) * 100) >> 32) < spec_.rwmixread
                ? kRead
                : kWrite;
      } else {
        dir = spec_.do_read ? kRead : kWrite;
      }
      pending_dir_ = dir;
    }
    // rate / rate_iops: the n-th I/O may start n * size / rate after the epoch.
    if (o.rate[dir] || o.rate_iops[dir]) {
      double secs =
          o.rate[dir]
              ? static_cast<double>(issued_bytes_[dir]) / static_cast<double>(o.rate[dir])
              : static_cast<double>(issued_ios_[dir]) / static_cast<double>(o.rate_iops[dir]);
      if (think_bytes_[dir]) {  // rate_ignore_thinktime (job_runner_pace.cc RateSkipThink())
        const uint64_t bps = o.rate[dir] ? o.rate[dir] : o.rate_iops[dir] * spec_.sizes[dir].min;
        secs =
            static_cast<double>(issued_bytes_[dir] + think_bytes_[dir]) / static_cast<double>(bps);
      }
      Nanos allowed = o.rate_process == "poisson"
                          ? epoch_ + Nanos(static_cast<int64_t>(poisson_usec_[dir]) * 1000)
                          : epoch_ + Nanos::FromSeconds(secs);
      // io_u.c rate_ddir(): the sleep ends at the runtime at the latest.
      if (o.runtime > Nanos(0) && ramp_over_) allowed = Min(allowed, epoch_ + o.runtime);
      if (allowed > t) {
        SleepUntil(allowed);
        break;
      }
    }
    Issue(dir, t);
    // backend.c do_io(): io_in_polling() (complete_min and _max both 0):
    // after each I/O, wait_for_completions() reaps one.
    if (spec_.queueing.polling) poll_wait_ = true;
  }
  in_pump_ = false;
  if (spec_.queueing.batching) AfterPump();
}

void JobRunner::Issue(int dir, Nanos t, bool sync_range) {
  flow_passed_ = false;  // the next I/O asks its flow again
  IoUnit* u = free_.back();
  u->dir = static_cast<uint8_t>(dir);
  u->ver_list = false;
  u->sync_range = sync_range;
  if (dir == kSync) {
    u->file = last_write_file_;
    // io_u.c do_sync_file_range(): from the first byte written to the
    // last (nothing written: no call).
    const FileState& f = files_[u->file];
    const bool any = sync_range && f.first_write < f.last_write;
    u->offset = any ? f.first_write : 0;
    u->length = any ? f.last_write - f.first_write : 0;
  } else if (TrimWritePick(u)) {
    // trimwrite: the write covers the block just trimmed.
  } else if (!PickOffset(dir, u)) {
    // Every file went through a pass: start over if the job goes on. An
    // io_size beyond the files wraps around within the loop, as in fio.
    const bool wrap = spec_.opts.io_size && issued_loop_bytes_ < io_size_;
    if (wrap || spec_.opts.time_based ||
        loops_done_ + 1 < static_cast<uint64_t>(spec_.opts.loops)) {
      if (!spec_.opts.time_based && !wrap) {
        ++loops_done_;
        issued_loop_bytes_ = 0;
      }
      RestartFiles();
      if (!PickOffset(dir, u)) {
        StopIssuing();
        return;
      }
    } else {
      StopIssuing();
      return;
    }
  }
  // do_verify() / do_io(): verify_state_load stops the job at a block of
  // its last writes that had not completed (verify_state_should_stop()), a
  // read that is verified: of the verify list, or of a job that does not
  // both read and write (!td_rw()).
  if (vlog_.loaded && dir == kRead && spec_.verify != VerifyKind::kNone &&
      (u->ver_list || !(spec_.do_read && spec_.do_write)) &&
      VerifyStateStops(*vlog_.loaded, done_ios_[kRead], u->file, u->offset)) {
    StopIssuing();
    return;
  }
  if (!opened_now_.empty() && !OpenPicked(&t)) return;
  free_.pop_back();
  if (!u->ver_list) pending_dir_ = -1;
  if (OverlapHold(u)) return;
  Launch(u, t);
}

// td_io_queue(): the I/O picked goes to the engine.
void JobRunner::Launch(IoUnit* u, Nanos t) {
  // lockfile=exclusive (file_locks.h): td_io_prep() takes the file's lock
  // before the I/O's start time, held until the queue call returns — the
  // whole I/O where the call does it (synchronous engines, trims). A job
  // that finds it held waits in fio_sem_down().
  if (locks_ && !u->locked && (!eng_.async || u->dir == kTrim)) {
    u->locked = true;
    if (!locks_->Acquire(files_[u->file].id, [this, u] { LockGranted(u); })) {
      blocked_io_ = true;
      return;
    }
  }
  const int dir = u->dir;
  u->in_flight = true;
  u->ioprio = spec_.cmdprio.Pick(dir, u->length, prio_rng_);  // io_u.c, fio_cmdprio_set_ioprio()
  const bool direct = spec_.direct || eng_.no_io;
  u->submit_blocks =
      eng_.buffered_sync_submit && !direct && dir != kSync && dir != kTrim && !spec_.offload;
  // io_submit_mode=offload: a worker thread makes the call, not the job's.
  u->blocks_thread =
      !spec_.offload &&
      ((!eng_.async && (!eng_.merges || dir == kSync)) || u->submit_blocks || dir == kTrim ||
       (dir == kSync && eng_.kind != EngineKind::kPosixaio && eng_.kind != EngineKind::kIoUring &&
        eng_.kind != EngineKind::kIoUringCmd));
  // One CPU burst: fio's own work, then the submitting call (with
  // sqthread_poll, the kernel's SQ thread makes it, on a core of its own).
  const Nanos submit = spec_.sqthread_poll ? Nanos(0) : eng_.submit + CallCost(*u);
  Nanos end = Book(t, eng_.prep + submit);
  usr_ns_ += eng_.prep;
  sys_ns_ += submit;
  u->start = end - submit;
  u->issue = u->blocks_thread && !u->submit_blocks ? u->start : end;
  u->arrival = spec_.sqthread_poll ? Book(end, eng_.submit) : end;
  thread_free_ = end;
  if (u->blocks_thread) blocked_io_ = true;
  ++cur_depth_;
  if (!spec_.queueing.batching) {  // else at commit (job_runner_batch.cc)
    ts_.MarkDepth(cur_depth_);
    ts_.MarkSubmit(1);
  }
  if (dir == kSync) {
    // ioengines.c td_io_queue(): total_io_u[ddir]++, where fio's
    // DDIR_DATASYNC (4) and DDIR_SYNC_FILE_RANGE (5) run past the 4-entry
    // array into short_io_u[0] and [1]: real fio 3.33 shows fdatasync=8
    // over 64 writes as "total=0,64,0,0 short=7,0,0,0".
    if (u->sync_range) {
      ++ts_.dir[kWrite].short_ios;
    } else if (!spec_.opts.fsync_blocks && spec_.opts.fdatasync_blocks) {
      ++ts_.dir[kRead].short_ios;
    } else {
      ++ts_.sync_total;
    }
  } else {
    ++ts_.dir[dir].total_ios;
    issued_bytes_[dir] += u->length;
    ++issued_ios_[dir];
    ++issued_blocks_;
    // td_io_queue(): a verify read (IO_U_F_VER_LIST) is no io_issue_bytes.
    if (CountsToSize(dir) && !u->ver_list) issued_loop_bytes_ += u->length;
    if ((spec_.opts.rate[dir] || spec_.opts.rate_iops[dir]) && spec_.opts.rate_process == "poisson")
      PoissonNext(dir);
    if (dir == kWrite) {
      ++write_issues_;
      last_write_file_ = u->file;
    }
    if (spec_.trim_write && !u->ver_list) trim_write_due_ = dir == kTrim;
  }
  last_dir_issued_ = dir;
  if (iolog_) IologIo(*u);
  // experimental_verify: the job's own trims are verified too.
  if (VerifyOn() && (dir != kTrim || (spec_.opts.experimental_verify && !u->ver_list)))
    VerifyIssue(*u);
  if (spec_.queueing.batching) {
    Queue(u);
  } else {
    Dispatch(u);
  }
}

void JobRunner::Dispatch(IoUnit* u) {
  Engine& engine = host_.engine();
  // verify_only: an I/O of the dry run (backend.c do_dry_run()) completes
  // at once, without I/O (io_u_sync_complete()); the verify pass reads.
  const bool dry =
      spec_.opts.verify_only && spec_.do_write && !verifying_ && (!u->ver_list || u->dir == kTrim);
  if (eng_.no_io || dry) {
    engine.At(u->arrival, [u] { u->job->Reap(u, Status(), u->job->host_.engine().now()); });
    return;
  }
  u->arrival += AsyncPunt(*u);  // force_async (job_runner_nowait.cc)
  FileState& f = files_[u->file];
  bool serial =
      u->dir != kTrim && (eng_.per_fd_worker || (eng_.buffered_write_serial && !spec_.direct &&
                                                 (u->dir == kWrite || u->dir == kSync)));
  if (serial) {
    f.queue[(f.q_head + f.q_size) % f.queue.size()] = u;
    ++f.q_size;
    if (!f.worker_busy) StartWorker(f, u->arrival + eng_.worker_wake);
    return;
  }
  if (u->arrival == engine.now()) {
    SubmitNow(u);
  } else {
    engine.At(u->arrival, [u] { u->job->SubmitNow(u); });
  }
}

void JobRunner::SubmitNow(IoUnit* u) {
  const FileState& f = files_[u->file];
  Completion done = [u](Status st) { u->job->OnStackDone(u, std::move(st)); };
  if (eng_.file_op == FileOp::kFalloc || eng_.file_op == FileOp::kFtruncate) {
    SubmitFileOp(u, std::move(done));
  } else if (u->dir == kSync && u->sync_range) {
    host_.SyncFileRange(f.id, u->offset, u->length, spec_.sfr_flags, std::move(done));
  } else if (u->dir == kSync) {
    host_.Fsync(f.id, spec_.direct, std::move(done));
  } else if (u->dir == kTrim) {
    SubmitTrim(u, std::move(done));
  } else if (spec_.uncached_io) {  // RWF_UNCACHED (job_spec_fixup.cc): refused
    host_.engine().At(host_.engine().now(), [done = std::move(done)]() mutable {
      done(Status::NotSupported("RWF_UNCACHED"));
    });
  } else if (spec_.mmap_private) {
    SubmitPrivate(u, std::move(done));
  } else if (Status refused = NowaitRefusal(*u); !refused.ok()) {
    host_.engine().At(host_.engine().now(),
                      [done = std::move(done), refused]() mutable { done(refused); });
  } else {
    uint8_t* data = nullptr;
    if (!bufs_.empty() && (u->dir == kWrite || host_.keeps_data())) {
      const size_t slot = static_cast<size_t>(u - units_.data());
      data = bufs_.slot(slot);
      if (u->dir == kWrite && VerifyOn()) {
        VerifyFill(*u, data);  // its own data: verify.c ignores buffer_pattern
      } else if (u->dir == kWrite) {
        bufs_.BeforeWrite(slot, u->length, u->offset, u->start);  // io_u.c get_io_u
      }
    }
    // mmap with direct=1: each write is msync'ed (job_runner_engines.cc).
    if (spec_.msync_writes && u->dir == kWrite) done = MsyncAfter(*u, std::move(done));
    // sync=: O_SYNC / O_DSYNC writes are FUA writes.
    const uint32_t flags = u->dir == kWrite && spec_.sync_writes ? kFua : 0;
    host_.FileIo(f.id, u->dir == kRead ? Op::kRead : Op::kWrite, u->offset, u->length, spec_.direct,
                 std::move(done), flags, data);
  }
}

}  // namespace storlab::fio
