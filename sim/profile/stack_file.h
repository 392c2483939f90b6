// A stack file read and parsed, not yet built: its [stack], [host] and
// [node.NAME] tables as plain specs (every value with its file:line), and
// where the text comes from (a catalog entry or a file). Internal to the
// loader (loader.cc builds the nodes from these specs). Thread-compatible:
// plain functions and values, no shared state.
#ifndef STORLAB_SIM_PROFILE_STACK_FILE_H_
#define STORLAB_SIM_PROFILE_STACK_FILE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/env.h"
#include "sim/profile/params.h"
#include "sim/status.h"

namespace storlab::stack_file {

// The largest `count` one node may have.
constexpr int kMaxCount = 1024;
// The longest node name a file may give.
constexpr size_t kMaxNodeName = 64;
// The largest stack file read (the catalog's are a few KiB).
constexpr uint64_t kMaxFileBytes = uint64_t{16} << 20;

// A node's keys, in sorted order (building never depends on hashing).
using RawMap = std::map<std::string, Params::Raw>;

struct NodeSpec {
  std::string name;
  std::string where;  // the table's file:line
  std::string type, use;
  std::vector<std::string> children;
  std::string children_where;
  int count = 1;
  RawMap keys;  // the model's keys (overrides, for a `use` node)
};

struct FileSpec {
  std::string label;  // for messages: "nas.toml", "catalog:hdd-7200"
  std::string name;   // stack name
  std::string dir;
  std::string description;
  std::string root;
  std::string root_where;
  std::vector<std::string> exports;  // [stack] exports: nodes an export serves
  std::string exports_where;
  // [stack] faults: "TIME: COMMAND" lines (storlab sim --fault's grammar,
  // checked by whoever runs them), each with its file:line.
  std::vector<std::pair<std::string, std::string>> faults;
  std::map<std::string, NodeSpec> nodes;
  bool has_host = false;
  RawMap host;
  std::string host_where;
  // [fs]: the simulated host's file system (prefill).
  bool has_fs = false;
  RawMap fs;
  std::string fs_where;
};

// Stack text and where it came from.
struct Source {
  std::string text;
  std::string label;
  std::string dir;
  std::string name;
};

// Parses stack text. `label` names it in messages, `dir` is where its
// relative `use` files are, `name` is the stack's name unless [stack] gives
// one. Checks the syntax and each node on its own, not how nodes connect.
Result<FileSpec> ParseFile(std::string_view text, const std::string& label, const std::string& dir,
                           const std::string& name);

// Reads a catalog stack by name, or else the file at `name_or_path`
// (relative to `rel_dir` when that is not empty) through `env` (null:
// Env::Default()). Errors name the file and what failed.
Result<Source> ReadSource(std::string_view name_or_path, const std::string& rel_dir,
                          Env* env = nullptr);

}  // namespace storlab::stack_file

#endif  // STORLAB_SIM_PROFILE_STACK_FILE_H_
