// How fio's reports write their numbers: the reporting options of a job
// (unified_rw_reporting, kb_base, unit_base, significant_figures) as the
// thread_stat fields fio copies them into (stat.c __show_run_stats()), and
// num2str() with fio's unit enum. Pure functions, thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_REPORT_UNITS_H_
#define STORLAB_WORKLOADS_FIO_REPORT_UNITS_H_

#include <cstdint>
#include <string>

#include "workloads/fio/options.h"
#include "workloads/fio/thread_stat.h"

namespace storlab::fio {

// Sets ts's unified_rw_rep, kb_base, unit_base (init.c fixup_options():
// unit_base=0 is bytes, there is no bit-based engine here) and sig_figs.
void SetReportUnits(const JobOptions& o, ThreadStat* ts);

// lib/num2str.c num2str(num, sig_figs, 1, pow2, unit) with fio's enum
// n2s_unit: kN2sNone (no unit), kN2sBytePerSec ("B/s") or kN2sBitPerSec
// (num × 8, "bit/s").
std::string RateStr(uint64_t num, int sig_figs, bool pow2, int unit);

// kb_base as fio's is_power_of_2(): whether outputs prefer binary units.
inline bool KbPow2(int kb_base) { return kb_base && !(kb_base & (kb_base - 1)); }

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_REPORT_UNITS_H_
