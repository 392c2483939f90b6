// JobRunner's verify= (verify.h): writes carry fio's verify header and
// checksum, reads check what the stack returned — every read of a job that
// only reads, and the verify pass after a job's writes (fio backend.c:
// thread_main() runs do_verify() after do_io() when do_verify=1, reading
// back io_hist_list, fio's log_io_piece() list, in write order).
//
// The first failure ends the job with EILSEQ, as fio's io_u_queued_complete()
// / io_u_sync_complete() do with the error verify_io_u() returns (with or
// without verify_fatal: that option only stops verify_io_u() at the failing
// block of a multi-block I/O, and storlab's blocks are whole I/Os) — unless
// continue_on_error=verify (or all) makes it non-fatal: then it is counted
// and the job goes on, and verify_fatal=1 ends it without an error
// (job_runner_errors.cc).
#include <cerrno>
#include <cstring>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// At issue, as fio's get_io_u() / log_io_piece(): a write's header fields
// (numberio: td->io_issues[DDIR_WRITE] before this one), and the entry in
// the history; a read of a read-only job expects its own offset.
void JobRunner::VerifyIssue(const IoUnit& u) {
  VerifyBlock& b = verify_unit_[static_cast<size_t>(&u - units_.data())];
  if (u.dir == kWrite) {
    b.offset = u.offset;
    b.numberio = static_cast<uint16_t>(write_issues_ - 1);
    b.rand_seed = spec_.rand_seed ^ (write_issues_ * 0x9e3779b97f4a7c15ULL);
    b.thread = static_cast<uint16_t>(spec_.thread_number);
    b.time_ns = static_cast<uint64_t>(u.start.count());
    // A block written again: the older entry is superseded (fio's rb-tree
    // insert drops the old io_piece when it overlaps).
    auto [it, fresh] = verify_index_.try_emplace({u.file, u.offset}, verify_hist_.size());
    if (!fresh) {
      verify_hist_[it->second].length = 0;
      it->second = verify_hist_.size();
    }
    verify_hist_.push_back({u.file, u.length, b});
  } else if (u.dir == kRead && !verifying_) {
    b = VerifyBlock{};
    b.offset = u.offset;
  }
}

bool JobRunner::VerifyPick(IoUnit* u) {
  while (verify_pos_ < verify_hist_.size() && verify_hist_[verify_pos_].length == 0) ++verify_pos_;
  if (verify_pos_ >= verify_hist_.size()) return false;
  const VerifyPiece& p = verify_hist_[verify_pos_++];
  u->file = p.file;
  u->offset = p.block.offset;
  u->length = p.length;
  verify_unit_[static_cast<size_t>(u - units_.data())] = p.block;
  return true;
}

void JobRunner::VerifyFill(const IoUnit& u, uint8_t* data) {
  FillVerify(spec_.verify, spec_.verify_pattern,
             verify_unit_[static_cast<size_t>(&u - units_.data())], data, u.length);
}

void JobRunner::VerifyRead(const IoUnit& u) {
  if (failed_ || (spec_.do_write && !verifying_)) return;
  const size_t slot = static_cast<size_t>(&u - units_.data());
  std::string msg =
      CheckVerify(spec_.verify, spec_.verify_pattern, verify_unit_[slot], verifying_,
                  host_.fs().file(files_[u.file].id).name, bufs_.slot(slot), u.length);
  if (msg.empty()) return;
  for (size_t pos = 0; pos < msg.size();) {
    size_t nl = msg.find('\n', pos);
    messages_.push_back(msg.substr(pos, nl - pos));
    pos = nl + 1;
  }
  if (!VerifyErrorEndsJob()) return;
  failed_ = true;
  ts_.error = EILSEQ;
  ts_.verror =
      std::string("file:io_u.c:2152, func=io_u_sync_complete, error=") + std::strerror(EILSEQ);
}

// After the writes (and end_fsync), once: the verify pass, when the job
// wrote with do_verify=1 and no error.
bool JobRunner::StartVerify(Nanos t) {
  if (verifying_ || !VerifyOn() || !spec_.do_write || !spec_.opts.do_verify || failed_ ||
      verify_hist_.empty()) {
    return false;
  }
  verifying_ = true;
  verify_start_ = t;
  thread_free_ = Max(thread_free_, t);
  phase_ = Phase::kRunning;
  host_.engine().At(t, [this] { Pump(); });
  return true;
}

}  // namespace storlab::fio
