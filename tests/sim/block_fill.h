// Test data for oracle tests: every 4 KiB block of every write distinct.
//
// One draw of the test's generator per block, spread over the block's
// words by a splitmix64 step: each block (and each word of it) differs
// from every other with overwhelming probability, so the oracle can tell
// every version of every block apart. A draw per word gave the same
// guarantee at several times the cost, which under the sanitizers (where
// Random::Next and each 8-byte copy are calls) was most of such a test's
// time. Not thread-safe (the caller's generator).
#ifndef STORLAB_TESTS_SIM_BLOCK_FILL_H_
#define STORLAB_TESTS_SIM_BLOCK_FILL_H_

#include <cstddef>
#include <cstdint>

#include "sim/random.h"

namespace storlab::testing {

// Fills `n` words at `words` from one draw of `rng` per 4 KiB (512 words).
// Whole-word stores: a sanitizer build checks them inline, where it makes
// each memcpy a call.
inline void FillBlocks(Random& rng, uint64_t* words, size_t n) {
  constexpr size_t kBlockWords = 4096 / 8;
  for (size_t b = 0; b < n; b += kBlockWords) {
    uint64_t x = rng.Next();
    const size_t end = n - b < kBlockWords ? n : b + kBlockWords;
    for (size_t i = b; i < end; ++i) {
      x += 0x9E3779B97F4A7C15ull;
      uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      words[i] = z ^ (z >> 31);
    }
  }
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_BLOCK_FILL_H_
