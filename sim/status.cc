#include "sim/status.h"

namespace storlab {

const char* Status::CodeName(Code c) {
  switch (c) {
    case Code::kOk:
      return "OK";
    case Code::kInvalidArgument:
      return "invalid argument";
    case Code::kNotFound:
      return "not found";
    case Code::kOutOfRange:
      return "out of range";
    case Code::kIoError:
      return "I/O error";
    case Code::kNoSpace:
      return "no space";
    case Code::kNotSupported:
      return "not supported";
    case Code::kAborted:
      return "aborted";
    case Code::kReadOnly:
      return "read-only";
    case Code::kInternal:
      return "internal error";
    case Code::kExists:
      return "exists";
    case Code::kNotEmpty:
      return "not empty";
    case Code::kNotDirectory:
      return "not a directory";
    case Code::kIsDirectory:
      return "is a directory";
    case Code::kNameTooLong:
      return "name too long";
    case Code::kNotPermitted:
      return "not permitted";
    case Code::kWouldBlock:
      return "would block";
  }
  return "unknown";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string s = CodeName(code_);
  if (!msg_.empty()) {
    s += ": ";
    s += msg_;
  }
  return s;
}

Status Status::WithContext(std::string_view prefix) const {
  if (ok()) return *this;
  std::string m(prefix);
  m += ": ";
  m += msg_;
  return Status(code_, m);
}

}  // namespace storlab
