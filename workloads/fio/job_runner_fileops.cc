// JobRunner's file system engines (job_runner.h, engines.h): falloc and
// ftruncate, whose every I/O is one call on the simulated file system, and
// filecreate, filestat and filedelete, whose call is made when the job opens
// a file. Each call costs the engine's measured time on the job's thread and
// does no device I/O (the simulated file system writes no metadata); and
// fadvise_hint's advice on each file a job opens.
#include <cerrno>
#include <cstring>
#include <string>

#include "sim/layers/page_cache/page_cache.h"
#include "sim/round.h"
#include "workloads/fio/job_runner.h"
#include "workloads/host/block_device.h"

namespace storlab::fio {
namespace {

// fileoperations.c stat_file()'s error text: "type=%u", FIO_FILESTAT_*.
std::string StatType(const std::string& t) {
  return t == "lstat" ? " type=2" : t == "statx" ? " type=3" : " type=1";
}

}  // namespace

// init.c fixup_options(): openfiles= 0 or more than the job's files is all
// of them.
size_t JobRunner::OpenLimit(const JobSpec& spec, size_t files) {
  const auto want = static_cast<uint64_t>(spec.opts.openfiles);
  return want == 0 || want > files ? files : static_cast<size_t>(want);
}

// unlink=1: filesetup.c close_and_free_files() unlinks the job's regular
// files (td_io_unlink_file()) when it has completed; devices stay.
void JobRunner::UnlinkFiles() {
  ExtentFs& fs = host_.fs();
  for (const std::string& name : spec_.files) {
    if (IsBlockDevice(name)) continue;
    if (uint32_t id = fs.Lookup(name)) fs.Remove(id);
  }
}

// unlink_each_loop: backend.c thread_main() calls unlink_all_files()
// before each loop after the first; the loop's td_io_open_file() then
// opens each file again, O_CREAT for a job that writes (an empty file, no
// layout: its writes allocate as they go), without it for one that only
// reads, which fails with ENOENT: the job's error, as in fio 3.33. Returns
// false when the job failed.
bool JobRunner::UnlinkEachLoop() {
  ExtentFs& fs = host_.fs();
  for (size_t i = 0; i < files_.size(); ++i) {
    FileState& f = files_[i];
    const std::string& name = spec_.files[i];
    if (IsBlockDevice(name)) continue;
    if (const uint32_t id = fs.Lookup(name)) fs.Remove(id);
    if (spec_.do_write && spec_.opts.allow_file_create) {
      f.id = fs.Create(name);
      continue;
    }
    failed_ = true;
    ts_.error = ENOENT;
    ts_.verror = "file:filesetup.c:805, func=open(" + name + "), error=" + std::strerror(ENOENT);
    messages_.push_back("fio: pid=0, err=" + std::to_string(ENOENT) + "/" + ts_.verror);
    return false;
  }
  return true;
}

// pre_read (filesetup.c pre_read_file()): the job's thread reads each
// file's I/O range, [start, end), with read()s of the largest read size on
// its own fd (buffered unless direct=1, which reads it and caches
// nothing), one after another, before the job begins.
void JobRunner::PreRead(size_t file, uint64_t done_bytes, Nanos t) {
  if (file == files_.size() || terminated_) {
    pre_read_state_ = 2;
    host_.engine().At(t, [this] { Begin(); });
    return;
  }
  const FileState& f = files_[file];
  const uint64_t left = f.size > f.start ? f.size - f.start - done_bytes : 0;
  if (left == 0 || eng_.file_op != FileOp::kNone) {
    PreRead(file + 1, 0, t);
    return;
  }
  const uint64_t len = std::min(left, spec_.max_bs(kRead));
  // Its CPU time is not the job's: fio takes ru_start after pre_read_files().
  Nanos call = Book(t, psync_.submit);
  host_.engine().At(call, [this, file, done_bytes, len] {
    host_.FileIo(files_[file].id, Op::kRead, files_[file].start + done_bytes, len, spec_.direct,
                 [this, file, done_bytes, len](Status st) {
                   Nanos back = Book(host_.engine().now(), psync_.complete);
                   if (!st.ok()) {  // td_verror(td, EIO, "pre_read")
                     PreRead(file + 1, 0, back);
                     return;
                   }
                   PreRead(file, done_bytes + len, back);
                 });
  });
}

// engines/falloc.c fio_fallocate_queue(): a read is fallocate(KEEP_SIZE), a
// write fallocate(0), a trim fallocate(PUNCH_HOLE | KEEP_SIZE), each over
// [offset, offset + buflen). engines/ftruncate.c fio_ftruncate_queue(): a
// write is ftruncate(fd, offset), anything else EINVAL. Both complete inside
// the queue call (FIO_SYNCIO, FIO_Q_COMPLETED).
void JobRunner::SubmitFileOp(IoUnit* u, Completion done) {
  ExtentFs& fs = host_.fs();
  const uint32_t id = files_[u->file].id;
  const uint64_t end = u->offset + u->length;
  Status st;
  Nanos cost = eng_.op;
  if (eng_.file_op == FileOp::kFtruncate) {
    if (u->dir == kWrite) {
      fs.Truncate(id, u->offset);
    } else {
      st = Status::InvalidArgument("ftruncate: not a write");
    }
  } else if (u->dir == kRead || u->dir == kWrite) {
    st = fs.AllocateRange(id, u->offset, end, /*keep_size=*/u->dir == kRead);
  } else if (u->dir == kTrim) {
    // The whole blocks inside the range are freed (partial ones are zeroed
    // in place: no allocation changes). Without the discard mount option
    // the freed blocks are not discarded on the device.
    const uint64_t bs = fs.block_size();
    const uint64_t b0 = RoundUp(u->offset, bs), b1 = RoundDown(end, bs);
    if (b0 < b1) {
      std::vector<std::pair<uint64_t, uint64_t>> freed;
      fs.Punch(id, b0, b1, &freed);
    }
    cost = eng_.op_trim;
  } else {
    st = Status::InvalidArgument("fallocate: empty range");  // DDIR_SYNC: buflen 0
  }
  const Nanos at = Book(host_.engine().now(), cost);
  sys_ns_ += cost;
  host_.engine().At(at, [done = std::move(done), st = std::move(st)]() mutable { done(st); });
}

// ioengines.c td_io_open_file(): fadvise_hint's posix_fadvise() on a file
// or block device as it opens (engines/mmap.c's madvise() of the mapping
// has the same effect on its faults: VM_RAND_READ reads no more than the
// page, VM_SEQ_READ a window of the file's ra_pages).
void JobRunner::Advise(size_t idx) {
  const std::string& hint = spec_.opts.fadvise_hint;
  PageCache* cache = host_.page_cache();
  if (hint == "0" || !cache || files_[idx].id == 0) return;
  const bool random = hint == "random" || (hint == "1" && spec_.random);
  cache->Advise(files_[idx].id,
                random ? PageCache::Advice::kRandom : PageCache::Advice::kSequential);
}

// The files the last pick opened (td_io_open_file() in get_next_file()):
// filecreate, filestat and filedelete make their call, moving `*t` on.
// False when one failed: the job stops.
bool JobRunner::OpenPicked(Nanos* t) {
  for (size_t idx : opened_now_) Advise(idx);
  if (eng_.op_on_open()) {
    for (size_t idx : opened_now_) *t = OpenFileOp(idx, *t);
  }
  opened_now_.clear();
  if (!failed_) return true;
  StopIssuing();
  return false;
}

// engines/fileoperations.c open_file() (filecreate: open(O_CREAT | O_RDWR)),
// stat_file() (filestat: stat(), lstat() or statx()) and delete_file()
// (filedelete: unlink()), called by td_io_open_file() when the job opens a
// file: the call's time is a clat sample of the job's direction
// (add_clat_sample(), data->stat_ddir: read if the job reads, else write),
// unless disable_lat. A failure is the job's error (td_verror). Returns when
// the thread is free again.
Nanos JobRunner::OpenFileOp(size_t idx, Nanos t) {
  ExtentFs& fs = host_.fs();
  FileState& f = files_[idx];
  const std::string& name = spec_.files[idx];
  const uint32_t id = fs.Lookup(name);
  const Nanos end = Book(t, eng_.op);
  sys_ns_ += eng_.op;
  const char* func = "open";
  int line = 91;
  bool missing = false;
  switch (eng_.file_op) {
    case FileOp::kCreate:
      f.id = id ? id : fs.Create(name);
      break;
    case FileOp::kStat:
      func = "stat";
      line = 162;
      missing = id == 0;
      break;
    case FileOp::kDelete:
      func = "delete";
      line = 205;
      missing = id == 0;
      if (id) fs.Remove(id);
      break;
    default:
      break;
  }
  if (missing) {
    failed_ = true;
    ts_.error = ENOENT;
    ts_.verror = "file:engines/fileoperations.c:" + std::to_string(line) + ", func=" + func + "(" +
                 name + ")" +
                 (eng_.file_op == FileOp::kStat ? StatType(spec_.opts.stat_type) : "") +
                 ", error=" + std::strerror(ENOENT);
    messages_.push_back("fio: pid=0, err=" + std::to_string(ENOENT) + "/" + ts_.verror);
    return end;
  }
  if (!spec_.opts.disable_lat) {
    ts_.dir[spec_.do_read ? kRead : kWrite].clat.Add(static_cast<uint64_t>(eng_.op.count()));
  }
  return end;
}

}  // namespace storlab::fio
