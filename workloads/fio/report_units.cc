#include "workloads/fio/report_units.h"

#include "workloads/fio/fio_units.h"

namespace storlab::fio {

void SetReportUnits(const JobOptions& o, ThreadStat* ts) {
  const std::string& u = o.unified_rw_reporting;
  ts->unified_rw_rep = (u == "mixed" || u == "1")  ? kUnifiedMixed
                       : (u == "both" || u == "2") ? kUnifiedBoth
                                                   : kUnifiedSplit;
  ts->kb_base = o.kb_base == "1000" ? 1000 : 1024;
  ts->unit_base = o.unit_base == "1" ? kN2sBitPerSec : kN2sBytePerSec;
  ts->sig_figs = static_cast<int>(o.sig_figs);
}

std::string RateStr(uint64_t num, int sig_figs, bool pow2, int unit) {
  if (unit == kN2sBitPerSec) return Num2Str(num * 8, sig_figs, 1, pow2, "bit/s");
  return Num2Str(num, sig_figs, 1, pow2, unit == kN2sBytePerSec ? "B/s" : "");
}

}  // namespace storlab::fio
