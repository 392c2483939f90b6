// Reading fio jobs: INI job files and fio-style command lines, into raw
// sections of `key[=value]` entries, each remembering where it was written.
//
// Job files follow fio's syntax: `[section]` headers (`[global]` sets
// defaults for the sections after it), `key=value` or a bare `key`, comments
// from `;` or `#` (whole lines, or after a value), `include FILE` (relative
// to the including file), and `${VAR}` replaced from the environment.
//
// A command line is fio's: `--name=x --rw=randread --bs=4k ...`; options
// before the first --name are global, each --name starts a job; `--key value`
// works as well as `--key=value`.
// Thread-compatible.
#ifndef STORLAB_WORKLOADS_FIO_JOB_FILE_H_
#define STORLAB_WORKLOADS_FIO_JOB_FILE_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/status.h"

namespace storlab::fio {

struct RawEntry {
  std::string key;
  std::string value;
  bool has_value = false;
  std::string where;  // "job.fio:12" or "command line"
};

struct RawSection {
  std::string name;   // "global" for defaults
  std::string where;  // of the header
  std::vector<RawEntry> entries;
};

// Looks an environment variable up; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
// The process environment.
EnvLookup ProcessEnv();

// Reads a job file. Errors name the file and line.
Result<std::vector<RawSection>> ParseJobFile(const std::string& path, const EnvLookup& env);
// Parses job-file text; `label` names it in messages, `dir` resolves includes.
Result<std::vector<RawSection>> ParseJobText(std::string_view text, std::string_view label,
                                             std::string_view dir, const EnvLookup& env);

// Parses fio command-line options (everything that starts with "--").
// Returns the global section first (possibly empty), then one per --name.
Result<std::vector<RawSection>> ParseCommandLine(const std::vector<std::string>& args);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_JOB_FILE_H_
