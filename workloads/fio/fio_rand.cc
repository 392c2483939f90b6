#include "workloads/fio/fio_rand.h"

namespace storlab::fio {

// taus88: P. L'Ecuyer, "Maximally Equidistributed Combined Tausworthe
// Generators", Math. Comp. 65 (1996). Each state word has a minimum value
// (2, 8, 16) below which the component degenerates.
Taus88::Taus88(uint64_t seed) {
  uint64_t x = seed;
  s1_ = static_cast<uint32_t>(SplitMix(x)) | 2u;
  s2_ = static_cast<uint32_t>(SplitMix(x)) | 8u;
  s3_ = static_cast<uint32_t>(SplitMix(x)) | 16u;
}

uint32_t Taus88::Next() {
  uint32_t b;
  b = ((s1_ << 13) ^ s1_) >> 19;
  s1_ = ((s1_ & 4294967294u) << 12) ^ b;
  b = ((s2_ << 2) ^ s2_) >> 25;
  s2_ = ((s2_ & 4294967288u) << 4) ^ b;
  b = ((s3_ << 3) ^ s3_) >> 11;
  s3_ = ((s3_ & 4294967280u) << 17) ^ b;
  return s1_ ^ s2_ ^ s3_;
}

// taus258: P. L'Ecuyer, "Tables of Maximally Equidistributed Combined LFSR
// Generators", Math. Comp. 68 (1999); minimum values 2, 512, 4096, 131072,
// 8388608.
Taus258::Taus258(uint64_t seed) {
  static const uint64_t kMin[5] = {2, 512, 4096, 131072, 8388608};
  uint64_t x = seed;
  for (int i = 0; i < 5; ++i) s_[i] = SplitMix(x) | kMin[i];
}

uint64_t Taus258::Next() {
  uint64_t b;
  b = ((s_[0] << 1) ^ s_[0]) >> 53;
  s_[0] = ((s_[0] & 18446744073709551614ULL) << 10) ^ b;
  b = ((s_[1] << 24) ^ s_[1]) >> 50;
  s_[1] = ((s_[1] & 18446744073709551104ULL) << 5) ^ b;
  b = ((s_[2] << 3) ^ s_[2]) >> 23;
  s_[2] = ((s_[2] & 18446744073709547520ULL) << 29) ^ b;
  b = ((s_[3] << 5) ^ s_[3]) >> 24;
  s_[3] = ((s_[3] & 18446744073709420544ULL) << 23) ^ b;
  b = ((s_[4] << 3) ^ s_[4]) >> 33;
  s_[4] = ((s_[4] & 18446744073701163008ULL) << 8) ^ b;
  return s_[0] ^ s_[1] ^ s_[2] ^ s_[3] ^ s_[4];
}

}  // namespace storlab::fio
