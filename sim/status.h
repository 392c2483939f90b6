// Status and Result<T>: errors as values, in the LevelDB style.
//
// A Status is OK or carries a code and a message that says what went wrong
// and where ("hdd-7200.toml:12: key 'rpm': expected a positive integer").
// Code maps to an errno in exactly one place: ToErrno (sim/status_errno.h).
// Thread-compatible value types.
#ifndef STORLAB_SIM_STATUS_H_
#define STORLAB_SIM_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace storlab {

class Status {
 public:
  enum class Code : uint8_t {
    kOk = 0,
    kInvalidArgument,  // bad input: profile, job file, request, command
    kNotFound,
    kOutOfRange,    // offset/length outside the device
    kIoError,       // media error, lost member, power cut in flight
    kNoSpace,       // thin pool or file system full
    kNotSupported,  // operation the node does not offer (e.g. trim)
    kAborted,       // request dropped (power cut, shutdown)
    kReadOnly,      // the device or pool no longer accepts writes
    kInternal,
    // A file system's name space (the FUSE mount's tree, sim/fs/tree_fs.h).
    kExists,        // the name is taken
    kNotEmpty,      // a directory that still holds entries
    kNotDirectory,  // a path component or target that is not a directory
    kIsDirectory,   // a file operation on a directory
    kNameTooLong,   // a name over the file system's limit
    kNotPermitted,  // allowed to nobody (a link to a directory, a reserved name)
    kWouldBlock,    // a non-blocking call (RWF_NOWAIT) that would have to wait
  };

  Status() = default;  // OK

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string_view msg) {
    return Status(Code::kInvalidArgument, msg);
  }
  static Status NotFound(std::string_view msg) { return Status(Code::kNotFound, msg); }
  static Status OutOfRange(std::string_view msg) { return Status(Code::kOutOfRange, msg); }
  static Status IoError(std::string_view msg) { return Status(Code::kIoError, msg); }
  static Status NoSpace(std::string_view msg) { return Status(Code::kNoSpace, msg); }
  static Status NotSupported(std::string_view msg) { return Status(Code::kNotSupported, msg); }
  static Status Aborted(std::string_view msg) { return Status(Code::kAborted, msg); }
  static Status ReadOnly(std::string_view msg) { return Status(Code::kReadOnly, msg); }
  static Status Internal(std::string_view msg) { return Status(Code::kInternal, msg); }
  static Status Exists(std::string_view msg) { return Status(Code::kExists, msg); }
  static Status NotEmpty(std::string_view msg) { return Status(Code::kNotEmpty, msg); }
  static Status NotDirectory(std::string_view msg) { return Status(Code::kNotDirectory, msg); }
  static Status IsDirectory(std::string_view msg) { return Status(Code::kIsDirectory, msg); }
  static Status NameTooLong(std::string_view msg) { return Status(Code::kNameTooLong, msg); }
  static Status NotPermitted(std::string_view msg) { return Status(Code::kNotPermitted, msg); }
  static Status WouldBlock(std::string_view msg) { return Status(Code::kWouldBlock, msg); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return msg_; }
  // "invalid argument: <message>", or "OK".
  std::string ToString() const;
  static const char* CodeName(Code c);

  // Returns a copy whose message is "<prefix>: <message>".
  Status WithContext(std::string_view prefix) const;

 private:
  Status(Code c, std::string_view msg) : code_(c), msg_(msg) {}
  Code code_ = Code::kOk;
  std::string msg_;
};

// A value or an error. REQUIRES for value(): ok().
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) { assert(!std::get<Status>(v_).ok()); }  // NOLINT

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & {
    assert(ok());
    return std::get<T>(v_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<T>(v_);
  }
  T&& value() && {
    assert(ok());
    return std::get<T>(std::move(v_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

 private:
  std::variant<T, Status> v_;
};

#define STORLAB_CONCAT_INNER_(a, b) a##b
#define STORLAB_CONCAT_(a, b) STORLAB_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` (a Status) is not OK.
#define RETURN_IF_ERROR(expr)       \
  do {                              \
    ::storlab::Status _st = (expr); \
    if (!_st.ok()) return _st;      \
  } while (0)

// `ASSIGN_OR_RETURN(auto x, MakeX());` declares x from a Result or returns its error.
#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL_(STORLAB_CONCAT_(_res_, __LINE__), lhs, expr)
// `tmp` is a name being declared and `lhs` a declaration ("auto x"): neither
// can be put in parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                           \
  if (!tmp.ok()) return tmp.status();          \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace storlab

#endif  // STORLAB_SIM_STATUS_H_
