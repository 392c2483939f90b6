// SHA-3 as FIPS 202 specifies it: KECCAK-f[1600] (section 3, the steps
// theta, rho, pi, chi, iota over 24 rounds) in a sponge of capacity twice
// the digest (section 4, 6.1), the message padded with the SHA-3 domain
// bits 01 and pad10*1 (B.2: the byte 0x06, ..., 0x80), lanes little-endian.
// fio's crc/sha3.c computes the same digests.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/fio/digest.h"

namespace storlab::fio {
namespace {

uint64_t Rotl(uint64_t x, int s) { return s == 0 ? x : (x << s) | (x >> (64 - s)); }

// 3.2.5 Algorithm 5: rc(t), the output of an LFSR of x^8+x^6+x^5+x^4+1.
bool Rc(int t) {
  if (t % 255 == 0) return true;
  unsigned r = 0x01;  // R = 10000000, R[0] the low bit
  for (int i = 1; i <= t % 255; ++i) {
    const unsigned r8 = (r & 0x80) ? 1 : 0;  // R[8] after R = 0 || R
    r <<= 1;
    if (r8) r ^= 0x71;  // R[0], R[4], R[5], R[6] ^= R[8]
    r &= 0xff;
  }
  return r & 1;
}

struct Tables {
  std::array<uint64_t, 24> rc{};  // iota's round constants (3.2.5)
  std::array<int, 25> rho{};      // rho's offsets by lane x + 5y (3.2.2)
};

const Tables& KeccakTables() {
  static const Tables t = [] {
    Tables r;
    for (int ir = 0; ir < 24; ++ir) {
      for (int j = 0; j <= 6; ++j) {
        if (Rc(j + 7 * ir)) r.rc[static_cast<size_t>(ir)] |= 1ULL << ((1 << j) - 1);
      }
    }
    size_t x = 1, y = 0;
    for (int t = 0; t < 24; ++t) {
      r.rho[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
      const size_t nx = y, ny = (2 * x + 3 * y) % 5;
      x = nx;
      y = ny;
    }
    return r;
  }();
  return t;
}

void KeccakF(std::array<uint64_t, 25>& a) {
  const Tables& t = KeccakTables();
  for (int round = 0; round < 24; ++round) {
    uint64_t c[5], d[5];
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ Rotl(c[(x + 1) % 5], 1);
    for (size_t i = 0; i < 25; ++i) a[i] ^= d[i % 5];  // theta
    std::array<uint64_t, 25> b{};
    for (size_t x = 0; x < 5; ++x) {
      for (size_t y = 0; y < 5; ++y) {
        // rho, then pi: A'[x, y] = A[(x + 3y) mod 5, x]
        const size_t sx = (x + 3 * y) % 5, sy = x;
        b[x + 5 * y] = Rotl(a[sx + 5 * sy], t.rho[sx + 5 * sy]);
      }
    }
    for (size_t y = 0; y < 5; ++y) {  // chi
      for (size_t x = 0; x < 5; ++x) {
        a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
      }
    }
    a[0] ^= t.rc[static_cast<size_t>(round)];  // iota
  }
}

void Absorb(std::array<uint64_t, 25>& s, const uint8_t* block, size_t rate) {
  for (size_t i = 0; i < rate; ++i) s[i / 8] ^= static_cast<uint64_t>(block[i]) << (8 * (i % 8));
  KeccakF(s);
}

}  // namespace

std::vector<uint8_t> Sha3(const uint8_t* p, size_t n, size_t digest_bytes) {
  const size_t rate = 200 - 2 * digest_bytes;
  std::array<uint64_t, 25> s{};
  size_t i = 0;
  for (; i + rate <= n; i += rate) Absorb(s, p + i, rate);
  std::vector<uint8_t> last(rate, 0);
  for (size_t k = 0; i + k < n; ++k) last[k] = p[i + k];
  last[n - i] ^= 0x06;
  last[rate - 1] ^= 0x80;
  Absorb(s, last.data(), rate);
  std::vector<uint8_t> out(digest_bytes);
  for (size_t k = 0; k < digest_bytes; ++k)
    out[k] = static_cast<uint8_t>(s[k / 8] >> (8 * (k % 8)));
  return out;
}

}  // namespace storlab::fio
