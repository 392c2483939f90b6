// merge_blktrace_file, merge_blktrace_scalars and merge_blktrace_iters
// (iolog_read.h MergeBlktraces()) as fio 3.33 runs them: blktrace.c
// merge_blktrace_iologs(), called from init.c add_job() for each job (and
// each numjobs clone) whose merge_blktrace_file is set.
//
// fio 3.33 never merges. Its read_trace() reads each record with
// fread(&t, 1, sizeof(t), ...) where t is a pointer: 8 bytes into the
// pointer, then "fio: iolog short read" (8 < 48) and -1, for every blktrace
// (fixed upstream in 2026, commit c55d29ef, after 3.38). So real fio 3.33
// (checked: tests/workloads/fio_merge_blktrace_test.cc):
//   - scalars or iters listing a count of values (up to the first 0) other
//     than read_iolog's count of files: "fio: merge_blktrace_scalars(N) !=
//     nr_logs(M)", no merge, no file written, the job replays its list;
//   - else merge_blktrace_file is created empty (truncated) and the first
//     file of read_iolog decides: missing, "fio: could not open file: F"
//     and the job goes on; not a blktrace, "fio: file is not a blktrace: F"
//     and (its return 0 read by add_job() as a failure) the job is not
//     set up; a blktrace, "fio: iolog short read" and the job goes on;
//   - "going on" is replaying read_iolog's list as without the option (one
//     file per clone), not the merged file.
// Where fio 3.33 crashes (merge_blktrace_file cannot be created: setvbuf on
// a NULL FILE) storlab gives an error naming the file.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "sim/quoted.h"
#include "workloads/fio/iolog_read.h"

namespace storlab::fio {
namespace {

constexpr size_t kMergeListMax = 20;  // FIO_IO_U_LIST_MAX_LEN
constexpr size_t kBlkIoTrace = 48;    // sizeof(struct blk_io_trace)

// parse.c's FIO_OPT_FLOAT_LIST: ':'-separated floats (strtod's syntax),
// at most 20 (fio warns "the list exceeding max length 20" and keeps 20:
// here an error, as for percentile_list).
Status ParseMergeList(std::string_view value, std::vector<double>* out) {
  const std::string v(value);
  size_t start = 0;
  while (start <= v.size()) {
    const size_t colon = v.find(':', start);
    const std::string part = v.substr(start, colon == std::string::npos ? colon : colon - start);
    char* end = nullptr;
    errno = 0;
    const double d = part.empty() ? 0 : std::strtod(part.c_str(), &end);
    if (part.empty() || *end != '\0' || errno == ERANGE || d != d) {
      return Status::InvalidArgument(Quoted(part) +
                                     " is not a floating point value (a list is separated by ':')");
    }
    if (out->size() == kMergeListMax) return Status::InvalidArgument("at most 20 values");
    out->push_back(d);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return Status();
}

// blktrace.c init_merge_param_list(): the values up to the first 0 count;
// a count other than the files' (and not 0) is returned, 0 if it fits.
// The option's value was checked when it was set (CheckMergeList()).
size_t MergeListMismatch(const std::string& value, size_t nr_logs) {
  if (value.empty()) return 0;
  std::vector<double> values;
  (void)ParseMergeList(value, &values);
  size_t len = 0;
  for (double v : values) {
    if (v == 0.0) break;
    ++len;
  }
  return len && len != nr_logs ? len : 0;
}

}  // namespace

Status CheckMergeList(std::string_view value) {
  std::vector<double> values;
  return ParseMergeList(value, &values);
}

Status MergeBlktraces(const JobOptions& o, const std::vector<std::string>& names,
                      const std::string& job, std::vector<std::string>* notes) {
  const size_t nr_logs = names.size();
  const std::pair<const char*, const std::string*> lists[] = {
      {"merge_blktrace_scalars", &o.merge_blktrace_scalars},
      {"merge_blktrace_iters", &o.merge_blktrace_iters}};
  for (const auto& [name, value] : lists) {
    if (size_t len = MergeListMismatch(*value, nr_logs)) {
      notes->push_back("fio: " + std::string(name) + "(" + std::to_string(len) + ") != nr_logs(" +
                       std::to_string(nr_logs) + ")");
      return Status();
    }
  }
  const std::string& out = o.merge_blktrace_file;
  std::FILE* f = std::fopen(out.c_str(), "w");
  if (!f) {
    return Status::InvalidArgument(job + ": merge_blktrace_file: cannot create " + Quoted(out) +
                                   ": " + std::strerror(errno) + " (fio 3.33 crashes here)");
  }
  std::fclose(f);
  // The loop over read_iolog's files stops at the first: each outcome ends it.
  const std::string& first = names.front();
  std::ifstream in(first, std::ios::binary);
  if (!in) {
    notes->push_back("fio: could not open file: " + first);
    return Status();
  }
  std::string head(kBlkIoTrace, '\0');
  in.read(head.data(), static_cast<std::streamsize>(kBlkIoTrace));
  const auto got = static_cast<size_t>(in.gcount());
  bool swap = false;
  if (got != kBlkIoTrace || !IsBlktrace(head, &swap)) {
    if (got != kBlkIoTrace) notes->push_back("fio: short read on blktrace file");
    return Status::InvalidArgument(
        job + ": merge_blktrace_file: read_iolog's " + Quoted(first) +
        " is not a blktrace file (fio: file is not a blktrace: " + first + ")");
  }
  notes->push_back("fio: iolog short read");
  return Status();
}

}  // namespace storlab::fio
