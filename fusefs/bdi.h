// The FUSE mount's backing device info (bdi): the kernel's dirty-page
// limits for the mount, which decide how much a buffered writer may hand
// the page cache before it has to wait for the file system. A FUSE bdi
// starts at max_ratio 1 (1 % of the dirty limit) with strict_limit 1; an
// NFS client's bdi has neither cap, which is what inflates a NAS benchmark
// (shared/reference/measured-here.md).
//
// Thread-compatible (plain functions over /proc and /sys).
#ifndef STORLAB_FUSEFS_BDI_H_
#define STORLAB_FUSEFS_BDI_H_

#include <string>

#include "sim/status.h"

namespace storlab::fusefs {

struct BdiSetting {
  std::string id;  // "MAJOR:MINOR", the folder in /sys/class/bdi/
  int max_ratio = -1;
  int strict_limit = -1;
  long long max_bytes = -1;  // -1: not offered by this kernel
  std::string ToString() const;
};

// The bdi of the file system mounted at `mountpoint`, from
// /proc/self/mountinfo (never a stat of the mount itself: that would wait
// for the file system being set up).
Result<std::string> FindBdi(const std::string& mountpoint);
Result<BdiSetting> ReadBdi(const std::string& id);
// Sets max_ratio to `ratio` (percent) and strict_limit to 0 when ratio > 1
// (1: the FUSE default, strict). Needs root: otherwise an error that says so.
Status SetBdiMaxRatio(const std::string& id, int ratio);

}  // namespace storlab::fusefs

#endif  // STORLAB_FUSEFS_BDI_H_
