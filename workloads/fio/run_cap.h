// A cap on the simulated time of fio jobs: storlab sim's --max-runtime, so
// that fio's own job files (900 s runtimes, 10 GiB sizes) run in a test in
// a fraction of a second. Not a fio option: fio has nothing like it, which
// is why a capped run says so in its report. Thread-compatible.
#ifndef STORLAB_WORKLOADS_FIO_RUN_CAP_H_
#define STORLAB_WORKLOADS_FIO_RUN_CAP_H_

#include <string>
#include <vector>

#include "sim/time.h"
#include "workloads/fio/job_spec.h"

namespace storlab::fio {

// Caps each job of `jobs` at `cap` of simulated time: runtime= becomes
// min(runtime, cap) (a job without runtime= gets runtime=cap, which stops a
// size-driven job there as fio's runtime does), ramp_time= min(ramp_time,
// cap). time_based jobs then run for the cap. The jobs' "job options"
// echo keeps what was written. Returns the line the report prints: which
// jobs were shortened, from what ("" if none was).
// REQUIRES: cap > 0.
std::string CapRuntime(JobSet* jobs, Nanos cap);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_RUN_CAP_H_
