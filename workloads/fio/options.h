// The fio options `storlab sim` understands: one table entry per option
// (name, alias, type, default, range, allowed values, help), as in fio's
// options.c. The table drives parsing, `--cmdhelp`, and the "job options" /
// "global options" echo of the JSON output. An option not in the table is an
// error that names it; so is a value outside its type or range.
//
// JobOptions holds the values as fio would after parsing (before numjobs
// clones are made); job_spec.h turns them into what the runner needs.
// Thread-safe (the table is immutable).
#ifndef STORLAB_WORKLOADS_FIO_OPTIONS_H_
#define STORLAB_WORKLOADS_FIO_OPTIONS_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "sim/status.h"
#include "sim/time.h"
#include "workloads/fio/error_policy.h"
#include "workloads/fio/fio_units.h"

namespace storlab::fio {

// Per data direction (read, write, trim), as fio's "bs=4k,64k" gives them.
using DirValues = std::array<uint64_t, 3>;

// A write_*_log option: given or not, and the log's file name prefix ("":
// the job's name, fio's make_log_name()).
struct LogFile {
  bool on = false;
  std::string prefix;
};

struct JobOptions {
  std::string name;
  std::string description;
  std::string rw = "read";
  std::string rw_postfix;  // "write:112k" → "112k", "randread:8" → "8" (fio's str_rw_cb)
  // rw_sequencer: between rw=randread:8's random offsets, go on from the
  // last I/O (sequential) or repeat its offset (identical; io_u.c
  // get_next_block()).
  std::string rw_sequencer = "sequential";
  int64_t rwmixread = 50;
  DirValues bs = {4096, 4096, 4096};
  uint64_t size = 0;         // bytes of I/O per job (0: the file's size)
  int64_t size_percent = 0;  // size=N%: percent of the file system
  uint64_t filesize = 0;     // size of each file (0: size)
  // offset=, offset_increment=: where in each file a job's I/O starts
  // (job_spec.cc, fio_run.cc; fio's filesetup.c get_start_offset()).
  uint64_t offset = 0, offset_increment = 0;
  // offset=N%, offset_increment=N% (options.c str_offset_cb,
  // str_offset_increment_cb): percent of each file's size, -1 when not
  // given; such an offset is aligned up to offset_align (0: the smallest
  // block size).
  int64_t offset_percent = -1, offset_increment_percent = -1;
  uint64_t offset_align = 0;
  bool file_append = false;  // the I/O starts at each file's end (get_start_offset())
  uint64_t io_size = 0;      // bytes of I/O per loop, wrapping over the files (0: size)
  int64_t number_ios = 0;    // stop after this many I/Os (0: no limit)
  bool create_only = false;  // lay the files out, do no I/O
  DirValues ba = {0, 0, 0};  // blockalign: random offsets' alignment (0: the smallest size)
  std::string bsrange;       // block_sizes.h; "" when not given
  std::string bssplit;
  bool bs_unaligned = false;  // sizes drawn from bsrange/bssplit not aligned to the smallest
  int64_t nrfiles = 1;
  int64_t numjobs = 1;
  int64_t iodepth = 1;
  // io_u queueing (option_table_io.cc): 0 means fio's fixup default.
  int64_t iodepth_batch = 1;               // submit this many at once
  int64_t iodepth_batch_complete_min = 1;  // reap at least this many
  int64_t iodepth_batch_complete_max = 0;  // and at most this many
  int64_t iodepth_low = 0;                 // after the queue was full, refill below this
  std::string ioengine = "psync";
  bool direct = false;
  Nanos runtime;  // 0: none
  bool time_based = false;
  Nanos ramp_time;
  Nanos startdelay;
  int64_t loops = 1;
  bool end_fsync = false;
  // fsync_on_close: fsync each file when it is closed (filesetup.c
  // td_io_close_file(); option_table_sync.cc). create_fsync: fsync a file
  // after laying it out (filesetup.c extend_file()).
  bool fsync_on_close = false;
  bool create_fsync = true;
  // max_latency=R,W,T (µs): an I/O later than this ends the job with
  // ETIMEDOUT (io_u.c account_io_completion(), lat_fatal()); 0: none.
  DirValues max_latency_ns = {0, 0, 0};
  // serialize_overlap: an I/O overlapping one in flight waits for it
  // (backend.c io_u_submit(); job_runner_overlap.cc).
  bool serialize_overlap = false;
  int64_t fsync_blocks = 0;
  int64_t fdatasync_blocks = 0;
  std::string sync_file_range;  // FLAG[,FLAG...][:N] (job_spec_fixup.cc); "": none
  std::string directory;
  std::string filename;
  std::string opendir;  // every file below it in the simulated file system (opendir.h)
  bool overwrite = false;
  bool invalidate = true;
  bool group_reporting = false;
  bool randrepeat = true;
  // allrandrepeat: every generator seeded from the job's number alone
  // (init.c td_fill_rand_seeds()), whatever randseed= and --seed say.
  bool allrandrepeat = false;
  int64_t randseed = 0;  // 0: derived (see job_spec.h)
  std::string random_generator = "tausworthe";
  bool norandommap = false;
  // percentage_random=R,W,T: the share of a random job's I/Os that take a
  // random offset; the others go on sequentially (io_u.c should_do_random()).
  DirValues percentage_random = {100, 100, 100};
  std::string random_distribution = "random";  // rand_dist.h
  int64_t tiobench_threads = 0;  // "threads": the tiobench profile's, no effect (as in fio)
  // The tiobench profile's block, numruns and dir (profile_tiobench.cc: no
  // effect, as in fio 3.33), and profile= (stored, read by nothing in fio
  // 3.33: only the command line's --profile runs a profile).
  int64_t tiobench_block = 4096, tiobench_numruns = 0;
  std::string tiobench_dir, profile;
  std::string verify = "0";
  // Verification (option_table_verify.cc, verify.h).
  std::string verify_pattern;
  bool do_verify = true;
  bool verify_fatal = false;
  // option_table_verify.cc: a header every N bytes (0: fio's default, the
  // block size), verify every N blocks written, that many at a time, and
  // dump a failed block's data.
  uint64_t verify_interval = 0, verify_backlog = 0;
  int64_t verify_backlog_batch = 0;
  bool verify_dump = false;
  // verify_state_save / verify_state_load: a state file when the job ends,
  // and one read back to stop the verification by (verify_state.h).
  bool verify_state_save = true, verify_state_load = false;
  // experimental_verify: the verify pass goes over the writes (and trims)
  // again, without a history of the blocks (job_runner_verify.cc).
  bool experimental_verify = false;
  int64_t verify_offset = 0;  // the header that far into its block (verify.c populate_hdr())
  // Trim verify (verify_trims.h): trim_percentage of the blocks written are
  // trimmed, trim_backlog_batch at a time every trim_backlog blocks, and
  // read back as zeros (trim_verify_zero) or not verified.
  int64_t trim_percentage = 0, trim_backlog_batch = 0;
  uint64_t trim_backlog = 0;
  bool trim_verify_zero = true;
  // verify_only: a writing job does not write; it goes through its writes
  // (fio's do_dry_run()) and verifies what is there (job_runner_verify.cc).
  bool verify_only = false;
  // verify_async=N: N verifier threads check reads (job_runner_verify.cc).
  int64_t verify_async = 0;
  Nanos thinktime;
  int64_t thinktime_blocks = 1;
  // backend.c handle_thinktime(): spin (CPU busy) this much of each
  // thinktime; count blocks completed or issued; or think after this much
  // I/O time (0: off), then blocks only if thinktime_blocks was given.
  Nanos thinktime_spin, thinktime_iotime;
  std::string thinktime_blocks_type = "complete";  // complete | issue
  bool thinktime_blocks_set = false;
  // flow.c: jobs of one flow_id issue I/O in the ratio of their flow
  // weights; a job held back sleeps flow_sleep µs (0: spins).
  int64_t flow_id = 0;
  int64_t flow = 0;  // weight; 0: not in a flow
  int64_t flow_sleep = 0;
  DirValues rate = {0, 0, 0};  // bytes per second
  DirValues rate_iops = {0, 0, 0};
  std::string rate_process = "linear";  // linear | poisson (backend.c usec_for_io)
  bool rate_ignore_thinktime = false;   // thinktime counts as I/O at the rate
  // latency_target (option_table_io.cc, latency_target.h): 0 off.
  Nanos latency_target, latency_window;
  std::vector<double> latency_percentile = {100.0};
  bool latency_run = false;
  DirValues rate_min = {0, 0, 0};       // bytes per second a job must keep (fio's ratemin)
  DirValues rate_iops_min = {0, 0, 0};  // IOPS a job must keep
  int64_t ratecycle = 1000;             // ms over which rate_min is measured
  bool exitall = false;                 // any job's: every job ends others as exit_what says
  std::string exit_what = "group";      // group | stonewall | all
  bool exitall_on_error = false;
  bool stonewall = false;
  bool new_group = false;
  std::string wait_for;         // start when every job of this name has exited ("": at once)
  std::string filename_format;  // fio's make_filename() ("": $jobname.$jobnum.$filenum)
  bool thread = false;
  // Logs and percentiles (option_table_stat.cc).
  LogFile bw_log, lat_log, iops_log, hist_log;
  int64_t log_avg_msec = 0;
  int64_t log_hist_msec = 0;
  int64_t log_hist_coarseness = 0;
  bool log_max_value = false;
  bool log_offset = false;
  bool log_prio = false;
  bool per_job_logs = true;
  // log_entries: the first chunk of a log's samples (stat.c get_new_log());
  // no effect on what is logged. allow_mounted_write: fio refuses writes to
  // a mounted block device without it (backend.c check_mount_writes());
  // no simulated device is mounted.
  int64_t log_entries = 1024;
  bool allow_mounted_write = false;
  std::string lockfile = "none";   // none | exclusive | readwrite (file_locks.h)
  std::string fadvise_hint = "1";  // 0 | 1 | random | sequential (job_runner_fileops.cc)
  bool gtod_reduce = false;        // sets the four below
  bool disable_lat = false, disable_clat = false, disable_slat = false, disable_bw = false;
  bool clat_percentiles = true;
  bool lat_percentiles = false;
  bool slat_percentiles = false;
  std::vector<double> percentile_list;   // empty: fio's default list
  int64_t percentile_precision = 2;      // decimals the list was written with
  bool block_error_percentiles = false;  // block_infos.h
  // Trace replay and recording (option_table_iolog.cc).
  std::string read_iolog, write_iolog, replay_redirect;
  bool replay_no_stall = false;
  int64_t replay_scale = 1;         // offsets divided by this (0: as 1)
  int64_t replay_align = 0;         // offsets rounded down to this power of 2
  int64_t replay_time_scale = 100;  // percent: 200 replays twice as fast
  // replay_skip=read,write,trim,sync: a blktrace's events of those kinds
  // are not replayed (blktrace.c; a text iolog ignores it, as in fio).
  std::string replay_skip;
  // read_iolog_chunked: fio reads the log as it goes; the I/O is the same,
  // but a blktrace's queue depth is not probed (blktrace.c read_blktrace()).
  bool read_iolog_chunked = false;
  // merge_blktrace_file, _scalars, _iters (blktrace_merge.cc): as fio 3.33
  // runs them; the lists kept as written (':'-separated floats).
  std::string merge_blktrace_file, merge_blktrace_scalars, merge_blktrace_iters;
  // Errors (option_table_errors.cc, error_policy.h): continue_on_error and
  // ignore_error as strings (the echo) and, applied in the order given,
  // what they mean.
  std::string continue_on_error = "none";
  std::string ignore_error;
  ErrorPolicy errors;
  bool error_dump = false;  // log the errors that do not end the job, too
  // Files and submission (option_table_io.cc), data (option_table_verify.cc).
  bool create_on_open = false;       // files created when opened: no layout
  bool create_serialize = true;      // set up before the jobs start (0: when it starts)
  bool allow_file_create = true;     // 0: a missing file fails the job's setup
  bool atomic = false;               // O_ATOMIC, which implies O_DIRECT (init.c)
  std::string sync = "none";         // none | 0 | sync | 1 | dsync: O_SYNC / O_DSYNC writes
  std::string fallocate = "native";  // none | native | posix | keep | truncate | 0 | 1
  bool fill_device = false;          // fill_fs: write until ENOSPC (fio_run.cc)
  int64_t openfiles = 0;             // files open at once (0: nrfiles)
  bool unlink = false;               // unlink the files when the job is done
  bool unlink_each_loop = false;     // and before each loop after the first
  bool pre_read = false;             // read the files before the job starts
  std::string file_service_type = "roundrobin";  // file_service.h
  std::string stat_type = "stat";                // filestat: stat | lstat | statx
  std::string io_submit_mode = "inline";         // inline | offload (worker threads)
  std::string buffer_pattern;                    // fio_pattern.h; "": fio's random data
  // What writes carry (option_table_buffers.cc, io_buffers.h).
  bool refill_buffers = false;
  bool scramble_buffers = true;
  bool zero_buffers = false;
  int64_t buffer_compress_percentage = -1;  // -1: not given
  uint64_t buffer_compress_chunk = 512;
  int64_t dedupe_percentage = 0;       // percent of buffers repeating an earlier one
  bool dedupe_global = false;          // working set shared by the jobs
  std::string dedupe_mode = "repeat";  // repeat | working_set
  int64_t dedupe_working_set_percentage = 5;
  // io_uring / io_uring_cmd engine options (option_table_prio.cc).
  std::string cmd_type = "nvme";
  bool sqthread_poll = false, registerfiles = false, fixedbufs = false;
  int64_t sqthread_poll_cpu = -1, nonvectored = -1;  // -1: not given
  // pvsync2's options (option_table_prio.cc); uncached is io_uring's too,
  // nowait libaio's and io_uring's, force_async io_uring's, thp mmap's,
  // userspace_reap libaio's (job_spec_fixup.cc, job_spec_flags.cc).
  bool hipri = false, nowait = false, userspace_reap = false;
  int64_t hipri_percentage = 100;
  int64_t uncached = 0, thp = 0, force_async = 0;
  uint64_t lockmem = 0;  // bytes mlock()ed while the job runs (job_runner_lockmem.cc)
  // I/O priorities (option_table_prio.cc, cmdprio.h): -1 / "" not given.
  int64_t prio = -1, prioclass = -1;
  std::string cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit;
  // zonemode=strided (option_table_io.cc): zonesize bytes of I/O in each
  // zonerange, then zoneskip bytes skipped.
  std::string zonemode = "none";
  uint64_t zonesize = 0, zonerange = 0, zoneskip = 0;
  // steadystate (option_table_stat.cc, steadystate.h): off unless ss_dur.
  std::string steadystate = "iops_slope:0.01%";
  Nanos ss_dur, ss_ramp;
  // Reporting (option_table_report.cc): fio's unified_rw_rep, stats,
  // kb_base, unit_base, sig_figs, do_disk_util, bw/iops_avg_time (ms; _set:
  // given), and the logs' epoch.
  std::string unified_rw_reporting = "none", kb_base = "1024", unit_base = "0";
  bool stats = true, disk_util = true;
  int64_t sig_figs = 4, bwavgtime = 500, iopsavgtime = 500;
  bool bwavgtime_set = false, iopsavgtime_set = false;
  bool log_unix_epoch = false, log_alternate_epoch = false;
  int64_t log_alternate_epoch_clock_id = 0;
  // CPU affinity (option_table_cpu.cc): cpumask / cpus_allowed as given,
  // and the CPUs they allow, sorted (empty: every core of the host).
  std::string cpumask, cpus_allowed, cpus_allowed_policy = "shared";
  std::vector<uint32_t> cpus;

