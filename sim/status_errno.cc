#include "sim/status_errno.h"

#include <cerrno>

namespace storlab {

int ToErrno(const Status& st) {
  switch (st.code()) {
    case Status::Code::kOk:
      return 0;
    case Status::Code::kInvalidArgument:
    case Status::Code::kOutOfRange:
      return EINVAL;
    case Status::Code::kNotFound:
      return ENOENT;
    case Status::Code::kNoSpace:
      return ENOSPC;
    case Status::Code::kNotSupported:
      return EOPNOTSUPP;
    case Status::Code::kReadOnly:
      return EROFS;
    case Status::Code::kExists:
      return EEXIST;
    case Status::Code::kNotEmpty:
      return ENOTEMPTY;
    case Status::Code::kNotDirectory:
      return ENOTDIR;
    case Status::Code::kIsDirectory:
      return EISDIR;
    case Status::Code::kNameTooLong:
      return ENAMETOOLONG;
    case Status::Code::kNotPermitted:
      return EPERM;
    case Status::Code::kWouldBlock:
      return EAGAIN;
    case Status::Code::kIoError:
    case Status::Code::kAborted:
    case Status::Code::kInternal:
      return EIO;
  }
  return EIO;
}

}  // namespace storlab
