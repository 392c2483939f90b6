// SHA-256 and SHA-512 as FIPS 180-4 specifies them (sections 4.1.2,
// 4.1.3, 5.1, 6.2, 6.4): blocks of big-endian words, the message schedule,
// the length in bits appended big-endian. fio's crc/sha256.c and
// crc/sha512.c compress blocks the same way; what fio 3.33 keeps of their
// state differs from the standard digest (verify_sums.cc).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "workloads/fio/digest.h"

namespace storlab::fio {
namespace {

// FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube
// roots of the first 64 primes.
constexpr uint32_t kK256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// FIPS 180-4 4.2.3: the first 64 bits of the fractional parts of the cube
// roots of the first 80 primes.
constexpr uint64_t kK512[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

uint32_t Rotr(uint32_t x, int s) { return (x >> s) | (x << (32 - s)); }
uint64_t Rotr(uint64_t x, int s) { return (x >> s) | (x << (64 - s)); }

uint64_t LoadBe(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}

void Sha512Block(std::array<uint64_t, 8>& h, const uint8_t* b) {
  uint64_t w[80];
  for (int t = 0; t < 16; ++t) w[t] = LoadBe(b + 8 * t, 8);
  for (int t = 16; t < 80; ++t) {
    const uint64_t s0 = Rotr(w[t - 15], 1) ^ Rotr(w[t - 15], 8) ^ (w[t - 15] >> 7);
    const uint64_t s1 = Rotr(w[t - 2], 19) ^ Rotr(w[t - 2], 61) ^ (w[t - 2] >> 6);
    w[t] = s1 + w[t - 7] + s0 + w[t - 16];
  }
  std::array<uint64_t, 8> v = h;  // a..h
  for (int t = 0; t < 80; ++t) {
    const uint64_t e = v[4], a = v[0];
    const uint64_t t1 = v[7] + (Rotr(e, 14) ^ Rotr(e, 18) ^ Rotr(e, 41)) +
                        ((e & v[5]) ^ (~e & v[6])) + kK512[t] + w[t];
    const uint64_t t2 =
        (Rotr(a, 28) ^ Rotr(a, 34) ^ Rotr(a, 39)) + ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
    for (int i = 7; i > 0; --i) v[i] = v[i - 1];
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (int i = 0; i < 8; ++i) h[i] += v[i];
}

}  // namespace

std::array<uint32_t, 8> Sha256Init() {
  // 5.3.3: the first 32 bits of the fractional parts of the square roots
  // of the first 8 primes.
  return {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
}

void Sha256Block(std::array<uint32_t, 8>& h, const uint8_t* b) {
  uint32_t w[64];
  for (int t = 0; t < 16; ++t) w[t] = static_cast<uint32_t>(LoadBe(b + 4 * t, 4));
  for (int t = 16; t < 64; ++t) {
    const uint32_t s0 = Rotr(w[t - 15], 7) ^ Rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const uint32_t s1 = Rotr(w[t - 2], 17) ^ Rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = s1 + w[t - 7] + s0 + w[t - 16];
  }
  std::array<uint32_t, 8> v = h;  // a..h
  for (int t = 0; t < 64; ++t) {
    const uint32_t e = v[4], a = v[0];
    const uint32_t t1 = v[7] + (Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25)) +
                        ((e & v[5]) ^ (~e & v[6])) + kK256[t] + w[t];
    const uint32_t t2 =
        (Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22)) + ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
    for (int i = 7; i > 0; --i) v[i] = v[i - 1];
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (int i = 0; i < 8; ++i) h[i] += v[i];
}

size_t PadLastBlocks(const uint8_t* p, size_t n, bool big_endian_length, uint8_t (&tail)[128]) {
  const size_t rest = n % 64;
  if (rest) std::memcpy(tail, p + (n - rest), rest);
  tail[rest] = 0x80;
  const size_t blocks = rest < 56 ? 1 : 2;
  const uint64_t bits = static_cast<uint64_t>(n) * 8;
  uint8_t* len = tail + blocks * 64 - 8;
  for (size_t k = 0; k < 8; ++k)
    len[big_endian_length ? 7 - k : k] = static_cast<uint8_t>(bits >> (8 * k));
  return blocks;
}

std::array<uint8_t, 32> Sha256(const uint8_t* p, size_t n) {
  std::array<uint32_t, 8> h = Sha256Init();
  size_t i = 0;
  for (; i + 64 <= n; i += 64) Sha256Block(h, p + i);
  uint8_t tail[128] = {};
  const size_t blocks = PadLastBlocks(p, n, /*big_endian_length=*/true, tail);
  for (size_t b = 0; b < blocks; ++b) Sha256Block(h, tail + 64 * b);
  std::array<uint8_t, 32> out{};
  for (int w = 0; w < 8; ++w) {
    for (int k = 0; k < 4; ++k) out[4 * w + k] = static_cast<uint8_t>(h[w] >> (24 - 8 * k));
  }
  return out;
}

// 5.3.5: the first 64 bits of the fractional parts of the square roots of
// the first 8 primes.
Sha512::Sha512()
    : state_{0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
             0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
             0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL} {}

void Sha512::Update(const uint8_t* p, size_t n) {
  size_t have = count_ % 128, i = 0;
  count_ += n;
  // Fill the buffer and compress it; whole blocks straight from the input;
  // the rest into the buffer's start (older bytes after it stay).
  if (have + n >= 128) {
    std::memcpy(buf_.data() + have, p, 128 - have);
    Sha512Block(state_, buf_.data());
    for (i = 128 - have; i + 128 <= n; i += 128) Sha512Block(state_, p + i);
    have = 0;
  }
  if (n > i) std::memcpy(buf_.data() + have, p + i, n - i);
}

std::array<uint8_t, 64> Sha512::Final() {
  // 5.1.2: a 1 bit, zeros to 112 mod 128, the bit length (128 bits, BE).
  const uint64_t bits = count_ * 8;
  const size_t have = count_ % 128;
  uint8_t pad[256] = {0x80};
  const size_t pad_len = have < 112 ? 112 - have : 240 - have;
  uint8_t len[16] = {};
  for (int k = 0; k < 8; ++k) len[15 - k] = static_cast<uint8_t>(bits >> (8 * k));
  Update(pad, pad_len);
  Update(len, 16);
  std::array<uint8_t, 64> out{};
  for (int w = 0; w < 8; ++w) {
    for (int k = 0; k < 8; ++k) out[8 * w + k] = static_cast<uint8_t>(state_[w] >> (56 - 8 * k));
  }
  return out;
}

}  // namespace storlab::fio
