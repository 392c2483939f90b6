// JobRunner's I/O errors (job_runner.h, error_policy.h): an error either
// ends the job (fio's td->error) or, when continue_on_error covers it, is
// counted and the job goes on (io_u.c io_completed(), backend.c
// break_on_this_error(), td_error.c update_error_count()).
#include <cerrno>
#include <cstring>

#include "sim/status_errno.h"
#include "workloads/fio/job_runner.h"

namespace storlab::fio {
namespace {

constexpr std::string_view kFullResid = "full resid";  // a read that returned nothing

}  // namespace

// td_error.c update_error_count().
void JobRunner::CountError(int err) {
  if (++ts_.total_err_count == 1) ts_.first_error = err;
}

void JobRunner::RecordError(const IoUnit& u, const Status& st) {
  if (failed_) return;
  // iolog.c unlog_io_piece() marks block_error_percentiles' block: from
  // backend.c's full resid, or from io_completed() for a write logged for
  // verify (trims carry no io_piece: get_next_trim()).
  if (!ts_.blocks.empty() && u.dir != kRead &&
      (st.message() == kFullResid || (eng_.async && u.dir == kWrite && VerifyOn()))) {
    ts_.blocks.Failed(BlockIndex(u), u.dir == kTrim);
  }
  // A trim fails inside the engine's queue call (job_runner_trim.cc):
  // ENOTTY on a regular file, or the device's error (EOPNOTSUPP without
  // discard support); td_io_queue() reports it (ioengines.c).
  const bool trim = u.dir == kTrim;
  const int err = trim && st.message() == kTrimNotBlock ? ENOTTY : ToErrno(st);
  const char* what = std::strerror(err);
  const bool resid = st.message() == kFullResid;
  const char* op = u.dir == kRead ? "read" : u.dir == kWrite ? "write" : trim ? "trim" : "sync";
  std::string line = "fio: io_u error on file " + host_.fs().file(files_[u.file].id).name + ": " +
                     what + ": " + op + " offset=" + std::to_string(u.offset) +
                     ", buflen=" + std::to_string(u.length);
  const ErrorPolicy& policy = spec_.opts.errors;
  const int type = ErrorPolicy::Type(u.dir, err);
  if (policy.NonFatal(type, err)) {
    // __io_u_log_error() says nothing of an error the job goes on after,
    // unless error_dump=1; the I/O counts no bytes.
    if (spec_.opts.error_dump && !resid) messages_.push_back(line);
    CountError(err);
    // engines/sync.c fio_io_end(): a synchronous engine sets the job's
    // error text itself (td_verror "xfer"); the error is cleared, the text
    // stays, and the report shows it with the first error's number.
    if (resid) {
      ts_.verror = std::string("file:backend.c:471, func=full resid, error=") + what;
    } else if (!eng_.async) {
      ts_.verror = std::string("file:engines/sync.c:126, func=xfer, error=") + what;
    }
    return;
  }
  // fill_device: a write's ENOSPC (or EDQUOT) ends the job, logged by
  // io_u.c __io_u_log_error() but then cleared: backend.c
  // break_on_this_error() / do_io() td_clear_error(), fio_mark_td_terminate().
  if (spec_.opts.fill_device && (err == ENOSPC || err == EDQUOT)) {
    messages_.push_back(line);
    Terminate();
    return;
  }
  failed_ = true;
  if (trim) {  // td_io_queue()'s td_verror(), before io_completed() logs anything
    if (policy.continue_mask & (1u << type)) CountError(err);
    ts_.error = err;
    ts_.verror = std::string("file:ioengines.c:399, func=td_io_queue, error=") + what;
    messages_.push_back("fio: pid=0, err=" + std::to_string(err) + "/" + ts_.verror);
    return;
  }
  if (!resid) messages_.push_back(line);
  // break_on_this_error(): an error of a type continue_on_error names, but
  // not in its list, is counted and ends the job.
  if (policy.continue_mask & (1u << type)) CountError(err);
  ts_.error = err;
  ts_.verror = resid ? std::string("file:backend.c:471, func=full resid, error=") + what
                     : std::string("file:io_u.c:1876, func=io_u error, error=") + what;
}

// create_on_open=1: a file the job reads was created empty when opened, and
// a read past its end returns nothing — backend.c do_io()'s "full resid",
// an EIO (fio's td_verror(td, EIO, "full resid")). An engine that does no
// I/O (null, filecreate & co.: FIO_FAKEIO) leaves no residual.
bool JobRunner::EmptyRead(const IoUnit& u) {
  if (!spec_.opts.create_on_open || eng_.no_io ||
      u.offset < host_.fs().file(files_[u.file].id).size)
    return false;
  RecordError(u, Status::IoError(std::string(kFullResid)));
  return true;
}

// A verify failure (EILSEQ): non-fatal with continue_on_error=verify (or
// all), when verify_fatal=1 still ends the job, without an error (fio's
// verify_io_u() fio_mark_td_terminate()).
bool JobRunner::VerifyErrorEndsJob() {
  const ErrorPolicy& policy = spec_.opts.errors;
  if (policy.NonFatal(ErrorPolicy::kVerifyType, EILSEQ)) {
    CountError(EILSEQ);
    if (spec_.opts.verify_fatal) Terminate();
    return false;
  }
  if (policy.continue_mask & (1u << ErrorPolicy::kVerifyType)) CountError(EILSEQ);
  return true;
}

}  // namespace storlab::fio
