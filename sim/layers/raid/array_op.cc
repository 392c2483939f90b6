#include "sim/layers/raid/array_op.h"

#include <algorithm>

namespace storlab {

ArrayOp::ArrayOp(RaidArray& a, Request req) : a_(a), req_(std::move(req)), epoch_(a.epoch()) {
  with_data_ = a_.keeps_data() && (req_.data != nullptr || req_.op == Op::kWriteZeroes);
  if (with_data_ && req_.op == Op::kWriteZeroes) {
    zeros_.assign(std::min<uint64_t>(req_.length, kWindow), 0);
  }
}

void ArrayOp::Start() {
  pos_ = req_.offset;
  starting_ = true;
  if (a_.failed()) {
    Finish(Status::IoError(a_.name() + ": array has failed"));
  } else {
    NextWindow();
  }
  starting_ = false;
}

void ArrayOp::NextWindow() {
  const uint64_t end = req_.offset + req_.length;
  const uint64_t align = WindowAlign();
  const uint64_t w = std::max<uint64_t>(align, kWindow / align * align);
  win_len_ = std::min(end, (pos_ / w + 1) * w) - pos_;
  Window(pos_, win_len_);
}

void ArrayOp::RetryWindow() {
  if (a_.failed()) return WindowDone(Status::IoError(a_.name() + ": array has failed"));
  Window(pos_, win_len_);
}

void ArrayOp::WindowDone(Status st) {
  OnWindowEnd();
  Unlock();
  if (!st.ok()) return Finish(std::move(st));
  pos_ += win_len_;
  if (pos_ >= req_.offset + req_.length) return Finish(Status());
  NextWindow();
}

void ArrayOp::Finish(Status st) {
  if (starting_) {
    // Never complete from inside Submit(): defer to an event.
    auto me = self();
    a_.engine().After(Nanos(0), [me, st = std::move(st)]() mutable {
      if (me->epoch_ == me->a_.epoch()) me->Finish(std::move(st));
    });
    return;
  }
  if (st.ok() && a_.on_read_error) {
    // The data was served from the other members: now rewrite what the
    // failing member could not read (md's fix_read_error).
    for (const auto& [m, off, len] : read_errors_) {
      if (a_.member(m).state == RaidArray::State::kFailed) continue;
      ++a_.counters().read_errors_corrected;
      a_.on_read_error(m, off, len);
    }
  }
  req_.done(std::move(st));
}

void ArrayOp::Lock(uint64_t lo, uint64_t hi, Callback<void()> then) {
  if (ticket_ != 0) return then();  // a retry of the window: still held
  auto me = self();
  a_.lock().Acquire(lo, hi, [me, then = std::move(then)](uint64_t ticket) mutable {
    me->ticket_ = ticket;
    then();
  });
}

void ArrayOp::Unlock() {
  if (ticket_ != 0) {
    uint64_t t = ticket_;
    ticket_ = 0;
    a_.lock().Release(t);
  }
}

bool ArrayOp::Readable(int m, uint64_t off, uint64_t len) const {
  return ((excluded_ >> m) & 1) == 0 && a_.Usable(m, off, len);
}

void ArrayOp::NoteReadErrors(uint64_t failed_mask, const ExtentSet& set) {
  excluded_ |= failed_mask;
  for (const auto& e : set.extents())
    if (e.failed) read_errors_.emplace_back(e.member, e.offset, e.length);
}

void ArrayOp::NoteWriteErrors(uint64_t failed_mask) {
  for (int m = 0; m < a_.size(); ++m)
    if ((failed_mask >> m) & 1) a_.MarkFailed(m);
}

const uint8_t* ArrayOp::Source(uint64_t off) const {
  if (!with_data_) return nullptr;
  if (req_.op == Op::kWriteZeroes) return zeros_.data();
  return req_.data + (off - req_.offset);
}

}  // namespace storlab
