// JobRunner's trace replay (read_iolog, iolog_read.h) and recording
// (write_iolog, iolog_write.h).
#include "workloads/fio/iolog_read.h"
#include "workloads/fio/job_runner.h"

namespace storlab::fio {
namespace {

uint64_t Usec(Nanos d) { return static_cast<uint64_t>(d.count()) / 1000; }

// Delays saturate here (73 years), so a hostile timestamp cannot overflow
// the clock.
constexpr uint64_t kMaxDelayNs = uint64_t{1} << 61;

Nanos Scaled(uint64_t v, uint64_t unit_ns) {
  return Nanos(static_cast<int64_t>(v > kMaxDelayNs / unit_ns ? kMaxDelayNs : v * unit_ns));
}

}  // namespace

// The next entry to issue, as fio's read_iolog_get() walks io_log_list:
// file actions (ipo_special()) and waits are done here; an I/O or sync is
// due `delay` after the previous issue (iolog_delay(): the delay counts from
// td->last_issue), a v2 "wait" at its milliseconds since the start. False
// when the trace is over.
bool JobRunner::ReplayNext(Nanos t, int* dir, Nanos* due) {
  const ReplayTrace& tr = *spec_.trace;
  while (replay_pos_ < tr.entries.size()) {
    const ReplayEntry& e = tr.entries[replay_pos_];
    *due = e.kind == ReplayEntry::kWait ? extras_.start + Scaled(e.delay_us, 1000000)
                                        : replay_last_issue_ + Scaled(e.delay_us, 1000);
    if (*due > t) return true;
    *due = t;
    switch (e.kind) {
      case ReplayEntry::kFileAction:
        replay_last_issue_ = t;  // ipo_special() takes the issue time
        ++replay_pos_;
        continue;
      case ReplayEntry::kWait:
      case ReplayEntry::kTrim:  // not modelled (a note says so)
        ++replay_pos_;
        continue;
      case ReplayEntry::kSync:
      case ReplayEntry::kDatasync:
        *dir = kSync;
        return true;
      case ReplayEntry::kRead:
        *dir = kRead;
        return true;
      case ReplayEntry::kWrite:
        *dir = kWrite;
        return true;
    }
  }
  return false;
}

void JobRunner::ReplayIssue(int dir, Nanos t) {
  if (dir == kSync) {
    last_write_file_ = spec_.trace->entries[replay_pos_].file;
    ++replay_pos_;
  }
  Issue(dir, t);
  replay_last_issue_ = t;
}

bool JobRunner::ReplayPick(IoUnit* u) {
  const ReplayTrace& tr = *spec_.trace;
  if (replay_pos_ >= tr.entries.size()) return false;
  const ReplayEntry& e = tr.entries[replay_pos_++];
  u->file = e.file;
  u->offset = e.offset;
  u->length = e.length;
  return true;
}

// init_iolog_write() logs every file ("add"), the first open logs "open".
void JobRunner::IologOpen() {
  for (const FileState& f : files_) iolog_->File(0, host_.fs().file(f.id).name, "add");
  for (const FileState& f : files_) iolog_->File(0, host_.fs().file(f.id).name, "open");
}

// log_io_u(), from td_io_queue(): the I/O as it is queued.
void JobRunner::IologIo(const IoUnit& u) {
  const FileState& f = files_[u.file];
  const std::string& name = host_.fs().file(f.id).name;
  const uint64_t us = Usec(u.start - extras_.start);
  if (u.dir == kSync) {
    iolog_->Io(us, name, spec_.opts.fdatasync_blocks ? "datasync" : "sync", iolog_offset_, 0);
  } else {
    static const char* const kDdir[] = {"read", "write", "trim"};
    iolog_->Io(us, name, kDdir[u.dir], u.offset, u.length);
    iolog_offset_ = u.offset;
  }
}

void JobRunner::IologClose(Nanos t) {
  for (const FileState& f : files_) {
    iolog_->File(Usec(t - extras_.start), host_.fs().file(f.id).name, "close");
  }
}

}  // namespace storlab::fio
