// The option table's reporting entries (options.h): what the outputs show
// and how (unified_rw_reporting, stats, kb_base, unit_base,
// significant_figures, disk_util), the bandwidth and IOPS sample windows
// (bwavgtime, iopsavgtime) and the logs' time base (log_unix_epoch,
// log_alternate_epoch, log_alternate_epoch_clock_id). Help texts are fio
// 3.33's own (options.c).
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddReportOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "unified_rw_reporting",
       .type = OptType::kEnum,
       .target = &O::unified_rw_reporting,
       .def = "none",
       .values = {{"none", "Normal statistics reporting"},
                  {"mixed", "Statistics are summed per data direction and reported together"},
                  {"both", "Statistics are reported normally, followed by the mixed statistics"},
                  {"0", "Alias for 'none'"},
                  {"1", "Alias for 'mixed'"},
                  {"2", "Alias for 'both'"}},
       .help = "Unify reporting across data direction"});
  add({.name = "stats",
       .type = OptType::kBool,
       .target = &O::stats,
       .def = "1",
       .help = "Enable collection of stats"});
  // options.c: kb_base and unit_base have .prio = 1, so fio applies them
  // before the other options of a section (job_spec.cc does the same).
  add({.name = "kb_base",
       .type = OptType::kEnum,
       .target = &O::kb_base,
       .def = "1024",
       .values = {{"1024",
                   "Inputs invert IEC and SI prefixes (for compatibility); outputs prefer binary"},
                  {"1000", "Inputs use IEC and SI prefixes; outputs prefer SI"}},
       .help = "Unit prefix interpretation for quantities of data (IEC and SI)"});
  add({.name = "unit_base",
       .type = OptType::kEnum,
       .target = &O::unit_base,
       .values = {{"0", "Auto-detect"}, {"8", "Normal (byte based)"}, {"1", "Bit based"}},
       .help = "Bit multiple of result summary data (8 for byte, 1 for bit)"});
  add({.name = "significant_figures",
       .type = OptType::kInt,
       .target = &O::sig_figs,
       .def = "4",
       .min = 1,
       .max = 10,
       .help = "Significant figures for output-format set to normal"});
  add({.name = "disk_util",
       .type = OptType::kBool,
       .target = &O::disk_util,
       .def = "1",
       .help = "Log disk utilization statistics"});
  // init.c setup_log(): a bw/iops log with log_avg_msec takes its window
  // from bwavgtime/iopsavgtime only when they were given.
  add({.name = "bwavgtime",
       .type = OptType::kInt,
       .target = &O::bwavgtime,
       .def = "500",
       .min = 1,
       .max = INT32_MAX,
       .help = "Time window over which to calculate bandwidth (msec)",
       .then = [](JobOptions* o, std::string_view) { o->bwavgtime_set = true; }});
  add({.name = "iopsavgtime",
       .type = OptType::kInt,
       .target = &O::iopsavgtime,
       .def = "500",
       .min = 1,
       .max = INT32_MAX,
       .help = "Time window over which to calculate IOPS (msec)",
       .then = [](JobOptions* o, std::string_view) { o->iopsavgtime_set = true; }});
  add({.name = "log_unix_epoch",
       .type = OptType::kBool,
       .target = &O::log_unix_epoch,
       .help = "Use Unix time in log files"});
  add({.name = "log_alternate_epoch",
       .type = OptType::kBool,
       .target = &O::log_alternate_epoch,
       .help = "Use alternate epoch time in log files. Uses the same epoch as that is used by "
               "clock_gettime with specified log_alternate_epoch_clock_id."});
  // Linux's clock ids: CLOCK_REALTIME (0) to CLOCK_TAI (11); another id
  // fails clock_gettime().
  add({.name = "log_alternate_epoch_clock_id",
       .type = OptType::kInt,
       .target = &O::log_alternate_epoch_clock_id,
       .min = 0,
       .max = 11,
       .help = "If log_alternate_epoch or log_unix_epoch is true, this option specifies the "
               "clock_id from clock_gettime whose epoch should be used. If neither of those is "
               "true, this option has no effect. Default value is 0, or CLOCK_REALTIME"});
}

}  // namespace storlab::fio
