// JobRunner's end of I/O (job_runner.h): what fio 3.33's do_io() does once
// the last I/O completed — the trim verify list's leak message, then
// end_fsync / fsync_on_close, one fsync(2) per file by the job's thread —
// before the final figures (job_runner.cc Finish()).
#include <string>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

void JobRunner::FinishIo(Nanos t) {
  extras_.io_end = t;
  // backend.c do_io(): blocks left on the trim verify list.
  if (!verifying_ && vlog_.trims.entries()) {
    messages_.push_back("fio: " + std::to_string(vlog_.trims.entries()) + " trim entries leaked?");
  }
  const bool writes = spec_.do_write;
  // backend.c do_io(): `end_fsync || fsync_on_close` fsyncs every file; the
  // close that follows skips its own fsync (should_fsync(): last_was_sync).
  const bool fsync = spec_.opts.end_fsync || spec_.opts.fsync_on_close;
  if (fsync && writes && !failed_ && !eng_.no_io && !verifying_ && !spec_.opts.verify_only) {
    phase_ = Phase::kFsyncing;
    FsyncNext(0, t);
    return;
  }
  Finish(t);
}

// end_fsync: fsync(2) of each file in turn, by the job's thread.
void JobRunner::FsyncNext(size_t index, Nanos t) {
  if (index == files_.size()) {
    extras_.end_fsync = t - extras_.io_end;
    Finish(t);
    return;
  }
  Nanos call = Book(t, psync_.submit);
  sys_ns_ += psync_.submit;
  auto go = [this, index] {
    host_.Fsync(files_[index].id, spec_.direct, [this, index](Status st) {
      if (!st.ok() && !failed_) {
        messages_.push_back("fio: end_fsync failed for file " +
                            host_.fs().file(files_[index].id).name);
      }
      Nanos back = Book(host_.engine().now(), psync_.complete);
      sys_ns_ += psync_.complete;
      FsyncNext(index + 1, back);
    });
  };
  host_.engine().At(call, std::move(go));
}

}  // namespace storlab::fio
