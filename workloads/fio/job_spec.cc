#include "workloads/fio/job_spec.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "sim/quoted.h"
#include "sim/random.h"
#include "workloads/fio/fio_units.h"
#include "workloads/fio/iolog_read.h"
#include "workloads/fio/job_spec_fixup.h"

namespace storlab::fio {
namespace {

std::vector<std::string> SplitColons(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t c = s.find(':', start);
    std::string part = s.substr(start, c == std::string::npos ? c : c - start);
    if (!part.empty()) out.push_back(part);
    if (c == std::string::npos) break;
    start = c + 1;
  }
  return out;
}

std::string Join(const std::string& dir, const std::string& name) {
  if (dir.empty() || name[0] == '/') return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

// init.c make_filename(): the format with each of $jobname, $jobnum and
// $filenum (found case-insensitively, every occurrence, one keyword after
// the other) replaced; empty: fio's "$jobname.$jobnum.$filenum".
std::string FormatFilename(const std::string& format, const std::string& jobname, int64_t jobnum,
                           int64_t filenum) {
  if (format.empty()) return jobname + "." + std::to_string(jobnum) + "." + std::to_string(filenum);
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::pair<std::string, std::string> keywords[] = {{"$jobname", jobname},
                                                          {"$jobnum", std::to_string(jobnum)},
                                                          {"$filenum", std::to_string(filenum)}};
  std::string buf = format;
  for (const auto& [key, value] : keywords) {
    // fio searches from the start again after each replacement; a value
    // that holds its own keyword would loop there, so go on after it.
    size_t from = 0;
    for (;;) {
      size_t at = lower(buf).find(key, from);
      if (at == std::string::npos) break;
      buf.replace(at, key.size(), value);
      from = at + value.size();
    }
  }
  return buf;
}

// init.c wait_for_ok(): a job waits for an earlier job (one section, its
// clones aside), not for itself. `set` holds the jobs before this one.
Status CheckWaitFor(const JobSet& set, const JobOptions& o, const std::string& where) {
  if (o.wait_for.empty()) return Status();
  if (o.wait_for == o.name) {
    return Status::InvalidArgument(where + ": " + o.name +
                                   ": a job cannot wait for itself (wait_for=" + o.wait_for + ")");
  }
  int found = 0;
  for (const JobSpec& j : set.jobs) found += j.first_of_section && j.name == o.wait_for;
  if (found == 0) {
    return Status::InvalidArgument(where + ": " + o.name + ": waitee job " + o.wait_for +
                                   " unknown (it must come before the job that waits)");
  }
  if (found > 1) {
    return Status::InvalidArgument(where + ": " + o.name + ": multiple waitees " + o.wait_for +
                                   " found, please avoid duplicates when using wait_for option");
  }
  return Status();
}

}  // namespace

// What write buffers hold (io_buffers.h), as fio resolves its options:
// options.c str_buffer_compress_cb / str_buffer_pattern_cb, init.c
// fixup_options (buffer_compress_percentage=100 is zero_buffers, any other
// turns refill_buffers on) and setup_td_flags (scrambling unless
// zero_buffers was given), io_u.c get_io_u (no scrambling with compression
// or verify; refilling takes precedence).
BufferFill ResolveBufferFill(const JobSpec& j) {
  const JobOptions& o = j.opts;
  BufferFill f;
  f.min_write = j.sizes[1].min;  // writes
  f.compress_chunk = o.buffer_compress_chunk;
  f.pattern = j.buffer_pattern;
  f.refill = o.refill_buffers;
  const bool compress = o.buffer_compress_percentage >= 0;  // TD_F_COMPRESS
  // fill_io_buffer(): compression, else the pattern, else zeros, else random.
  const bool zero = o.zero_buffers || o.buffer_compress_percentage == 100;
  if (compress && o.buffer_compress_percentage > 0 && o.buffer_compress_percentage < 100) {
    f.kind = BufferFill::Kind::kCompress;
    f.compress_percent = static_cast<uint32_t>(o.buffer_compress_percentage);
    f.refill = true;
  } else if (!j.buffer_pattern.empty()) {
    f.kind = BufferFill::Kind::kPattern;
  } else if (zero) {
    f.kind = BufferFill::Kind::kZero;
  }
  // str_buffer_pattern_cb(): no scrambling, and refilled when the job
  // reads (its reads land in the same buffers).
  if (!j.buffer_pattern.empty()) f.refill = f.refill || compress || j.do_read;
  f.scramble = o.scramble_buffers && !o.zero_buffers && !compress && j.buffer_pattern.empty() &&
               j.verify == VerifyKind::kNone;
  // dedupe_percentage (str_dedupe_cb(): TD_F_COMPRESS, refill_buffers):
  // fill_io_buffer()'s chunked fill, with buffer_compress_percentage's P
  // or none.
  if (o.dedupe_percentage > 0) {
    f.kind = BufferFill::Kind::kCompress;
    f.compress_percent = static_cast<uint32_t>(std::max<int64_t>(o.buffer_compress_percentage, 0));
    f.refill = true;
    f.scramble = false;
    f.dedupe_percent = static_cast<uint32_t>(o.dedupe_percentage);
    f.dedupe_working_set = o.dedupe_mode == "working_set";
    if (f.min_write) {
      f.dedupe_pages =
          o.size * static_cast<uint64_t>(o.dedupe_working_set_percentage) / 100 / f.min_write;
    }
  }
  return f;
}

const char* EngineName(EngineKind e) {
  switch (e) {
    case EngineKind::kSync:
      return "sync";
    case EngineKind::kPsync:
      return "psync";
    case EngineKind::kLibaio:
      return "libaio";
    case EngineKind::kIoUring:
      return "io_uring";
    case EngineKind::kPosixaio:
      return "posixaio";
    case EngineKind::kNull:
      return "null";
    case EngineKind::kIoUringCmd:
      return "io_uring_cmd";
    case EngineKind::kFalloc:
      return "falloc";
    case EngineKind::kFtruncate:
      return "ftruncate";
    case EngineKind::kFileCreate:
      return "filecreate";
    case EngineKind::kFileStat:
      return "filestat";
    case EngineKind::kFileDelete:
      return "filedelete";
    case EngineKind::kVsync:
      return "vsync";
    case EngineKind::kPvsync:
      return "pvsync";
    case EngineKind::kPvsync2:
      return "pvsync2";
    case EngineKind::kMmap:
      return "mmap";
    case EngineKind::kSplice:
      return "splice";
  }
  return "?";
}

Nanos ExpectedTime(const JobSet& jobs) {
  std::map<int, Nanos> segments;
  std::vector<Nanos> ends;  // each job's, from its segment's start
  for (const auto& j : jobs.jobs) {
    // wait_for: the job starts when its waitee (same segment) has ended.
    Nanos begin = j.opts.startdelay;
    for (size_t w = 0; w < ends.size(); ++w) {
      const JobSpec& x = jobs.jobs[w];
      if (x.segment == j.segment && x.name == j.opts.wait_for) begin = Max(begin, ends[w]);
    }
    ends.push_back(begin + j.opts.ramp_time + j.opts.runtime);
    Nanos& s = segments[j.segment];
    s = Max(s, ends.back());
  }
  Nanos total;
  for (const auto& [segment, t] : segments) total = total + t;
  return total;
}

namespace {
constexpr int kMaxJobs = 4096;
constexpr uint64_t kMaxFiles = uint64_t{1} << 20;

// options.c gives kb_base, unit_base and cpus_allowed_policy .prio = 1:
// fio_options_parse()
// sorts a job file section's options so that they apply first (and are
// echoed first); a command line's apply in the order given
// (parse_cmd_line()).
std::vector<RawEntry> InPrioOrder(const RawSection& s) {
  std::vector<RawEntry> e = s.entries;
  if (s.where.rfind("command line", 0) == 0) return e;
  std::stable_partition(e.begin(), e.end(), [](const RawEntry& x) {
    return x.key == "kb_base" || x.key == "unit_base" || x.key == "cpus_allowed_policy";
  });
  return e;
}
}  // namespace

Result<JobSet> BuildJobs(const std::vector<RawSection>& sections, uint64_t run_seed) {
  JobSet set;
  JobOptions global;
  int groupid = 0, segment = 0, thread_number = 0, section_index = 0;
  int prev_group_jobs = 0;
  uint64_t total_files = 0;
  for (const RawSection& s : sections) {
    if (s.name == "global") {
      for (const RawEntry& e : InPrioOrder(s)) {
        RETURN_IF_ERROR(ApplyOption(&global, e.key, e.value, e.has_value, e.where));
      }
      continue;
    }
    JobOptions o = global;
    o.echo.clear();
    o.name = s.name;
    for (const RawEntry& e : InPrioOrder(s)) {
      RETURN_IF_ERROR(ApplyOption(&o, e.key, e.value, e.has_value, e.where));
    }
    if (o.name.empty()) {
      return Status::InvalidArgument(s.where + ": a job needs a name");
    }
    RETURN_IF_ERROR(CheckWaitFor(set, o, s.where));
    if ((o.stonewall || o.new_group) && prev_group_jobs) {
      prev_group_jobs = 0;
      ++groupid;
    }
    if (o.stonewall && thread_number > 0) ++segment;

    std::vector<std::string> dirs = SplitColons(o.directory);
    std::vector<std::string> explicit_files = SplitColons(o.filename);
    // fio stops at 4096 jobs (REAL_MAX_JOBS); the files of all jobs are
    // capped too, so a few lines cannot ask for millions of file names.
    if (thread_number + o.numjobs > kMaxJobs) {
      return Status::InvalidArgument(s.where + ": maximum number of jobs (" +
                                     std::to_string(kMaxJobs) + ") reached");
    }
    const uint64_t files_per_job =
        explicit_files.empty() ? static_cast<uint64_t>(o.nrfiles) : explicit_files.size();
    // init.c fixup_options(): block_error_percentiles keeps one file's blocks.
    if (o.block_error_percentiles && files_per_job != 1) {
      return Status::InvalidArgument(s.where + ": job " + Quoted(o.name) +
                                     ": block error histogram only available with a single file "
                                     "per job, but " +
                                     std::to_string(files_per_job) + " files provided");
    }
    total_files += files_per_job * static_cast<uint64_t>(o.numjobs);
    if (total_files > kMaxFiles) {
      return Status::InvalidArgument(s.where + ": more than " + std::to_string(kMaxFiles) +
                                     " files over all jobs (numjobs x nrfiles)");
    }
    for (int64_t clone = 0; clone < o.numjobs; ++clone) {
      JobSpec j;
      j.opts = o;
      j.name = o.name;
      j.section = section_index;
      j.clone = static_cast<int>(clone);
      j.thread_number = ++thread_number;
      j.groupid = groupid;
      j.segment = segment;
      j.first_of_section = clone == 0;
      // backend.c thread_main(): with cpus_allowed_policy=split a job keeps
      // one CPU of its set, the (thread_number - 1) % count-th
      // (options.c fio_cpus_split()).
      j.cpus = o.cpus;
      if (o.cpus_allowed_policy == "split" && !j.cpus.empty()) {
        j.cpus = {j.cpus[static_cast<size_t>(j.thread_number - 1) % j.cpus.size()]};
      }
      RETURN_IF_ERROR(FixupJob(j, s.where, &set.notes));
      // init.c add_job() numbers the clones of numjobs from the last down,
      // the job itself being subjob 0 (its first clone is subjob numjobs-1,
      // ...): that number (job_add_num) is $jobnum in its file names, picks
      // its directory (filesetup.c add_file(), set_name_idx()) and places
      // its offset (get_start_offset()). Real fio 3.33 with numjobs=3
      // names thread 2's file w.2.0.
      const uint64_t subjob = clone ? static_cast<uint64_t>(o.numjobs - clone) : 0;
      std::string dir = dirs.empty() ? "" : dirs[subjob % dirs.size()];
      if (!explicit_files.empty()) {
        // options.c str_filename_cb(): add_file(td, fname, 0, 1), the first
        // directory for every clone.
        for (const auto& f : explicit_files)
          j.files.push_back(Join(dirs.empty() ? "" : dirs[0], f));
      } else {
        for (int64_t f = 0; f < o.nrfiles; ++f) {
          j.files.push_back(Join(
              dir, FormatFilename(o.filename_format, o.name, static_cast<int64_t>(subjob), f)));
        }
      }
      // fio_ioring_cmd_open_file(): io_uring_cmd needs an NVMe generic char device.
      for (const std::string& f : j.files) {
        if (j.engine == EngineKind::kIoUringCmd && f.rfind("/dev/ng", 0) != 0) {
          return Status::InvalidArgument(s.where + ": job " + Quoted(j.name) + ": file " +
                                         Quoted(f) +
                                         ": ioengine=io_uring_cmd works on NVMe generic char "
                                         "devices (/dev/ngXnY) only");
        }
      }
      SizeFiles(j);
      // get_start_offset(): offset + subjob * offset_increment.
      constexpr uint64_t kMaxOffset = uint64_t{1} << 62;
      if (o.offset >= kMaxOffset ||
          (o.offset_increment && subjob > (kMaxOffset - o.offset) / o.offset_increment)) {
        return Status::InvalidArgument(s.where + ": job " + Quoted(j.name) +
                                       ": offset + offset_increment * job number is past 4 EiB");
      }
      j.file_offset = o.offset + subjob * o.offset_increment;
      j.subjob = subjob;
      if (!o.read_iolog.empty()) RETURN_IF_ERROR(ApplyReplay(&j, s.where, &set.notes));
      j.verify = VerifyKindFromName(o.verify);
      FixupVerify(j);
      RETURN_IF_ERROR(CheckVerifyOffset(j, s.where));
      if (!o.verify_pattern.empty()) {
        ASSIGN_OR_RETURN(j.verify_pattern, ParseVerifyPattern(o.verify_pattern, s.where));
      }
      if (j.verify == VerifyKind::kPattern && j.verify_pattern.empty()) {
        return Status::InvalidArgument(s.where + ": verify=pattern needs a verify_pattern");
      }
      j.fill = ResolveBufferFill(j);
      // Offsets repeat run after run (randrepeat=1, fio's default) from the
      // job's number alone, as fio seeds them; randrepeat=0 takes them from
      // --seed instead, so they change when the seed does.
      uint64_t base = o.randseed ? static_cast<uint64_t>(o.randseed)
                                 : (o.randrepeat ? 0x5eedf10ULL : run_seed ^ 0x9e3779b97f4a7c15ULL);
      // allrandrepeat=1 (init.c td_fill_rand_seeds()): every seed is
      // FIO_RANDSEED * thread_number + i, over randseed= too; with
      // randrepeat=1 the offsets' seed is then set as without it, with
      // randrepeat=0 it is another fixed one (real fio 3.33: the same
      // offsets run after run, not randrepeat=1's).
      if (o.allrandrepeat) base = o.randrepeat ? 0x5eedf10ULL : 0xa115eedf10ULL;
      j.rand_seed = base ^ Random::Fnv1a("job#" + std::to_string(j.thread_number));
      set.jobs.push_back(std::move(j));
      ++prev_group_jobs;
    }
    ++section_index;
  }
  // backend.c init_global_dedupe_working_set_seeds(): dedupe_global jobs
  // take their working set from every job's buffers in turn.
  std::vector<uint64_t> seeds;
  for (const JobSpec& j : set.jobs) seeds.push_back(j.rand_seed);
  for (size_t i = 0; i < set.jobs.size(); ++i) {
    BufferFill& f = set.jobs[i].fill;
    if (!set.jobs[i].opts.dedupe_global || !f.dedupe_working_set) continue;
    f.dedupe_seeds = seeds;
    f.dedupe_index = i;
  }
  set.global_echo = global.echo;
  if (set.jobs.empty())
    return Status::InvalidArgument("no jobs given (use --name=... or a job file)");
  return set;
}

}  // namespace storlab::fio
