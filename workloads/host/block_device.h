// The simulated host's block devices are its files under /dev/ (a job that
// names one, as fio's examples name /dev/sdb, gets a file of the stack
// there); any other file is a regular file of its file system. Where the
// two differ (BLKDISCARD, unlink, file_append, RWF_NOWAIT), this tells
// them apart.
#ifndef STORLAB_WORKLOADS_HOST_BLOCK_DEVICE_H_
#define STORLAB_WORKLOADS_HOST_BLOCK_DEVICE_H_

#include <string_view>

namespace storlab {

inline bool IsBlockDevice(std::string_view path) { return path.starts_with("/dev/"); }

}  // namespace storlab

#endif  // STORLAB_WORKLOADS_HOST_BLOCK_DEVICE_H_
