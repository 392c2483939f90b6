// A job that replays a trace (iolog_read.h ApplyReplay()): what fio's
// init_iolog() and read_iolog() / read_blktrace() change in the job's
// options once the trace is loaded.
#include <algorithm>

#include "sim/quoted.h"
#include "workloads/fio/engines.h"
#include "workloads/fio/iolog_read.h"

namespace storlab::fio {
namespace {

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t c = s.find(':', start);
    std::string part = s.substr(start, c == std::string::npos ? c : c - start);
    if (!part.empty()) out.push_back(std::move(part));
    if (c == std::string::npos) break;
    start = c + 1;
  }
  return out;
}

bool Given(const JobOptions& o, std::string_view name) {
  return std::any_of(o.echo.begin(), o.echo.end(), [&](const auto& e) { return e.first == name; });
}

}  // namespace

Status ApplyReplay(JobSpec* j, const std::string& where, std::vector<std::string>* notes) {
  const JobOptions& o = j->opts;
  const std::string job = where + ": job " + Quoted(j->name);
  if (o.replay_align & (o.replay_align - 1)) {
    return Status::InvalidArgument(job + ": replay_align=" + std::to_string(o.replay_align) +
                                   " is not a power of 2");
  }
  const std::vector<std::string> names = SplitList(o.read_iolog);
  if (names.empty()) return Status::InvalidArgument(job + ": read_iolog= names no file");
  if (!o.merge_blktrace_file.empty()) RETURN_IF_ERROR(MergeBlktraces(o, names, job, notes));
  const std::string& path = names[static_cast<size_t>(j->clone) % names.size()];
  Result<ReplayTrace> r = LoadReplayTrace(path, o);
  if (!r.ok()) return r.status().WithContext(job);
  auto t = std::make_shared<ReplayTrace>(std::move(*r));
  j->files = t->files;
  j->random = false;
  j->do_read = t->ios[0] > 0;
  j->do_write = t->ios[1] > 0 || !j->do_read;
  j->rwmixread = j->do_read && j->do_write ? 50 : (j->do_read ? 100 : 0);
  for (int d = 0; d < 2; ++d) {
    if (!t->max_bs[d]) continue;
    j->sizes[d] = DirBlockSizes::Fixed(t->max_bs[d]);  // the trace's, not bsrange=
  }
  if (t->blktrace && !Given(o, "iodepth") && !o.read_iolog_chunked) {
    // read_blktrace(): the probed depth unless iodepth= was set; read in
    // chunks, it returns before it probes (real fio 3.33, libaio: a trace
    // of depth 4 replays at 4, chunked at 1).
    j->iodepth = t->depth;
    if (!GetEngineModel(j->engine).async) j->iodepth = 1;
  }
  uint64_t extent = 0;
  size_t far = 0;
  for (size_t f = 0; f < t->extent.size(); ++f) {
    if (t->extent[f] > extent) {
      extent = t->extent[f];
      far = f;
    }
  }
  if (j->file_size) {
    if (extent > j->file_size) {
      return Status::InvalidArgument(
          path + (t->blktrace ? ": blktrace record " : ":") + std::to_string(t->extent_where[far]) +
          ": I/O up to byte " + std::to_string(extent) + " of " + Quoted(t->files[far]) +
          " is past its size (" + std::to_string(j->file_size) + " bytes, from size=/filesize=)");
    }
  } else {
    const uint64_t bs = std::max(j->max_bs(0), j->max_bs(1));
    j->file_size = std::max((extent + 4095) / 4096 * 4096, (bs + 4095) / 4096 * 4096);
  }
  j->io_size = t->bytes;
  if (t->trims) {
    notes->push_back("storlab: " + path + ": " + std::to_string(t->trims) +
                     " trim entries are skipped (trim is not modelled)");
  }
  // fixup_options(): the recording is dropped (the CLI writes none).
  if (!o.write_iolog.empty() && j->first_of_section)
    notes->emplace_back("fio: read iolog overrides write_iolog");
  j->trace = std::move(t);
  return Status();
}

Status CheckReplayFits(const JobSpec& j, uint64_t capacity) {
  const ReplayTrace& t = *j.trace;
  const uint64_t total = j.file_size * j.files.size();
  if (total <= capacity) return Status();
  size_t far = 0;
  for (size_t f = 1; f < t.extent.size(); ++f) {
    if (t.extent[f] > t.extent[far]) far = f;
  }
  return Status::InvalidArgument(
      t.path + (t.blktrace ? ": blktrace record " : ":") + std::to_string(t.extent_where[far]) +
      ": I/O up to byte " + std::to_string(t.extent[far]) + " of " + Quoted(t.files[far]) +
      " is past the simulated device (" + std::to_string(capacity) + " bytes of file system; job " +
      Quoted(j.name) + " needs " + std::to_string(total) + ")");
}

}  // namespace storlab::fio
