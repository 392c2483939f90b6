// BitCount: the number of set bits of a word, without a library call.
//
// std::popcount compiles to one POPCNT instruction only when the compiler
// may assume the CPU has it (-mpopcnt, -march=...); storlab's builds assume
// no CPU flags, so there it is a call to libgcc's __popcountdi2, which the
// page table and the cache's block masks make for every request (issue 15
// §5: 2-4 % of a demo cell). This is the loop-free SWAR count (Hacker's
// Delight, 2nd ed., figure 5-2): a few shifts, masks and one multiply,
// inlined. Thread-safe (pure).
#ifndef STORLAB_SIM_BIT_COUNT_H_
#define STORLAB_SIM_BIT_COUNT_H_

#include <cstdint>

namespace storlab {

constexpr unsigned BitCount(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
}

static_assert(BitCount(0) == 0 && BitCount(1) == 1 && BitCount(~uint64_t{0}) == 64 &&
              BitCount(0x8000000000000001ull) == 2 && BitCount(0xF0F0u) == 8);

}  // namespace storlab

#endif  // STORLAB_SIM_BIT_COUNT_H_
