#include "sim/layers/raid/gf256.h"

#include <array>

namespace storlab::gf256 {
namespace {

struct Tables {
  std::array<uint8_t, 255> exp;  // exp[k] = g^k
  std::array<int, 256> log;      // log[g^k] = k; log[0] unused
  // mul[c][x] = c * x: 64 KiB, so a buffer is multiplied by table lookups
  // (lib/raid6/mktables.c builds the same raid6_gfmul table).
  std::array<std::array<uint8_t, 256>, 256> mul;
  Tables() {
    unsigned v = 1;
    for (int k = 0; k < 255; ++k) {
      exp[k] = static_cast<uint8_t>(v);
      log[v] = k;
      v <<= 1;
      if (v & 0x100) v ^= kPolynomial;
    }
    log[0] = 0;
    for (int a = 0; a < 256; ++a) {
      for (int b = 0; b < 256; ++b) {
        mul[a][b] = (a == 0 || b == 0) ? 0 : exp[(log[a] + log[b]) % 255];
      }
    }
  }
};

const Tables& T() {
  static const Tables t;
  return t;
}

}  // namespace

uint8_t Mul(uint8_t a, uint8_t b) { return T().mul[a][b]; }

uint8_t Pow2(int k) {
  int m = k % 255;
  if (m < 0) m += 255;
  return T().exp[m];
}

uint8_t Inverse(uint8_t a) { return T().exp[(255 - T().log[a]) % 255]; }

void XorInto(uint8_t* dst, const uint8_t* src, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t a, b;
    __builtin_memcpy(&a, dst + i, 8);
    __builtin_memcpy(&b, src + i, 8);
    a ^= b;
    __builtin_memcpy(dst + i, &a, 8);
  }
  for (; i < n; ++i) dst[i] ^= src[i];
}

void MulXorInto(uint8_t c, uint8_t* dst, const uint8_t* src, size_t n) {
  if (c == 0) return;
  if (c == 1) return XorInto(dst, src, n);
  const auto& row = T().mul[c];
  for (size_t i = 0; i < n; ++i) dst[i] ^= row[src[i]];
}

void MulInPlace(uint8_t c, uint8_t* buf, size_t n) {
  const auto& row = T().mul[c];
  for (size_t i = 0; i < n; ++i) buf[i] = row[buf[i]];
}

}  // namespace storlab::gf256