  // The options as written ("job options" / "global options" in fio's
  // JSON): name and value, in the order given; options given without a
  // value are not echoed (fio does the same).
  std::vector<std::pair<std::string, std::string>> echo;
};

enum class OptType {
  kString,     // free text
  kEnum,       // one of `values`
  kBool,       // 0/1
  kSet,        // a flag: no value means 1 (fio's FIO_OPT_STR_SET)
  kInt,        // integer in [min, max]
  kSize,       // fio size in [min, max]
  kSizeDirs,   // "read,write,trim" sizes (one value applies to all)
  kTime,       // fio time, `unit` when no suffix
  kLog,        // a log: on, with an optional file name prefix (fio's write_bw_log)
  kFloatList,  // floats separated by ':', in [0, 100], at most 20 (percentile_list)
  kTimeDirs,   // "read,write,trim" times, `unit` when no suffix, stored in ns (max_latency)
};

struct EnumValue {
  std::string_view value;
  std::string_view help;
  bool supported = true;  // false: fio knows it, storlab sim does not model it
};

struct OptionDef {
  using Target = std::variant<std::string JobOptions::*, bool JobOptions::*, int64_t JobOptions::*,
                              uint64_t JobOptions::*, Nanos JobOptions::*, DirValues JobOptions::*,
                              LogFile JobOptions::*, std::vector<double> JobOptions::*>;
  std::string_view name;
  std::string_view alias;  // "" if none
  OptType type;
  Target target;
  std::string_view def;  // default, as fio shows it ("" if none)
  int64_t min = 0;
  int64_t max = INT64_MAX;
  TimeUnit unit = TimeUnit::kSeconds;
  std::vector<EnumValue> values;
  std::string_view help;
  bool inverse = false;  // kBool: store !value ("buffered" sets direct)
  // kString: checks the value (an error names what is wrong with it).
  Status (*check)(std::string_view value) = nullptr;
  // Runs after the value is stored, for an option whose meaning depends on
  // the order options are given in (ignore_error adds to continue_on_error).
  void (*then)(JobOptions* opts, std::string_view value) = nullptr;
};

// Every option, in the order `--cmdhelp` lists them.
const std::vector<OptionDef>& OptionTable();
// The log and percentile options (option_table_stat.cc), appended to the
// table when it is built.
void AddStatOptions(std::vector<OptionDef>* table);
// The I/O pattern options added for fio's example job files
// (option_table_io.cc: random_distribution, ...).
void AddIoOptions(std::vector<OptionDef>* table);
// thinktime, thinktime_blocks, thinktime_spin, thinktime_blocks_type,
// thinktime_iotime, rate_ignore_thinktime (option_table_think.cc).
void AddThinktimeOptions(std::vector<OptionDef>* table);
// The trace replay options (option_table_iolog.cc).
void AddIologOptions(std::vector<OptionDef>* table);
// verify= itself, and the verify options besides it (option_table_verify.cc).
void AddVerifyTypeOption(std::vector<OptionDef>* table);
void AddVerifyOptions(std::vector<OptionDef>* table);
// refill_buffers, scramble_buffers, zero_buffers, buffer_compress_*
// (option_table_buffers.cc).
void AddBufferOptions(std::vector<OptionDef>* table);
// continue_on_error, ignore_error, error_dump (option_table_errors.cc).
void AddErrorOptions(std::vector<OptionDef>* table);
// fsync_on_close, create_fsync, max_latency, serialize_overlap
// (option_table_sync.cc).
void AddSyncOptions(std::vector<OptionDef>* table);
// flow_id, flow, flow_sleep (option_table_flow.cc).
void AddFlowOptions(std::vector<OptionDef>* table);
// prio, prioclass, the cmdprio_* options and the io_uring and pvsync2
// engine options (option_table_prio.cc).
void AddPrioOptions(std::vector<OptionDef>* table);
// unified_rw_reporting, stats, kb_base, unit_base, significant_figures,
// disk_util, bwavgtime, iopsavgtime, log_*_epoch (option_table_report.cc).
void AddReportOptions(std::vector<OptionDef>* table);
// cpumask, cpus_allowed, cpus_allowed_policy (option_table_cpu.cc).
void AddCpuOptions(std::vector<OptionDef>* table);
// wait_for, filename_format, fallocate, fill_device, openfiles, unlink, stat_type
// (option_table_files.cc).
void AddFileOptions(std::vector<OptionDef>* table);
// True for an option that never takes the next command-line word as its
// value (a flag, or a log whose file name is optional).
bool TakesNoNextWord(const OptionDef& d);
const OptionDef* FindOption(std::string_view name);

// Applies `name=value` to `opts`. `has_value` false: written without "=".
// `where` prefixes the error ("job.fio:12" or "command line"). Appends to
// opts->echo when a value was given.
Status ApplyOption(JobOptions* opts, std::string_view name, std::string_view value, bool has_value,
                   std::string_view where);

// Help for one option (fio --cmdhelp=NAME) or for all ("all" or "").
std::string OptionHelp(std::string_view name);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_OPTIONS_H_
