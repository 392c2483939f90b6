// GF(2^8) arithmetic for RAID6, as Linux lib/raid6 defines it.
//
// The field is GF(2)[x] / (x^8 + x^4 + x^3 + x^2 + 1), polynomial 0x11d, with
// generator g = 2 (lib/raid6/mktables.c). Q = sum over data blocks j of
// g^j * D_j, so arrays built here hold the same Q bytes as an md RAID6.
// Tables are built once, on first use; thread-safe afterwards (read-only).
#ifndef STORLAB_SIM_LAYERS_RAID_GF256_H_
#define STORLAB_SIM_LAYERS_RAID_GF256_H_

#include <cstddef>
#include <cstdint>

namespace storlab::gf256 {

constexpr unsigned kPolynomial = 0x11d;

uint8_t Mul(uint8_t a, uint8_t b);
// g^k for any integer k (negative k: the inverse power).
uint8_t Pow2(int k);
// The multiplicative inverse. REQUIRES: a != 0.
uint8_t Inverse(uint8_t a);

// dst[i] ^= src[i] for i < n.
void XorInto(uint8_t* dst, const uint8_t* src, size_t n);
// dst[i] ^= c * src[i] for i < n.
void MulXorInto(uint8_t c, uint8_t* dst, const uint8_t* src, size_t n);
// buf[i] = c * buf[i] for i < n.
void MulInPlace(uint8_t c, uint8_t* buf, size_t n);

}  // namespace storlab::gf256

#endif  // STORLAB_SIM_LAYERS_RAID_GF256_H_
