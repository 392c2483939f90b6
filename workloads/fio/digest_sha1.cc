// SHA-1 as FIPS 180-4 specifies it (sections 4.1.1, 5.1.1, 6.1): 64-byte
// blocks of big-endian words, an 80-word schedule, the length in bits
// appended big-endian. fio's crc/sha1.c computes the same state words.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "workloads/fio/digest.h"

namespace storlab::fio {
namespace {

void Block(std::array<uint32_t, 5>& h, const uint8_t* b) {
  uint32_t w[80];
  for (int t = 0; t < 16; ++t) {
    w[t] = static_cast<uint32_t>(b[4 * t]) << 24 | static_cast<uint32_t>(b[4 * t + 1]) << 16 |
           static_cast<uint32_t>(b[4 * t + 2]) << 8 | b[4 * t + 3];
  }
  for (int t = 16; t < 80; ++t) w[t] = Rotl32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
  for (int t = 0; t < 80; ++t) {
    uint32_t f, k;  // 4.1.1 f_t and 4.2.1 K_t
    if (t < 20) {
      f = (bb & c) ^ (~bb & d);  // Ch
      k = 0x5a827999;
    } else if (t < 40) {
      f = bb ^ c ^ d;  // Parity
      k = 0x6ed9eba1;
    } else if (t < 60) {
      f = (bb & c) ^ (bb & d) ^ (c & d);  // Maj
      k = 0x8f1bbcdc;
    } else {
      f = bb ^ c ^ d;
      k = 0xca62c1d6;
    }
    const uint32_t tmp = Rotl32(a, 5) + f + e + k + w[t];
    e = d;
    d = c;
    c = Rotl32(bb, 30);
    bb = a;
    a = tmp;
  }
  h[0] += a;
  h[1] += bb;
  h[2] += c;
  h[3] += d;
  h[4] += e;
}

}  // namespace

std::array<uint32_t, 5> Sha1Words(const uint8_t* p, size_t n) {
  std::array<uint32_t, 5> h = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
                               0xc3d2e1f0};  // 5.3.1
  size_t i = 0;
  for (; i + 64 <= n; i += 64) Block(h, p + i);
  uint8_t tail[128] = {};
  const size_t blocks = PadLastBlocks(p, n, /*big_endian_length=*/true, tail);
  for (size_t b = 0; b < blocks; ++b) Block(h, tail + 64 * b);
  return h;
}

}  // namespace storlab::fio
