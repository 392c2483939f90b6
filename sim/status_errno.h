// ToErrno: the one mapping from a Status to an errno, used alike by the fio
// interpreter (its io_u errors), the NBD plugin (nbdkit_set_error) and the
// FUSE mount (fuse_reply_err), so a failure means the same thing everywhere.
//
//   kOk              0
//   kInvalidArgument EINVAL   (misaligned, oversized, malformed)
//   kOutOfRange      EINVAL   (beyond the device; nbdkit checks writes itself)
//   kNotFound        ENOENT
//   kNoSpace         ENOSPC   (a full thin pool, a full file system)
//   kNotSupported    EOPNOTSUPP
//   kReadOnly        EROFS
//   kIoError         EIO      (media error, failed member or device)
//   kAborted         EIO      (in flight at a power cut or shutdown: what a
//                              host sees when its disk loses power)
//   kInternal        EIO
//   kExists          EEXIST, kNotEmpty ENOTEMPTY, kNotDirectory ENOTDIR,
//   kIsDirectory     EISDIR, kNameTooLong ENAMETOOLONG, kNotPermitted EPERM
//                    (a file system's name space: the FUSE mount's tree)
// Thread-safe (a pure function).
#ifndef STORLAB_SIM_STATUS_ERRNO_H_
#define STORLAB_SIM_STATUS_ERRNO_H_

#include "sim/status.h"

namespace storlab {

int ToErrno(const Status& st);

}  // namespace storlab

#endif  // STORLAB_SIM_STATUS_ERRNO_H_
