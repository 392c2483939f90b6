// The checksums and hashes fio's verify= types use (fio's crc/ folder),
// written from their specifications: the CRCs with fio's parameters
// (polynomial, reflection, initial value, no final xor; digest_crc.cc),
// MD5 (RFC 1321), SHA-1, SHA-256 and SHA-512 (FIPS 180-4) and SHA-3
// (FIPS 202). What fio stores of each in a verify header, with fio 3.33's
// quirks, is verify_sums.cc's business, not this file's.
// Thread-safe (pure functions; a hasher object is used by one thread).
#ifndef STORLAB_WORKLOADS_FIO_DIGEST_H_
#define STORLAB_WORKLOADS_FIO_DIGEST_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace storlab::fio {

// fio_crc7(): CRC-7 (x^7 + x^3 + 1, MSB first), init 0 — CRC-7/MMC.
uint8_t Crc7(const uint8_t* p, size_t n);
// fio_crc16(): CRC-16 (0x8005, reflected), init 0 — CRC-16/ARC.
uint16_t Crc16(const uint8_t* p, size_t n);
// fio_crc32(): POSIX cksum's CRC-32 (0x04c11db7, MSB first), init 0, with
// neither cksum's length suffix nor its final inversion.
uint32_t Crc32Posix(const uint8_t* p, size_t n);
// fio_crc64(): CRC-64 (Jones, 0xad93d23594c935a9, reflected), init 0 —
// CRC-64/REDIS.
uint64_t Crc64(const uint8_t* p, size_t n);

// RFC 1321 MD5: the 16-byte digest.
std::array<uint8_t, 16> Md5(const uint8_t* p, size_t n);

// FIPS 180-4 SHA-1: its five state words H0..H4 after the final block
// (the standard digest is them big-endian; fio stores them as words).
std::array<uint32_t, 5> Sha1Words(const uint8_t* p, size_t n);

// The padding MD5, SHA-1 and SHA-256 share (RFC 1321 3.1-3.2, FIPS 180-4
// 5.1.1), written into `tail` (zeroed by the caller): the bytes of [p, p+n)
// after its whole 64-byte blocks, a 1 bit, zeros to 56 mod 64, then n's
// length in bits as 64 bits, big-endian (the SHAs) or little-endian (MD5,
// and fio 3.33's SHA-256, verify_sums.cc). Returns the blocks written: 1 or 2.
size_t PadLastBlocks(const uint8_t* p, size_t n, bool big_endian_length, uint8_t (&tail)[128]);
// FIPS 180-4 SHA-256's compression of one 64-byte block into `state`.
void Sha256Block(std::array<uint32_t, 8>& state, const uint8_t* block);
// SHA-256's initial state (FIPS 180-4 5.3.3).
std::array<uint32_t, 8> Sha256Init();
// FIPS 180-4 SHA-256: the 32-byte digest.
std::array<uint8_t, 32> Sha256(const uint8_t* p, size_t n);

// A FIPS 180-4 SHA-512 hasher, by blocks of 128 bytes: Update() buffers
// what does not fill a block, Final() pads and gives the digest.
class Sha512 {
 public:
  Sha512();
  void Update(const uint8_t* p, size_t n);
  std::array<uint8_t, 64> Final();
  // The bytes buffered for the next block (fio 3.33's sha512 field, which
  // never calls a final: verify_sums.cc).
  const std::array<uint8_t, 128>& buffer() const { return buf_; }

 private:
  std::array<uint64_t, 8> state_;
  std::array<uint8_t, 128> buf_{};
  uint64_t count_ = 0;  // bytes
};

// FIPS 202 SHA3-224/256/384/512 (`digest_bytes` 28, 32, 48 or 64).
std::vector<uint8_t> Sha3(const uint8_t* p, size_t n, size_t digest_bytes);

// A 32-bit left rotation (MD5's and SHA-1's ROTL). REQUIRES: 0 < s < 32.
inline uint32_t Rotl32(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_DIGEST_H_
