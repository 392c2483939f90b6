// Mount: `storlab mount` — a stack served in real time (sim/serve/), shown
// through the kernel's FUSE as image files or a file tree with .storlab/,
// until it is unmounted. Setup in order (load the stack, parse the FUSE
// options, mount, set the bdi, daemonize, start the service, run the
// multi-threaded session loop), teardown in reverse: the service answers
// every request still in flight before the session goes away, so each gets
// its one reply.
//
// Not thread-safe: RunMount runs once per process, on the main thread.
#ifndef STORLAB_FUSEFS_MOUNT_H_
#define STORLAB_FUSEFS_MOUNT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/serve/vfs/image_vfs.h"

namespace storlab::fusefs {

struct MountOptions {
  std::string stack;  // a catalog name or a stack file
  std::string mountpoint;
  std::vector<std::string> exports;  // empty: the stack's exports, else its root
  bool tree = false;                 // a file tree on the first export
  KernelCache cache = KernelCache::kDefault;
  bool writeback_cache = false;
  int bdi_max_ratio = 0;  // 0: leave the kernel's default (1 %, strict)
  uint64_t seed = 1;
  std::string store = "memory";     // memory | none | file:DIR
  bool oracle = true;               // ServiceOptions::oracle
  std::string compensate = "auto";  // auto | off | a duration (ParseCompensation)
  std::string state;                // a saved state's DIR (ServiceOptions::state_dir)
  bool foreground = false;
  std::vector<std::string> fuse_options;  // each -o argument (comma lists)
  uint32_t max_write = 1u << 20;
  int threads = 4;  // FUSE worker threads at most
};

// Mounts, serves until unmounted or signalled, unmounts. Returns the exit
// status; messages go to stderr (and the settings line to stdout).
int RunMount(const MountOptions& options);

}  // namespace storlab::fusefs

#endif  // STORLAB_FUSEFS_MOUNT_H_
