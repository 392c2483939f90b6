#include "sim/layers/raid/parity.h"

#include <cassert>
#include <cstring>

#include "sim/layers/raid/gf256.h"

namespace storlab::parity {

void Compute(const std::vector<const uint8_t*>& data, size_t len, uint8_t* p, uint8_t* q) {
  std::memset(p, 0, len);
  if (q) std::memset(q, 0, len);
  for (size_t j = 0; j < data.size(); ++j) {
    gf256::XorInto(p, data[j], len);
    if (q) gf256::MulXorInto(gf256::Pow2(static_cast<int>(j)), q, data[j], len);
  }
}

void ApplyDelta(int j, const uint8_t* delta, size_t len, uint8_t* p, uint8_t* q) {
  if (p) gf256::XorInto(p, delta, len);
  if (q) gf256::MulXorInto(gf256::Pow2(j), q, delta, len);
}

void Recover(const std::vector<uint8_t*>& data, const std::vector<int>& lost, const uint8_t* p,
             const uint8_t* q, size_t len) {
  assert(lost.size() == 1 || lost.size() == 2);
  auto is_lost = [&](size_t j) {
    for (int l : lost)
      if (static_cast<size_t>(l) == j) return true;
    return false;
  };
  if (lost.size() == 1 && p) {
    // D_x = P ^ (XOR of the others).
    uint8_t* x = data[lost[0]];
    std::memcpy(x, p, len);
    for (size_t j = 0; j < data.size(); ++j)
      if (!is_lost(j)) gf256::XorInto(x, data[j], len);
    return;
  }
  if (lost.size() == 1) {
    // D_x = (Q ^ sum over the others of g^j D_j) * g^-x.
    const int xi = lost[0];
    uint8_t* x = data[xi];
    std::memcpy(x, q, len);
    for (size_t j = 0; j < data.size(); ++j)
      if (!is_lost(j)) gf256::MulXorInto(gf256::Pow2(static_cast<int>(j)), x, data[j], len);
    gf256::MulInPlace(gf256::Pow2(-xi), x, len);
    return;
  }
  // Two lost: a = D_x ^ D_y and b = g^x D_x ^ g^y D_y from what survives,
  // then D_x = (b ^ g^y a) / (g^x ^ g^y) and D_y = a ^ D_x.
  const int xi = lost[0], yi = lost[1];
  uint8_t* a = data[yi];  // D_y's buffer holds a, then becomes D_y
  uint8_t* b = data[xi];  // D_x's buffer holds b, then becomes D_x
  std::memcpy(a, p, len);
  std::memcpy(b, q, len);
  for (size_t j = 0; j < data.size(); ++j) {
    if (is_lost(j)) continue;
    gf256::XorInto(a, data[j], len);
    gf256::MulXorInto(gf256::Pow2(static_cast<int>(j)), b, data[j], len);
  }
  const uint8_t gy = gf256::Pow2(yi);
  const uint8_t inv = gf256::Inverse(static_cast<uint8_t>(gf256::Pow2(xi) ^ gy));
  gf256::MulXorInto(gy, b, a, len);  // b ^= g^y a
  gf256::MulInPlace(inv, b, len);    // b = D_x
  gf256::XorInto(a, b, len);         // a = D_y
}

}  // namespace storlab::parity
