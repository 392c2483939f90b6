// Loading stack files: TOML text in, a built Stack (or a clear error) out.
//
// A stack file:
//
//   [stack]                      # optional
//   description = "NAS: NFS over 1GbE to RAID5 of four HDDs"
//   root = "nfs"                 # optional when one node has no parent
//   exports = ["nfs"]            # optional: the nodes an export (NBD, FUSE)
//                                # serves, default the root; a name with
//                                # count = N stands for all N copies
//
//   [host]                       # optional: the machine running the workload
//   mem = "16GiB"
//
//   [fs]                         # optional: the host's file system (storlab sim)
//   prefill = 90                 # percent full of aged files before the run
//
//   [node.nfs]
//   type = "nfs"                 # a model (see `storlab stacks types`)
//   child = "raid"               # or children = ["a", "b"]
//   export = "async"             # the model's own keys
//
//   [node.raid]
//   type = "raid"
//   children = ["disk"]          # a node with count = N stands for N nodes
//   level = 5
//
//   [node.disk]
//   use = "hdd-7200"             # a catalog stack (or a file) as this node,
//   capacity = "6TB"             # with keys overriding its root node's
//   count = 4                    # four copies: disk.0 ... disk.3
//
// Nodes of a `use`d stack are named "<node>/<inner name>" (its root takes the
// node's own name). Every error names the file, the line and the key.
// Thread-compatible (builds on the caller's thread).
#ifndef STORLAB_SIM_PROFILE_LOADER_H_
#define STORLAB_SIM_PROFILE_LOADER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "sim/engine.h"
#include "sim/host_spec.h"
#include "sim/stack.h"
#include "sim/status.h"
#include "sim/store/store.h"

namespace storlab {

struct BuildOptions {
  uint64_t seed = 1;
  DataMode data_mode;  // RAM by default; its env opens file stores
  Env* env = nullptr;  // reads the stack file and its `use` files (null: Env::Default())
};

// One line of a stack file's [stack] faults: "TIME: COMMAND" (storlab sim
// --fault's grammar: cli/sim_faults.h parses and runs it), and its file:line.
struct StackFault {
  std::string text;
  std::string where;
};

struct LoadedStack {
  std::unique_ptr<Stack> stack;
  // [stack] exports, resolved to node names (copies expanded); empty when
  // the file names none (an export then serves the root).
  std::vector<std::string> exports;
  std::vector<StackFault> faults;  // [stack] faults, in the file's order
  HostSpec host;                   // the file's [host] table, or defaults
  // [fs] prefill: the simulated host's file system starts this full (a
  // percentage; 0: empty). workloads/host/fs_prefill.h fills it.
  double fs_prefill = 0;
  std::string resolved;  // the stack as TOML, every parameter with its source
};

// Loads a catalog stack by name, or else a stack file by path.
Result<LoadedStack> LoadStack(std::string_view name_or_path, Engine& engine,
                              const BuildOptions& options);
// Loads stack text. `label` names it in messages ("my.toml"); `dir` is where
// relative `use = "file.toml"` references are looked up.
Result<LoadedStack> LoadStackText(std::string_view text, std::string_view label,
                                  std::string_view dir, Engine& engine,
                                  const BuildOptions& options);

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_LOADER_H_
