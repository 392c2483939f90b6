// storlab sim's job sections in fio's order: the command line's global
// options, the job files, the command line's jobs.
#ifndef STORLAB_CLI_SIM_SECTIONS_H_
#define STORLAB_CLI_SIM_SECTIONS_H_

#include <string>
#include <vector>

#include "cli/sim_args.h"
#include "sim/status.h"
#include "workloads/fio/job_file.h"

namespace storlab::cli {

// The sections of `a`'s command line and job files, in the order fio reads
// them. A command-line global that a job file sets again adds a line to
// *notes (fio's precedence: the file's value wins, silently in fio).
Result<std::vector<fio::RawSection>> ReadSections(const SimArgs& a,
                                                  std::vector<std::string>* notes);

}  // namespace storlab::cli

#endif  // STORLAB_CLI_SIM_SECTIONS_H_
