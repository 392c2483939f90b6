// Reading TOML text safely: the checks toml11 needs first (toml_precheck.h),
// the parse, and toml11's errors turned into ours — which quote at most a
// short, printable prefix of the offending line, and none at all from a
// file that is not TOML from its first line on ("not a TOML stack file":
// `use = "/etc/passwd"` must not print the password file). Locator gives a
// value's "file:line" in O(log n). Internal to the profile code (toml11
// types in the interface). Thread-compatible.
#ifndef STORLAB_SIM_PROFILE_TOML_READ_H_
#define STORLAB_SIM_PROFILE_TOML_READ_H_

#include <map>
#include <string>
#include <string_view>
#include <toml.hpp>
#include <vector>

#include "sim/status.h"

namespace storlab::stack_file {

// std::map tables: keys iterate in a fixed (sorted) order, so building and
// printing a stack never depends on hashing.
using TomlValue = toml::basic_value<toml::discard_comments, std::map, std::vector>;

// Parses `text`; errors begin with "label:line: ".
Result<TomlValue> ParseToml(std::string_view text, const std::string& label);

// "file:line" of values parsed from `text`. toml11's own line numbers count
// the newlines from the start of the file for every value (quadratic in the
// file's size); this looks the value's offset up in a table of line starts.
class Locator {
 public:
  Locator(std::string label, std::string_view text);
  std::string operator()(const TomlValue& v) const;
  const std::string& label() const { return label_; }

 private:
  std::string label_;
  std::vector<size_t> newlines_;
};

}  // namespace storlab::stack_file

#endif  // STORLAB_SIM_PROFILE_TOML_READ_H_
