// storlab sim's power cuts (--power-cut-at, --power-cuts): the cut times of
// a run, and the oracle's findings in fio's JSON ("storlab.oracle").
#ifndef STORLAB_CLI_SIM_CUTS_H_
#define STORLAB_CLI_SIM_CUTS_H_

#include <nlohmann/json.hpp>
#include <vector>

#include "cli/sim_args.h"
#include "sim/status.h"
#include "sim/time.h"
#include "workloads/fio/job_file.h"
#include "workloads/power_cuts.h"

namespace storlab::cli {

// The engine times to cut at, for jobs that start at `t0`. --power-cuts
// spreads them over the jobs' run, which a first, timing-only run of the
// same jobs measures (data does not change timing).
Result<std::vector<Nanos>> CutTimes(const SimArgs& a, const std::vector<fio::RawSection>& sections,
                                    uint64_t seed, Nanos t0);

// "storlab.oracle": the counts, the promise breakers, every cut (when there
// are at most 100) and the first violations in full.
nlohmann::ordered_json CutsJson(const CutSummary& s);

}  // namespace storlab::cli

#endif  // STORLAB_CLI_SIM_CUTS_H_
