// JobRunner's vsync engine (job_runner.h, engines.h): engines/sync.c
// fio_vsyncio_queue() queues an I/O that continues the queued run (same
// file and direction, the next offset) and answers FIO_Q_BUSY to one that
// does not; fio_vsyncio_commit() sends the run as one lseek + readv or
// writev, at most iodepth I/Os (td_io_queue() commits once iodepth_batch
// are queued: with fio's default iodepth_batch=1, every I/O goes alone).
// The thread waits in the call; the stack sees one request covering the
// run. fio_vsyncio_getevents() then hands back every I/O of the run at
// once. After FIO_Q_BUSY (backend.c io_queue_event()), fio commits, reaps
// and queues the I/O again: its issue time is taken then (FIO_SYNCIO).
#include <algorithm>
#include <cstring>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// Queue()'s path for vsync. False: not queued here (an fsync or trim with
// nothing queued goes the synchronous way).
bool JobRunner::QueueMerged(IoUnit* u) {
  const bool rw = u->dir == kRead || u->dir == kWrite;
  if (!batch_.empty()) {
    const IoUnit* last = batch_.back();
    const bool appends = rw && u->dir == last->dir && u->file == last->file &&
                         u->offset == last->offset + last->length;
    if (!appends) {  // fio_vsyncio_append() fails: FIO_Q_BUSY
      held_ = u;
      CommitMerged();
      return true;
    }
  }
  if (!rw) return false;
  batch_.push_back(u);
  if (batch_.size() >= spec_.queueing.batch) CommitMerged();
  return true;
}

// fio_vsyncio_commit(): io_u_mark_depth() and io_u_mark_submit() count
// the run; one system call does it.
void JobRunner::CommitMerged() {
  if (batch_.empty() || !merged_.empty()) return;
  const auto nr = static_cast<uint32_t>(batch_.size());
  for (uint32_t i = 0; i < nr; ++i) ts_.MarkDepth(cur_depth_);
  ts_.MarkSubmit(nr);
  merged_.swap(batch_);
  const EngineModel& sync = GetEngineModel(EngineKind::kSync);
  const Nanos t = Book(Max(host_.engine().now(), thread_free_), sync.submit);  // lseek + readv
  sys_ns_ += sync.submit;
  thread_free_ = t;
  blocked_io_ = true;
  const IoUnit* lead = merged_.front();
  uint64_t len = 0;
  for (IoUnit* m : merged_) {
    m->arrival = t;
    len += m->length;
  }
  uint8_t* data = nullptr;
  if (!bufs_.empty() && (lead->dir == kWrite || host_.keeps_data())) {
    merge_buf_.resize(len);
    data = merge_buf_.data();
    if (lead->dir == kWrite) {  // writev() gathers the buffers
      uint64_t at = 0;
      for (IoUnit* m : merged_) {
        const size_t slot = static_cast<size_t>(m - units_.data());
        if (VerifyOn()) {
          VerifyFill(*m, bufs_.slot(slot));
        } else {
          bufs_.BeforeWrite(slot, m->length, m->offset, m->start);
        }
        std::memcpy(data + at, bufs_.slot(slot), m->length);
        at += m->length;
      }
    }
  }
  const uint32_t id = files_[lead->file].id;
  const Op op = lead->dir == kRead ? Op::kRead : Op::kWrite;
  const uint64_t offset = lead->offset;
  host_.engine().At(t, [this, id, op, offset, len, data] {
    host_.FileIo(
        id, op, offset, len, spec_.direct, [this](Status st) { MergedDone(st); },
        op == Op::kWrite && spec_.sync_writes ? kFua : 0, data);
  });
}

// The call returns: every I/O of the run completes (fio_vsyncio_end():
// an error is every I/O's), and fio reaps them all.
void JobRunner::MergedDone(const Status& st) {
  const Nanos now = host_.engine().now();
  const EngineModel& sync = GetEngineModel(EngineKind::kSync);
  thread_free_ = Max(thread_free_, Book(now, sync.complete));
  sys_ns_ += sync.complete;
  blocked_io_ = false;
  std::vector<IoUnit*> run;
  run.swap(merged_);
  if (!merge_buf_.empty() && run.front()->dir == kRead) {  // readv() scatters
    uint64_t at = 0;
    for (IoUnit* m : run) {
      std::memcpy(bufs_.slot(static_cast<size_t>(m - units_.data())), merge_buf_.data() + at,
                  m->length);
      at += m->length;
    }
  }
  merge_buf_.clear();
  in_getevents_ = true;
  for (IoUnit* m : run) Reap(m, st, now);
  in_getevents_ = false;
  ts_.MarkComplete(static_cast<uint32_t>(run.size()));
  low_wait_ = poll_wait_ = false;
  if (held_) {  // queued again after FIO_Q_BUSY
    IoUnit* u = held_;
    held_ = nullptr;
    u->issue = Max(u->issue, thread_free_);
    if (!QueueMerged(u)) {  // an fsync or trim: synchronous
      ts_.MarkDepth(cur_depth_);
      ts_.MarkSubmit(1);
      u->arrival = Max(u->arrival, thread_free_);
      blocked_io_ = true;
      Dispatch(u);
    }
  }
  Pump();  // draining, it commits what the held I/O left queued
}

}  // namespace storlab::fio
