// ParseHost: reads a stack file's `[host]` table into a HostSpec
// (sim/host_spec.h). Thread-compatible.
#ifndef STORLAB_SIM_PROFILE_HOST_H_
#define STORLAB_SIM_PROFILE_HOST_H_

#include "sim/host_spec.h"
#include "sim/profile/params.h"
#include "sim/status.h"

namespace storlab {

// Reads a `[host]` table. Unknown keys are errors.
Status ParseHost(Params& params, HostSpec* out);

// Sets one [host] key from the command line (`--host-mem 32GiB` is "mem",
// "32GiB") exactly as the table's key is read: the same getter, range and
// cross-checks against the rest of *out. `flag` ("--host-mem") names it in
// errors. *out is unchanged on error.
Status OverrideHost(std::string_view key, std::string_view value, std::string_view flag,
                    HostSpec* out);

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_HOST_H_
