#include "workloads/fio/run_cap.h"

#include <set>

#include "sim/profile/units.h"

namespace storlab::fio {

std::string CapRuntime(JobSet* jobs, Nanos cap) {
  int capped = 0;
  std::set<std::string> from;  // the runtimes the cap replaced, for the line
  for (JobSpec& j : jobs->jobs) {
    JobOptions& o = j.opts;
    bool changed = false;
    // fio's runtime also ends a job that has not done its size yet
    // (backend.c runtime_exceeded()); a job without one runs to its size.
    if (o.runtime == Nanos(0) || o.runtime > cap) {
      from.insert(o.runtime == Nanos(0) ? "none: size-driven" : FormatDuration(o.runtime));
      o.runtime = cap;
      changed = true;
    }
    if (o.ramp_time > cap) {
      o.ramp_time = cap;
      changed = true;
    }
    if (changed) ++capped;
  }
  if (!capped) return "";
  std::string was;
  for (const auto& f : from) was += (was.empty() ? "" : ", ") + f;
  return "storlab sim: --max-runtime=" + FormatDuration(cap) + " capped " + std::to_string(capped) +
         " of " + std::to_string(jobs->jobs.size()) +
         " jobs (runtime was: " + (was.empty() ? "shorter; ramp_time capped" : was) +
         "): not a full run\n";
}

}  // namespace storlab::fio
