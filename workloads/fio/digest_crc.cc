// fio's CRCs (crc/crc7.c, crc16.c, crc32.c, crc64.c), each a table-driven
// CRC built from its polynomial: the tables are computed here, not copied.
// Parameters in the Rocksoft model (Williams, "A painless guide to CRC
// error detection algorithms", 1993), checked against fio's own tables'
// first entries (crc7: 0x00 0x09 0x12; crc16: 0x0000 0xc0c1; crc32:
// 0x04c11db7 at 1; crc64: 0x7ad870c830358979 at 1).
#include <array>
#include <cstddef>
#include <cstdint>

#include "workloads/fio/digest.h"

namespace storlab::fio {
namespace {

// A reflected (LSB-first) table for `poly` given bit-reversed.
template <typename T>
std::array<T, 256> ReflectedTable(T rpoly) {
  std::array<T, 256> t{};
  for (unsigned i = 0; i < 256; ++i) {
    T c = static_cast<T>(i);
    for (int k = 0; k < 8; ++k) c = (c & 1) ? static_cast<T>((c >> 1) ^ rpoly) : c >> 1;
    t[i] = c;
  }
  return t;
}

}  // namespace

uint8_t Crc7(const uint8_t* p, size_t n) {
  // crc7.h crc7_byte(): table[(crc << 1) ^ byte], the table giving the
  // 7-bit remainder of each byte MSB first (the polynomial 0x09 shifted up
  // one bit to work in a byte).
  static const std::array<uint8_t, 256> t = [] {
    std::array<uint8_t, 256> r{};
    for (unsigned i = 0; i < 256; ++i) {
      unsigned c = i;
      for (int k = 0; k < 8; ++k) c = (c & 0x80) ? ((c << 1) ^ 0x12) & 0xff : (c << 1) & 0xff;
      r[i] = static_cast<uint8_t>(c >> 1);
    }
    return r;
  }();
  uint8_t crc = 0;
  for (size_t i = 0; i < n; ++i) crc = t[static_cast<uint8_t>(crc << 1) ^ p[i]];
  return crc;
}

uint16_t Crc16(const uint8_t* p, size_t n) {
  // crc16.h crc16_byte(): (crc >> 8) ^ table[(crc ^ byte) & 0xff], 0x8005
  // reflected is 0xa001.
  static const std::array<uint16_t, 256> t = ReflectedTable<uint16_t>(0xa001);
  uint16_t crc = 0;
  for (size_t i = 0; i < n; ++i) crc = static_cast<uint16_t>((crc >> 8) ^ t[(crc ^ p[i]) & 0xff]);
  return crc;
}

uint32_t Crc32Posix(const uint8_t* p, size_t n) {
  // crc32.c fio_crc32(): (crc << 8) ^ table[(crc >> 24) ^ byte], MSB first.
  static const std::array<uint32_t, 256> t = [] {
    std::array<uint32_t, 256> r{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i << 24;
      for (int k = 0; k < 8; ++k) c = (c & 0x80000000U) ? (c << 1) ^ 0x04c11db7U : c << 1;
      r[i] = c;
    }
    return r;
  }();
  uint32_t crc = 0;
  for (size_t i = 0; i < n; ++i) crc = (crc << 8) ^ t[((crc >> 24) ^ p[i]) & 0xff];
  return crc;
}

uint64_t Crc64(const uint8_t* p, size_t n) {
  // crc64.c fio_crc64(): table[(crc ^ byte) & 0xff] ^ (crc >> 8), starting
  // at 0 (its comment's init of all ones is not what the code does).
  static const std::array<uint64_t, 256> t = ReflectedTable<uint64_t>(0x95ac9329ac4bc9b5ULL);
  uint64_t crc = 0;
  for (size_t i = 0; i < n; ++i) crc = t[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return crc;
}

}  // namespace storlab::fio
