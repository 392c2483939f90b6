// Fuzz target: fio job files and fio command lines (workloads/fio/job_file.h,
// options.h, job_spec.h).
//
// Input: a job file, or, when it starts with "--", a command line with one
// argument per line. Parsing and building the jobs must return jobs or an
// error (one that names the file, "fuzz.fio", for job files), never crash or
// hit undefined behaviour; errors quote the input only short and printable.
// Jobs that build must round-trip through the
// option echo (fio's "global options" / "job options"): the job file written
// back from the echo builds the same jobs (names, directions, block sizes,
// engine, depth, files, sizes, seeds, groups) with the same echo.
//
// `include` and ${VAR} find nothing: includes are looked up in a directory
// that does not exist and the environment is empty.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/fuzz/fuzz_check.h"
#include "workloads/fio/job_file.h"
#include "workloads/fio/job_spec.h"

namespace storlab::fio {
namespace {

constexpr std::string_view kLabel = "fuzz.fio";
constexpr std::string_view kDir = "/nonexistent/storlab-fuzz";

std::optional<std::string> NoEnv(const std::string&) { return std::nullopt; }

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    if (nl > start) out.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

// The jobs again, written from the echo: each raw entry in its place, with
// the echo's name and value when it had a value. (Options given without a
// value are not echoed -- fio does the same -- so they are copied as they
// were.) A job file for job-file input, a command line for a command line.
// Returns false if the echo does not match the entries one to one.
bool EchoInput(const std::vector<RawSection>& sections, const JobSet& set, bool command_line,
               std::string* out) {
  size_t next_job = 0;
  size_t g = 0;  // next entry of the global echo
  out->clear();
  for (const RawSection& sec : sections) {
    const std::vector<std::pair<std::string, std::string>>* echo = &set.global_echo;
    size_t* k = &g;
    size_t job_k = 0;
    if (sec.name != "global") {
      while (next_job < set.jobs.size() && !set.jobs[next_job].first_of_section) ++next_job;
      if (next_job == set.jobs.size()) return false;
      echo = &set.jobs[next_job++].opts.echo;
      k = &job_k;
    }
    if (!command_line) *out += "[" + sec.name + "]\n";
    for (const RawEntry& e : sec.entries) {
      std::string line = e.key;
      if (e.has_value) {
        if (*k >= echo->size()) return false;
        line = (*echo)[*k].first + "=" + (*echo)[*k].second;
        ++*k;
      }
      *out += (command_line ? "--" : "") + line + "\n";
    }
    if (echo != &set.global_echo && job_k != echo->size()) return false;
  }
  return g == set.global_echo.size();
}

// Whether every [global] section comes before the first job: the echo has
// one "global options" list, so globals between jobs cannot round-trip.
bool GlobalsFirst(const std::vector<RawSection>& sections) {
  bool job_seen = false;
  for (const auto& s : sections) {
    if (s.name != "global") {
      job_seen = true;
    } else if (job_seen) {
      return false;
    }
  }
  return true;
}

void CheckSameJobs(const JobSet& a, const JobSet& b, const std::string& file) {
  const std::string ctx = "\nthe echo:\n" + file;
  FUZZ_CHECK(a.jobs.size() == b.jobs.size(), "the echo builds " + std::to_string(b.jobs.size()) +
                                                 " jobs, not " + std::to_string(a.jobs.size()) +
                                                 ctx);
  FUZZ_CHECK(a.global_echo == b.global_echo, "the global echo changes" + ctx);
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    const JobSpec& x = a.jobs[i];
    const JobSpec& y = b.jobs[i];
    const std::string job = "job " + std::to_string(i) + " ('" + x.name + "'): ";
    FUZZ_CHECK(x.name == y.name, job + "name" + ctx);
    FUZZ_CHECK(x.opts.echo == y.opts.echo, job + "the echo changes" + ctx);
    FUZZ_CHECK(x.do_read == y.do_read && x.do_write == y.do_write && x.random == y.random &&
                   x.rwmixread == y.rwmixread,
               job + "the I/O pattern changes" + ctx);
    FUZZ_CHECK(x.max_bs(0) == y.max_bs(0) && x.max_bs(1) == y.max_bs(1),
               job + "block sizes change" + ctx);
    FUZZ_CHECK(x.engine == y.engine && x.iodepth == y.iodepth && x.direct == y.direct,
               job + "engine, depth or direct changes" + ctx);
    FUZZ_CHECK(x.rand_gen == y.rand_gen && x.rand_seed == y.rand_seed,
               job + "the random generator or seed changes" + ctx);
    FUZZ_CHECK(x.files == y.files && x.file_size == y.file_size && x.io_size == y.io_size,
               job + "files or sizes change" + ctx);
    FUZZ_CHECK(x.groupid == y.groupid && x.segment == y.segment &&
                   x.thread_number == y.thread_number && x.clone == y.clone,
               job + "groups, stonewall segments or numbering change" + ctx);
    FUZZ_CHECK(x.opts.runtime == y.opts.runtime && x.opts.time_based == y.opts.time_based &&
                   x.opts.ramp_time == y.opts.ramp_time && x.opts.loops == y.opts.loops &&
                   x.opts.end_fsync == y.opts.end_fsync && x.opts.rate == y.opts.rate &&
                   x.opts.rate_iops == y.opts.rate_iops && x.opts.thinktime == y.opts.thinktime,
               job + "timing options change" + ctx);
  }
}

}  // namespace
}  // namespace storlab::fio

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace storlab::fio;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool command_line = text.substr(0, 2) == "--";
  storlab::Result<std::vector<RawSection>> sections =
      command_line ? ParseCommandLine(Lines(text)) : ParseJobText(text, kLabel, kDir, NoEnv);
  if (!sections.ok()) {
    const std::string& msg = sections.status().message();
    FUZZ_CHECK(command_line || msg.find(kLabel) != std::string::npos,
               "a job-file error does not name the file: " + msg);
    FUZZ_CHECK_MESSAGE(msg);
    return 0;
  }
  auto set = BuildJobs(*sections, 1);
  if (!set.ok()) {
    FUZZ_CHECK(!set.status().message().empty(), "an error without a message");
    FUZZ_CHECK_MESSAGE(set.status().message());
    return 0;
  }
  if (!GlobalsFirst(*sections)) return 0;
  std::string again_text;
  FUZZ_CHECK(EchoInput(*sections, *set, command_line, &again_text),
             "the echo does not match the options given, one to one");
  auto again = command_line ? ParseCommandLine(Lines(again_text))
                            : ParseJobText(again_text, "echo.fio", kDir, NoEnv);
  FUZZ_CHECK(again.ok(), "the echo does not parse: " + again.status().ToString() + "\nthe echo:\n" +
                             again_text);
  auto set2 = BuildJobs(*again, 1);
  FUZZ_CHECK(set2.ok(),
             "the echo does not build: " + set2.status().ToString() + "\nthe echo:\n" + again_text);
  const std::string& file = again_text;
  CheckSameJobs(*set, *set2, file);
  return 0;
}
