// `storlab stacks probe`: a stack's headline figures, measured in virtual
// time the way a disk benchmark reports them.
#ifndef STORLAB_CLI_PROBE_H_
#define STORLAB_CLI_PROBE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace storlab::cli {

struct ProbeOptions {
  double seconds = 2.0;  // simulated seconds per measurement
  uint64_t span = 0;     // bytes of the device used by random I/O; 0: all
  uint64_t seed = 1;
};

// Prints one table row per stack (catalog names or files); returns the exit
// status.
int ProbeStacks(const std::vector<std::string>& stacks, const ProbeOptions& options);

}  // namespace storlab::cli

#endif  // STORLAB_CLI_PROBE_H_
