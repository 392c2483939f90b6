// Rounding to a multiple of a block size (b > 0), for offsets and lengths.
#ifndef STORLAB_SIM_ROUND_H_
#define STORLAB_SIM_ROUND_H_

#include <cstdint>

namespace storlab {

inline constexpr uint64_t RoundDown(uint64_t v, uint64_t b) { return v / b * b; }
inline constexpr uint64_t RoundUp(uint64_t v, uint64_t b) { return (v + b - 1) / b * b; }

}  // namespace storlab

#endif  // STORLAB_SIM_ROUND_H_
