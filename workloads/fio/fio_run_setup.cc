// FioRun's setup of a job's files (fio_run.h): fio's filesetup.c
// setup_files() and extend_file() — each file's size, where the job's I/O
// in it starts (get_start_offset()), and its creation, allocation and
// layout — run for every job before any starts, or, with
// create_serialize=0, by the job itself when its stonewall segment starts
// (backend.c thread_main()).
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sim/quoted.h"
#include "workloads/fio/engines.h"
#include "workloads/fio/fio_run.h"
#include "workloads/host/block_device.h"

namespace storlab::fio {
namespace {

// filesetup.c get_start_offset(): where the job's I/O in a file of
// `have` bytes (its size before the job extends it) starts. file_append:
// at a regular file's end. offset=N% and offset_increment=N% are percent
// of the file's size, and such an offset is aligned up to offset_align
// (not given: `min_bs`, fio's td_min_bs()).
uint64_t StartOffset(const JobSpec& spec, const std::string& path, uint64_t have, uint64_t min_bs) {
  const JobOptions& o = spec.opts;
  if (o.file_append && !IsBlockDevice(path)) return have;
  bool align = false;
  uint64_t increment = o.offset_increment;
  if (o.offset_increment_percent > 0) {
    increment = static_cast<uint64_t>(o.offset_increment_percent) * have / 100;
    align = true;
  }
  uint64_t offset = o.offset + spec.subjob * increment;
  if (o.offset_percent > 0) {
    offset = have * static_cast<uint64_t>(o.offset_percent) / 100 + spec.subjob * increment;
    align = true;
  }
  if (align) {
    const uint64_t a = o.offset_align ? o.offset_align : min_bs;
    offset = (offset / a + (offset % a != 0)) * a;
  }
  return offset;
}

}  // namespace

uint64_t FioRun::SmallestIo(const JobSpec& spec) {
  return std::max({spec.do_read ? spec.sizes[kRead].min : 0,
                   spec.do_write ? spec.sizes[kWrite].min : 0,
                   spec.do_trim ? spec.sizes[kTrim].min : 0});
}

Status FioRun::SetUpFiles(JobSpec& spec, SetUp* out) {
  ExtentFs& fs = host_.fs();
  const JobOptions& o = spec.opts;
  const uint64_t nfiles = spec.files.size();
  // The smallest I/O each direction needs room for (the bs= size when it
  // is fixed), and the smallest of all (fio's td_min_bs()).
  const uint64_t max_bs = SmallestIo(spec);
  uint64_t min_bs = UINT64_MAX;
  for (int d : {kRead, kWrite, kTrim}) {
    const bool uses = d == kRead ? spec.do_read : d == kWrite ? spec.do_write : spec.do_trim;
    if (uses) min_bs = std::min(min_bs, spec.sizes[d].min);
  }
  if (min_bs == UINT64_MAX) min_bs = max_bs;
  out->ids.clear();
  out->sizes.clear();
  out->offsets.clear();
  uint32_t extend_files = 0;
  uint64_t extend_bytes = 0;
  std::vector<size_t> to_extend;
  for (size_t i = 0; i < nfiles; ++i) {
    const std::string& path = spec.files[i];
    uint32_t id = fs.Lookup(path);
    uint64_t have = id ? fs.file(id).size : 0;
    // setup_files(): the job's I/O covers [offset, offset + io_size): size=
    // (per file) past the offset, extending the file; filesize= or the
    // file's own size up to its end.
    const uint64_t off = StartOffset(spec, path, have, min_bs);
    uint64_t want = spec.file_size && !o.filesize ? off + spec.file_size
                    : spec.file_size              ? spec.file_size
                                                  : have;
    if (want == 0) {
      out->no_size = true;
      return Status::InvalidArgument("job " + Quoted(spec.name) +
                                     ": need size= or filesize= (file " + Quoted(path) +
                                     " does not exist yet)");
    }
    if (off && want < off + max_bs) {  // setup_files(): err_offset
      return Status::InvalidArgument("job " + Quoted(spec.name) + ": offset " +
                                     std::to_string(off) + " leaves no room for I/O in file " +
                                     Quoted(path) + " (" + std::to_string(want) + " bytes)");
    }
    if (want < max_bs) {
      return Status::InvalidArgument("job " + Quoted(spec.name) + ": file " + Quoted(path) + " (" +
                                     std::to_string(want) + " bytes) is smaller than bs");
    }
    if (!id || have < want) {
      ++extend_files;
      extend_bytes += want;
      to_extend.push_back(i);
    }
    out->sizes.push_back(want);
    out->ids.push_back(id);
    out->offsets.push_back(off);
  }
  // filesetup.c extend_file(): a write that meets ENOSPC while laying a
  // file out stops the layout and fails the job (setup_files() returns
  // 1, thread_main() exits with td->error set).
  out->err = ENOSPC;
  if (extend_files && GetEngineModel(spec.engine).file_op == FileOp::kCreate) {
    // filesetup.c setup_files(): no extend for an FIO_DISKLESSIO engine;
    // filecreate creates each file when the job opens it. (The null
    // engine's files are still made here: storlab's iolog and reports
    // name them.)
  } else if (extend_files && o.create_on_open) {
    // filesetup.c setup_files(): create_on_open skips the extend; the
    // file is created (empty, costing no simulated time) when the job
    // opens it, its writes allocate as they go, its reads find nothing.
    for (size_t i : to_extend) {
      if (!out->ids[i]) out->ids[i] = fs.Create(spec.files[i]);
    }
  } else if (extend_files) {
    layout_.push_back({spec.name, extend_files, extend_bytes});
    // extend_file(): reads, and writes with overwrite=1, lay the file out
    // anew; writes without overwrite get a fresh file (fio unlinks it);
    // file_append does neither.
    const bool new_layout = spec.do_read || (spec.do_write && o.overwrite && !o.file_append);
    for (size_t i : to_extend) {
      const std::string& path = spec.files[i];
      if (!new_layout && spec.do_write && !o.file_append && out->ids[i]) {
        fs.Remove(out->ids[i]);
        out->ids[i] = 0;
      }
      // allow_file_create=0: open() without O_CREAT meets ENOENT; fio
      // says so, and the job's setup fails without an error number.
      if (!o.allow_file_create && !fs.Lookup(path)) {
        messages_.emplace_back("fio: file creation disallowed by allow_file_create=0");
        out->failed = true;
        out->err = 0;
        out->error.clear();
        break;
      }
      out->ids[i] = fs.Create(path);
      // filesetup.c fallocate_file(), fallocate=: native_fallocate()'s
      // failure is only a debug line, posix_fallocate()'s is logged;
      // truncate sets the size and allocates nothing, none does neither
      // (the job's writes allocate as they go).
      // fallocate_file(): nothing with fill_device.
      const std::string& mode = o.fill_device ? std::string("none") : o.fallocate;
      if (mode == "native" || mode == "posix" || mode == "1") {
        Status st = fs.Allocate(out->ids[i], out->sizes[i]);
        if (!st.ok() && mode != "native") {
          messages_.push_back(std::string("fio: posix_fallocate fails: ") +
                              std::strerror(st.code() == Status::Code::kNoSpace ? ENOSPC : EIO));
        }
      } else if (mode == "keep") {
        // FIO_FALLOCATE_KEEP_SIZE: a failure is the job's error.
        Status st = fs.AllocateKeepSize(out->ids[i], out->sizes[i]);
        if (!st.ok() && out->error.empty()) {
          const int err = st.code() == Status::Code::kNoSpace ? ENOSPC : EIO;
          out->error =
              std::string("file:filesetup.c:93, func=fallocate, error=") + std::strerror(err);
          out->err = err;
          out->failed = true;
          messages_.push_back("fio: pid=0, err=" + std::to_string(err) + "/" + out->error);
        }
      } else if (mode == "truncate") {
        fs.Truncate(out->ids[i], out->sizes[i]);
      }
      if (!new_layout) continue;
      // extend_file() then sets the size with ftruncate() before writing:
      // a layout stopped by ENOSPC leaves a file of full size whose tail
      // is a hole, which a later run takes as laid out and reads as zeros.
      // fill_device: no ftruncate(), the layout writes until ENOSPC and
      // stops there quietly; a job that does not write then does its
      // I/O over what was written (extend_file()).
      if (!o.fill_device) fs.Truncate(out->ids[i], out->sizes[i]);
      Status st = LayoutFile(spec, out->ids[i], out->sizes[i]);
      if (o.fill_device && st.code() == Status::Code::kNoSpace) {
        if (!spec.do_write) out->sizes[i] = std::min(out->sizes[i], fs.file(out->ids[i]).size);
        continue;
      }
      if (st.code() == Status::Code::kNoSpace) {
        messages_.emplace_back("fio: ENOSPC on laying out file, stopping");
        out->error =
            std::string("file:filesetup.c:240, func=write, error=") + std::strerror(ENOSPC);
        out->failed = true;
        messages_.push_back("fio: pid=0, err=" + std::to_string(ENOSPC) + "/" + out->error);
        break;
      }
      if (!st.ok()) return st.WithContext("laying out " + Quoted(path));
    }
  }
  if (!spec.io_size) {
    for (size_t i = 0; i < out->sizes.size(); ++i) {
      spec.io_size += out->sizes[i] - std::min(out->offsets[i], out->sizes[i]);
    }
  }
  return Status();
}

// Each job opens its files by name when it starts (filesetup.c
// td_io_open_file()): a file a later job's extend_file() unlinked and
// created again is the new one for the jobs before it too.
void FioRun::ReopenByName(const JobSpec& spec, SetUp* s) {
  for (size_t i = 0; i < s->ids.size(); ++i) {
    if (const uint32_t id = host_.fs().Lookup(spec.files[i])) s->ids[i] = id;
  }
}

// create_serialize=0 (backend.c thread_main()): the job's setup_files()
// when its stonewall segment starts, before any of the segment's jobs
// does I/O. A setup that fails is the job's error (fio's "NAME: you need
// to specify size=", err=22 from total_file_size); the others go on.
void FioRun::SetUpLate(size_t k) {
  JobSpec& spec = jobs_.jobs[k];
  JobRunner& r = *runners_[k];
  SetUp s;
  Status st = SetUpFiles(spec, &s);
  if (!st.ok()) {
    messages_.push_back(st.message());
    const std::string verror = std::string("file:filesetup.c:1155, func=") +
                               (s.no_size ? "total_file_size" : "setup_files") +
                               ", error=" + std::strerror(EINVAL);
    messages_.push_back("fio: pid=0, err=" + std::to_string(EINVAL) + "/" + verror);
    r.FailSetup(EINVAL, verror);
    return;
  }
  ReopenByName(spec, &s);
  r.SetFiles(s.ids, s.sizes, s.offsets, spec.io_size);
  if (s.failed) r.FailSetup(s.err, s.error);
}

}  // namespace storlab::fio
