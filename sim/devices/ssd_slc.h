// ssd::SlcCache: the part of the NAND written one bit per cell, as a fast
// write cache in front of the native (TLC/QLC) cells.
//
// A static part is always there; a dynamic part borrows free user space,
// which costs cell_bits native bytes per SLC byte, so it shrinks as the drive
// fills (Samsung's Intelligent TurboWrite: 6 GB + up to 36 GB on a 1 TB 970
// EVO Plus). Host programs go to SLC while it has room; after that they go
// straight to native cells at native speed — the write cliff. In idle time
// the drive folds SLC data into native cells and the cache empties again.
// Only byte counts are kept: which LBAs are in SLC is not tracked, so a read
// finds its data in SLC with the probability used / valid bytes.
// Not thread-safe; a value type.
#ifndef STORLAB_SIM_DEVICES_SSD_SLC_H_
#define STORLAB_SIM_DEVICES_SSD_SLC_H_

#include <algorithm>
#include <cstdint>

namespace storlab::ssd {

class SlcCache {
 public:
  SlcCache(uint64_t static_bytes, uint64_t dynamic_bytes, uint32_t cell_bits)
      : static_(cell_bits > 1 ? static_bytes : 0),
        dynamic_(cell_bits > 1 ? dynamic_bytes : 0),
        cell_bits_(cell_bits) {}

  // The cache's size when `free_user_bytes` of the user space hold no data.
  uint64_t capacity(uint64_t free_user_bytes) const {
    return static_ + std::min(dynamic_, free_user_bytes / cell_bits_);
  }
  // Whether `bytes` more fit now.
  bool Fits(uint64_t bytes, uint64_t free_user_bytes) const {
    return used_ + bytes <= capacity(free_user_bytes);
  }
  void Add(uint64_t bytes) { used_ += bytes; }
  // Moves up to `bytes` out of SLC into native cells; returns how many.
  uint64_t Fold(uint64_t bytes) {
    const uint64_t n = std::min(bytes, used_);
    used_ -= n;
    return n;
  }
  uint64_t used() const { return used_; }
  // The share of `valid_bytes` of stored data that sits in SLC.
  double ReadShare(uint64_t valid_bytes) const {
    if (used_ == 0) return 0;
    return valid_bytes <= used_ ? 1.0
                                : static_cast<double>(used_) / static_cast<double>(valid_bytes);
  }

 private:
  uint64_t static_;
  uint64_t dynamic_;
  uint32_t cell_bits_;
  uint64_t used_ = 0;
};

}  // namespace storlab::ssd

#endif  // STORLAB_SIM_DEVICES_SSD_SLC_H_
