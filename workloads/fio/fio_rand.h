// fio's random number generators, as fio's lib/rand.h has them: the
// 32-bit Tausworthe (taus88, fio's default random_generator) and the 64-bit
// one (taus258). Seeded through SplitMix64, so any 64-bit seed gives valid
// state words. Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_FIO_RAND_H_
#define STORLAB_WORKLOADS_FIO_FIO_RAND_H_

#include <cstdint>

namespace storlab::fio {

// SplitMix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
// generators", OOPSLA 2014): advances *x and returns the next output.
inline uint64_t SplitMix(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Taus88 {
 public:
  explicit Taus88(uint64_t seed);
  uint32_t Next();

 private:
  uint32_t s1_, s2_, s3_;
};

class Taus258 {
 public:
  explicit Taus258(uint64_t seed);
  uint64_t Next();

 private:
  uint64_t s_[5];
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FIO_RAND_H_
