// MD5 as RFC 1321 specifies it (section 3): 64-byte blocks of
// little-endian words, four rounds of sixteen steps, the length in bits
// appended little-endian. fio's crc/md5.c computes the same digest.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "workloads/fio/digest.h"

namespace storlab::fio {
namespace {

// RFC 1321 3.4: T[i] = floor(2^32 * |sin(i + 1)|), and each step's shift.
const std::array<uint32_t, 64>& SineTable() {
  static const std::array<uint32_t, 64> t = [] {
    std::array<uint32_t, 64> r{};
    for (int i = 0; i < 64; ++i) {
      r[static_cast<size_t>(i)] =
          static_cast<uint32_t>(std::floor(4294967296.0 * std::fabs(std::sin(i + 1.0))));
    }
    return r;
  }();
  return t;
}
constexpr int kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

void Block(std::array<uint32_t, 4>& h, const uint8_t* b) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) {
    x[i] = static_cast<uint32_t>(b[4 * i]) | static_cast<uint32_t>(b[4 * i + 1]) << 8 |
           static_cast<uint32_t>(b[4 * i + 2]) << 16 | static_cast<uint32_t>(b[4 * i + 3]) << 24;
  }
  const auto& t = SineTable();
  uint32_t a = h[0], bb = h[1], c = h[2], d = h[3];
  for (int i = 0; i < 64; ++i) {
    const int round = i / 16;
    uint32_t f;
    int k;
    switch (round) {
      case 0:  // F(X,Y,Z) = XY v not(X) Z
        f = (bb & c) | (~bb & d);
        k = i;
        break;
      case 1:  // G(X,Y,Z) = XZ v Y not(Z)
        f = (bb & d) | (c & ~d);
        k = (5 * i + 1) % 16;
        break;
      case 2:  // H(X,Y,Z) = X xor Y xor Z
        f = bb ^ c ^ d;
        k = (3 * i + 5) % 16;
        break;
      default:  // I(X,Y,Z) = Y xor (X v not(Z))
        f = c ^ (bb | ~d);
        k = (7 * i) % 16;
        break;
    }
    const uint32_t sum = a + f + x[k] + t[static_cast<size_t>(i)];
    a = d;
    d = c;
    c = bb;
    bb = bb + Rotl32(sum, kShift[round][i % 4]);
  }
  h[0] += a;
  h[1] += bb;
  h[2] += c;
  h[3] += d;
}

}  // namespace

std::array<uint8_t, 16> Md5(const uint8_t* p, size_t n) {
  std::array<uint32_t, 4> h = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};  // RFC 1321 3.3
  size_t i = 0;
  for (; i + 64 <= n; i += 64) Block(h, p + i);
  uint8_t tail[128] = {};
  const size_t blocks = PadLastBlocks(p, n, /*big_endian_length=*/false, tail);
  for (size_t b = 0; b < blocks; ++b) Block(h, tail + 64 * b);
  std::array<uint8_t, 16> out{};
  for (int w = 0; w < 4; ++w) {
    for (int k = 0; k < 4; ++k) out[4 * w + k] = static_cast<uint8_t>(h[w] >> (8 * k));
  }
  return out;
}

}  // namespace storlab::fio
