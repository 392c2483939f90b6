// StateDir: a saved stack state on the host (storlab sim --state DIR) — a
// text MANIFEST and one binary file per part — written atomically and read
// back with every check a corrupt, truncated or foreign directory needs.
// The format is documented in docs/state.md; kFormat is bumped on any
// incompatible change.
//
//   DIR/MANIFEST           written last: format, version, clock, data mode,
//                          the stack's identity hash, one `part` line per
//                          file (kind, name, type, file, bytes, checksum),
//                          then the identity itself as `desc` lines
//   DIR/node-NAME.state    a node's records (sim/stack_state.h)
//   DIR/fs.state           the simulated host's file system
//
// Save: everything goes into DIR.tmp (each file fsynced, then the
// directory), DIR is renamed to DIR.old, DIR.tmp to DIR, the parent is
// fsynced and DIR.old removed. An interrupted save leaves the previous
// state in DIR (or, between the two renames, in DIR.old, which Load()
// falls back to). One writer at a time per DIR. All host access goes
// through an Env (sim/env.h). Not thread-safe.
#ifndef STORLAB_SIM_STATE_DIR_H_
#define STORLAB_SIM_STATE_DIR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/env.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

struct StateImage {
  // 2: a ZFS block pointer keeps what decompressing its record costs.
  static constexpr uint64_t kFormat = 2;
  struct Part {
    std::string kind;  // "node" or "fs"
    std::string name;  // the node's name ("" for fs)
    std::string type;  // the node's type ("" for fs)
    std::string bytes;
  };
  Nanos clock;              // the virtual time the saved run ended at (idle)
  bool keeps_data = false;  // stores kept data (false: timing-only)
  std::string stack;        // the stack's identity (docs/state.md), lines
  std::vector<Part> parts;
};

// Saves `image` as DIR atomically (see above). `env` null: Env::Default().
Status SaveStateDir(const std::string& dir, const StateImage& image, Env* env = nullptr);

// Loads DIR: nullopt when there is no state yet (DIR absent, or an empty
// directory); an error naming DIR (and the file and line or offset) when it
// is not a state this storlab reads — another format version, a missing or
// truncated file, a checksum that does not match.
Result<std::optional<StateImage>> LoadStateDir(const std::string& dir, Env* env = nullptr);

// The file a part lives in ("node-disk%2F0.state", "fs.state").
std::string StatePartFile(const StateImage::Part& part);

// An error naming DIR and the first line where the saved stack identity
// differs from `current`; OK when they are the same.
Status CompareStateStack(const std::string& dir, const std::string& saved,
                         const std::string& current);

}  // namespace storlab

#endif  // STORLAB_SIM_STATE_DIR_H_
