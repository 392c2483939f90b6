// StateWriter / StateReader: the record coding of a saved state's files
// (storlab sim --state, docs/state.md), LevelDB's util/coding.h habits:
// unsigned integers as little-endian base-128 varints, signed ones
// zigzagged, doubles as their 8 IEEE bytes, byte strings length-prefixed.
//
// A writer appends to a string. A reader walks a string and, at the first
// field it cannot read, remembers why ("state FILE at offset N: truncated")
// and from then on returns zeros: a caller reads every field, then checks
// status() once (Finish() also refuses bytes left over). Values a caller
// must trust to size memory go through Count(), which refuses a count
// larger than the bytes left could hold. Neither is thread-safe.
#ifndef STORLAB_SIM_STATE_CODING_H_
#define STORLAB_SIM_STATE_CODING_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateWriter {
 public:
  StateWriter() = default;
  StateWriter(const StateWriter&) = delete;
  StateWriter& operator=(const StateWriter&) = delete;

  void U64(uint64_t v);
  void I64(int64_t v) { U64((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void Bool(bool v) { U64(v ? 1 : 0); }
  void Time(Nanos t) { I64(t.count()); }
  void Double(double v);
  void Bytes(std::string_view s);
  // A generator's state (Random::state()).
  void Words(const std::array<uint64_t, 4>& w) {
    for (uint64_t x : w) U64(x);
  }
  // `n` raw bytes, no length (the reader knows how many).
  void Raw(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }

  const std::string& data() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class StateReader {
 public:
  // `where` names the data in errors (a file's path).
  StateReader(std::string_view data, std::string where) : data_(data), where_(std::move(where)) {}
  StateReader(const StateReader&) = delete;
  StateReader& operator=(const StateReader&) = delete;

  uint64_t U64();
  int64_t I64() {
    const uint64_t u = U64();
    return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
  }
  bool Bool();
  Nanos Time() { return Nanos(I64()); }
  double Double();
  std::string Bytes();
  std::array<uint64_t, 4> Words() {
    std::array<uint64_t, 4> w;
    for (auto& x : w) x = U64();
    return w;
  }
  // Copies `n` raw bytes into `out` (zeros once failed).
  void Raw(void* out, size_t n);
  // A count of items of at least `min_item_bytes` each, refused (0 and an
  // error) when the bytes left cannot hold that many.
  uint64_t Count(uint64_t min_item_bytes);
  // A value in [0, limit), else 0 and an error naming `what`.
  uint64_t Below(uint64_t limit, std::string_view what);

  // Records an error at the current offset (a value out of range, ...).
  void Fail(std::string_view why);
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  // The status, and an error if bytes are left over.
  Status Finish();
  const std::string& where() const { return where_; }
  size_t offset() const { return pos_; }

 private:
  std::string_view data_;
  std::string where_;
  size_t pos_ = 0;
  Status status_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_STATE_CODING_H_
