// AllZero: whether n bytes are all zero, a word at a time (the RAM store's
// zero pages, ZFS's abd_cmp_zero() for holes, the oracle's check of a
// block never written). Thread-safe (pure).
#ifndef STORLAB_SIM_ALL_ZERO_H_
#define STORLAB_SIM_ALL_ZERO_H_

#include <cstdint>
#include <cstring>

namespace storlab {

inline bool AllZero(const uint8_t* p, uint64_t n) {
  uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    std::memcpy(&v, p + i, 8);
    if (v != 0) return false;
  }
  for (; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

}  // namespace storlab

#endif  // STORLAB_SIM_ALL_ZERO_H_
