// The option table's log and percentile entries (options.h): fio's
// write_bw_log, write_lat_log, write_iops_log, write_hist_log and their
// log_* settings, and the percentile options. Help texts are fio's own
// (options.c).
#include "workloads/fio/options.h"
#include "workloads/fio/steadystate.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddStatOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "per_job_logs",
       .type = OptType::kBool,
       .target = &O::per_job_logs,
       .def = "1",
       .help = "Include job number in generated log files or not"});
  add({.name = "write_bw_log",
       .type = OptType::kLog,
       .target = &O::bw_log,
       .help = "Write log of bandwidth during run"});
  add({.name = "write_lat_log",
       .type = OptType::kLog,
       .target = &O::lat_log,
       .help = "Write log of latency during run"});
  add({.name = "write_iops_log",
       .type = OptType::kLog,
       .target = &O::iops_log,
       .help = "Write log of IOPS during run"});
  // stat.c get_new_log(): how many samples the first chunk of a log holds
  // (later ones double, up to MAX_LOG_ENTRIES); fio's memory, not its
  // output, so accepted and checked only (options.c: 1024 to 1048576).
  add({.name = "log_entries",
       .type = OptType::kInt,
       .target = &O::log_entries,
       .def = "1024",
       .min = 1024,
       .max = 1024 * 1024,
       .help = "Initial number of entries in a job IO log"});
  add({.name = "log_avg_msec",
       .type = OptType::kInt,
       .target = &O::log_avg_msec,
       .def = "0",
       .max = INT32_MAX,
       .help = "Average bw/iops/lat logs over this period of time"});
  add({.name = "log_hist_msec",
       .type = OptType::kInt,
       .target = &O::log_hist_msec,
       .def = "0",
       .max = INT32_MAX,
       .help = "Dump completion latency histograms at frequency of this time value"});
  add({.name = "log_hist_coarseness",
       .type = OptType::kInt,
       .target = &O::log_hist_coarseness,
       .def = "0",
       .max = 6,
       .help = "Integer in range [0,6]. Higher coarseness outputs fewer histogram bins per "
               "sample. The number of bins for these are [1216, 608, 304, 152, 76, 38, 19] "
               "respectively."});
  add({.name = "write_hist_log",
       .type = OptType::kLog,
       .target = &O::hist_log,
       .help = "Write log of latency histograms during run"});
  add({.name = "log_max_value",
       .type = OptType::kBool,
       .target = &O::log_max_value,
       .def = "0",
       .help = "Log max sample in a window instead of average"});
  add({.name = "log_offset",
       .type = OptType::kBool,
       .target = &O::log_offset,
       .def = "0",
       .help = "Include offset of IO for each log entry"});
  // iolog.c flush_samples(): the last column is the I/O's priority value
  // (0x%04x) instead of whether it was in the RT class (%u).
  add({.name = "log_prio",
       .type = OptType::kBool,
       .target = &O::log_prio,
       .def = "0",
       .help = "Include priority value of IO for each log entry"});
  // gtod_reduce turns the four below on (options.c str_gtod_reduce_cb);
  // each turns its percentiles off (init.c fixup_options).
  add({.name = "gtod_reduce",
       .type = OptType::kBool,
       .target = &O::gtod_reduce,
       .def = "0",
       .help = "Greatly reduce number of gettimeofday() calls"});
  add({.name = "disable_lat",
       .type = OptType::kBool,
       .target = &O::disable_lat,
       .def = "0",
       .help = "Disable latency numbers"});
  add({.name = "disable_clat",
       .type = OptType::kBool,
       .target = &O::disable_clat,
       .def = "0",
       .help = "Disable completion latency numbers"});
  add({.name = "disable_slat",
       .type = OptType::kBool,
       .target = &O::disable_slat,
       .def = "0",
       .help = "Disable submission latency numbers"});
  add({.name = "disable_bw_measurement",
       .alias = "disable_bw",
       .type = OptType::kBool,
       .target = &O::disable_bw,
       .def = "0",
       .help = "Disable bandwidth logging"});
  add({.name = "clat_percentiles",
       .type = OptType::kBool,
       .target = &O::clat_percentiles,
       .def = "1",
       .help = "Enable the reporting of completion latency percentiles"});
  add({.name = "lat_percentiles",
       .type = OptType::kBool,
       .target = &O::lat_percentiles,
       .def = "0",
       .help = "Enable the reporting of IO latency percentiles"});
  add({.name = "slat_percentiles",
       .type = OptType::kBool,
       .target = &O::slat_percentiles,
       .def = "0",
       .help = "Enable the reporting of submission latency percentiles"});
  add({.name = "percentile_list",
       .type = OptType::kFloatList,
       .target = &O::percentile_list,
       .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
       .help = "Specify a custom list of percentiles to report for completion latency and "
               "block errors"});
  // block_infos.h: trims per trim-sized block of the job's one file.
  add({.name = "block_error_percentiles",
       .type = OptType::kBool,
       .target = &O::block_error_percentiles,
       .def = "0",
       .help = "Record trim block errors and make a histogram"});
  // steadystate.c: once a second, a job's IOPS and bandwidth; over
  // ss_dur, the criterion; attained, the job ends.
  add({.name = "steadystate",
       .alias = "ss",
       .type = OptType::kString,
       .target = &O::steadystate,
       .def = "iops_slope:0.01%",
       .help = "Define the criterion and limit to judge when a job has reached steady state "
               "(iops, iops_slope, bw, bw_slope:LIMIT[%])",
       .check = CheckSteadyState});
  add({.name = "steadystate_duration",
       .alias = "ss_dur",
       .type = OptType::kTime,
       .target = &O::ss_dur,
       .def = "0",
       .unit = TimeUnit::kSeconds,
       .help = "Stop workload upon attaining steady state for specified duration"});
  add({.name = "steadystate_ramp_time",
       .alias = "ss_ramp",
       .type = OptType::kTime,
       .target = &O::ss_ramp,
       .def = "0",
       .unit = TimeUnit::kSeconds,
       .help = "Delay before initiation of data collection for steady state job termination "
               "testing"});
}

}  // namespace storlab::fio
