// Params: the keys of one node's table in a stack file, read with units.
//
// A model's factory reads its parameters through Params: each getter leaves
// the default in place when the key is absent, converts and range-checks it
// when present, and remembers the first error with the file, line and key
// ("nas.toml:14: node 'd0', key 'rpm': expected an integer in [1, 30000],
// got 'fast'"). Finish() then reports that error, or any key nobody read
// ("unknown key 'rmp'"). Every value read is logged with where it came from,
// so `storlab stacks show` can print a stack fully resolved. Values echoed
// in messages are Quoted() (sim/quoted.h): short and printable.
//
// Every getter takes a Key: the key's name and a one-line meaning. A Params
// made by Describing() holds no values: its getters record each key's type,
// unit, default (what *out holds when the getter runs), range and meaning
// instead, Has() answers true (so every optional branch is read), Fail()
// records nothing and Finish() fails, which stops the factory; `storlab stacks types TYPE` runs a
// factory this way (sim/profile/node_keys.h), so the key table is the parser's own.
//
// Rates are > 0 unless the model says 0 means "no limit": a rate of 0 would
// never finish a transfer (a run would spin forever), so every node type
// gets that check here, once.
// Durations and fractions that divide or scale time ask for Bound::kPositive.
//
// Not thread-safe. Holds no toml11 types in its interface.
#ifndef STORLAB_SIM_PROFILE_PARAMS_H_
#define STORLAB_SIM_PROFILE_PARAMS_H_

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class Params {
 public:
  // One raw value as written, and where it was written.
  struct Raw {
    enum class Kind { kString, kInteger, kFloat, kBool, kArray, kOther };
    Kind kind = Kind::kString;
    std::string text;                // strings unquoted; numbers as written
    std::vector<std::string> items;  // kArray of strings: the elements
    std::string where;               // "file.toml:12"
  };
  // One value as the model ended up using it, for the resolved listing.
  struct Used {
    std::string key;
    std::string value;     // TOML text
    std::string where;     // "file:line", or "default"
    bool comment = false;  // a default with no TOML value ("not set"): print as a comment
    std::string bytes;     // a size written with a unit ("16TB"): its exact byte count
  };
  // What a getter accepts besides its type's own range.
  enum class Bound { kAny, kPositive };
  // A key and what it means, in one line ("spindle speed, rpm").
  struct Key {
    Key(std::string name, std::string meaning)
        : name(std::move(name)), meaning(std::move(meaning)) {}
    std::string name;
    std::string meaning;
  };
  // One key as a factory reads it, recorded in describe mode.
  struct Described {
    std::string key;
    std::string type;      // "size", "duration", "integer", ...
    std::string unit;      // "bytes", "s", "B/s", or "" (none)
    std::string fallback;  // the default, as TOML text would give it ("required", "not set")
    std::string range;     // ">= 1MiB", "4KiB .. 1GiB", "\"sata\" | \"nvme\"", or ""
    std::string meaning;
  };

  // `where` names the table ("file.toml:10"); `node` names the node.
  Params(std::string node, std::string where, std::map<std::string, Raw> values);
  // The keys of a table that is not a node ("host" for [host]).
  static Params ForTable(const std::string& table, std::string where,
                         std::map<std::string, Raw> values);
  // A Params in describe mode for node type `type` (see the top).
  static Params Describing(const std::string& type);

  // True if the table sets `key` (always, in describe mode).
  bool Has(std::string_view key) const {
    return describing_ || values_.count(std::string(key)) != 0;
  }
  bool describing() const { return describing_; }
  // Describe mode: the keys read so far, each once, in the order first read.
  const std::vector<Described>& described() const { return described_; }
  // Describe mode: the defaults of the keys read after this call come from
  // `what` (a link's `kind`), not from the code; the table says so.
  void DefaultsFrom(std::string what) { defaults_from_ = std::move(what); }

  // Getters: absent key → *out unchanged (the default). REQUIRES: out != nullptr.
  void Size(const Key& key, uint64_t* out, uint64_t min = 0,
            uint64_t max = std::numeric_limits<uint64_t>::max());
  void Duration(const Key& key, Nanos* out, Bound bound = Bound::kAny);
  // Bytes per second, > 0 — or 0 where the model takes 0 to mean "no
  // limit" (Zero::kNoLimit). A default of 0 that may not be written is
  // listed as a comment ("not set").
  enum class Zero { kInvalid, kNoLimit };
  void Rate(const Key& key, double* out, Zero zero = Zero::kInvalid);
  void Double(const Key& key, double* out, double min, double max);
  // A fraction: "0.3", or a percentage "30%".
  void Fraction(const Key& key, double* out, Bound bound = Bound::kAny);
  void Bool(const Key& key, bool* out);
  void String(const Key& key, std::string* out);
  void Enum(const Key& key, std::string* out, std::initializer_list<std::string_view> allowed);
  void StringList(const Key& key, std::vector<std::string>* out);
  template <typename T>
  void Int(const Key& key, T* out, int64_t min, int64_t max) {
    static_assert(std::is_integral_v<T>);
    int64_t v = static_cast<int64_t>(*out);
    IntImpl(key, &v, min, max);
    *out = static_cast<T>(v);
  }
  // Marks `key` required: Finish() fails if it is absent.
  void Require(std::string_view key);

  // Records a model-level error about `key` (e.g. two keys that disagree).
  void Fail(std::string_view key, std::string_view what);
  // The first error, else an error for the first unread key, else OK.
  Status Finish() const;

  const std::string& node() const { return node_; }
  // "node 'x'" or "[host]", for messages.
  const std::string& subject() const { return subject_; }
  const std::vector<Used>& used() const { return used_; }
  // "file:line: node 'x', key 'k'" for messages.
  std::string Where(std::string_view key) const;

 private:
  const Raw* Take(std::string_view key);
  // `bytes`: a size's exact byte count, where it was written with a unit.
  void Log(std::string_view key, std::string value, const Raw* raw, std::string bytes = "");
  void IntImpl(const Key& key, int64_t* out, int64_t min, int64_t max);
  // Describe mode: records `key` once; `fallback` is the default's text.
  void Describe(const Key& key, std::string type, std::string unit, std::string fallback,
                std::string range);

  std::string node_;
  std::string subject_;
  std::string where_;
  std::map<std::string, Raw> values_;
  std::map<std::string, bool> read_;
  std::vector<Used> used_;
  Status first_error_;
  bool describing_ = false;
  std::string defaults_from_;
  std::vector<std::string> required_;
  std::vector<Described> described_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_PARAMS_H_
