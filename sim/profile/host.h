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

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_HOST_H_
