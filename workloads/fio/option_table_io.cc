// The option table's I/O pattern entries (options.h): rw_sequencer,
// allrandrepeat, and those added to run fio's own example job files:
// random_distribution (rand_dist.h), profile= and the tiobench profile's options. Help texts are
// fio's own (options.c, profiles/tiobench.c).
#include "workloads/fio/options.h"
#include "workloads/fio/rand_dist.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddIoOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  // job_runner_offset.cc PickOffset() (io_u.c get_next_block()).
  add({.name = "rw_sequencer",
       .type = OptType::kEnum,
       .target = &O::rw_sequencer,
       .def = "sequential",
       .values = {{"sequential", "Generate sequential offsets"},
                  {"identical", "Generate identical offsets"}},
       .help = "IO offset generator modifier"});
  // job_spec.cc: the seed of every generator (init.c td_fill_rand_seeds()).
  add({.name = "allrandrepeat",
       .type = OptType::kBool,
       .target = &O::allrandrepeat,
       .def = "0",
       .help = "Use repeatable random numbers for everything"});
  add({.name = "random_distribution",
       .type = OptType::kString,
       .target = &O::random_distribution,
       .def = "random",
       .help = "Random offset distribution generator: random (uniform), zipf[:theta[:center]], "
               "pareto[:h[:center]], normal[:dev[:center]], zoned:P/S:..., zoned_abs:P/SIZE:...",
       .check = CheckRandDist});
  // io_u.c get_next_block(): each I/O of a random job is random with this
  // probability (should_do_random()), else it continues sequentially
  // (job_runner_offset.cc).
  add({.name = "percentage_random",
       .type = OptType::kSizeDirs,
       .target = &O::percentage_random,
       .def = "100,100,100",
       .min = 0,
       .max = 100,
       .help = "Percentage of seq/random mix that should be random"});
  // filesetup.c setup_files(): no extend (fallocate, layout) at setup; the
  // file is opened with O_CREAT when the job starts (file_setup_open()).
  add({.name = "create_on_open",
       .type = OptType::kBool,
       .target = &O::create_on_open,
       .def = "0",
       .help = "Create files when they are opened for IO"});
  // backend.c do_io() / rate-submit.c: offload hands each I/O to one of
  // iodepth worker threads; the job's thread never waits for an I/O.
  add({.name = "io_submit_mode",
       .type = OptType::kEnum,
       .target = &O::io_submit_mode,
       .def = "inline",
       .values = {{"inline", "Submit and complete IO inline"},
                  {"offload", "Offload submit and complete to threads"}},
       .help = "How IO submissions and completions are done"});
  // fio's io_u queueing (ioengines.c td_io_queue(), backend.c
  // wait_for_completions(), init.c fixup_options()): submit in batches,
  // reap at least / at most so many at a time, refill at a low-water mark.
  add({.name = "iodepth_batch",
       .alias = "iodepth_batch_submit",
       .type = OptType::kInt,
       .target = &O::iodepth_batch,
       .def = "1",
       .max = 65536,
       .help = "Number of IO buffers to submit in one go"});
  add({.name = "iodepth_batch_complete_min",
       .alias = "iodepth_batch_complete",
       .type = OptType::kInt,
       .target = &O::iodepth_batch_complete_min,
       .def = "1",
       .max = 65536,
       .help = "Min number of IO buffers to retrieve in one go"});
  add({.name = "iodepth_batch_complete_max",
       .type = OptType::kInt,
       .target = &O::iodepth_batch_complete_max,
       .max = 65536,
       .help = "Max number of IO buffers to retrieve in one go"});
  add({.name = "iodepth_low",
       .type = OptType::kInt,
       .target = &O::iodepth_low,
       .max = 65536,
       .help = "Low water mark for queuing depth"});
  // io_u.c setup_strided_zone_mode(): zonesize bytes of I/O within a zone
  // of zonerange bytes, then on to the next zone, zoneskip further.
  add({.name = "zonemode",
       .type = OptType::kEnum,
       .target = &O::zonemode,
       .def = "none",
       .values = {{"none", "no zoning"},
                  {"strided", "strided mode - random I/O is restricted to a single zone"},
                  {"zbd",
                   "zoned block device mode - random I/O selects one of multiple zones randomly",
                   false}},
       .help = "Mode for the zonesize, zonerange and zoneskip parameters"});
  add({.name = "zonesize",
       .type = OptType::kSize,
       .target = &O::zonesize,
       .def = "0",
       .min = 0,
       .help = "Amount of data to read per zone"});
  add({.name = "zonerange",
       .type = OptType::kSize,
       .target = &O::zonerange,
       .def = "0",
       .min = 0,
       .help = "Give size of an IO zone"});
  add({.name = "zoneskip",
       .type = OptType::kSize,
       .target = &O::zoneskip,
       .def = "0",
       .min = 0,
       .help = "Space between IO zones"});
  // io_u.c lat_target_check(): the deepest queue whose I/Os meet a target.
  add({.name = "latency_target",
       .type = OptType::kTime,
       .target = &O::latency_target,
       .def = "0",
       .unit = TimeUnit::kMicroseconds,
       .help = "Ramp to max queue depth supporting this latency"});
  add({.name = "latency_window",
       .type = OptType::kTime,
       .target = &O::latency_window,
       .def = "0",
       .unit = TimeUnit::kMicroseconds,
       .help = "Time to sustain latency_target"});
  add({.name = "latency_percentile",
       .type = OptType::kFloatList,
       .target = &O::latency_percentile,
       .def = "100",
       .help = "Percentile of IOs must be below latency_target"});
  add({.name = "latency_run",
       .type = OptType::kBool,
       .target = &O::latency_run,
       .def = "0",
       .help = "Keep adjusting queue depth to match latency_target"});
  // profiles/tiobench.c registers "threads" with fio's options, so fio
  // accepts it in any job file and uses it only with --profile=tiobench
  // (steadystate.fio and waitfor.fio write threads=1).
  add({.name = "threads",
       .type = OptType::kInt,
       .target = &O::tiobench_threads,
       .min = 0,
       .max = 4096,
       .help = "Number of Threads (the tiobench profile's; no effect without --profile=tiobench, "
               "as in fio)"});
  // The profile's other options (profiles/tiobench.c), accepted anywhere
  // and without effect, as in fio 3.33 (profile_tiobench.cc says why).
  add({.name = "block",
       .type = OptType::kInt,
       .target = &O::tiobench_block,
       .def = "4096",
       .max = INT32_MAX,
       .help = "Block size in bytes (the tiobench profile's; no effect, as in fio 3.33)"});
  add({.name = "numruns",
       .type = OptType::kInt,
       .target = &O::tiobench_numruns,
       .max = INT32_MAX,
       .help = "Number of runs (the tiobench profile's; no effect, as in fio 3.33)"});
  add({.name = "dir",
       .type = OptType::kString,
       .target = &O::tiobench_dir,
       .help = "Test directory (the tiobench profile's; no effect, as in fio 3.33)"});
  // options.c "profile": fio 3.33 stores it and nothing reads it (init.c
  // runs a profile from the command line's --profile only, cli/sim_args.cc):
  // a job file's profile=tiobench adds no jobs, in fio and here.
  add({.name = "profile",
       .type = OptType::kString,
       .target = &O::profile,
       .help = "Select a specific builtin performance test (in a job file: no effect, as in fio "
               "3.33; the command line's --profile runs one)"});
}

}  // namespace storlab::fio
