// fio 3.33's checksum fields after the verify header (verify.c fill_*(),
// verify_io_u_*()), little-endian as on the x86 and arm64 hosts fio runs on.
#include "workloads/fio/verify_sums.h"

#include <xxhash.h>

#include <array>
#include <cstring>
#include <vector>

#include "workloads/fio/digest.h"

namespace storlab::fio {
namespace {

void PutLe(uint8_t* p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// fill_sha256() with fio 3.33's crc/sha256.c: blocks compressed as
// FIPS 180-4 says, but fio_sha256_final() appends the bit count in host
// order (little-endian, not the standard's big-endian) and then stores each
// state word into the uint8_t buffer — its low byte. The 64-byte field is
// the context's block buffer: the last padded block, its first 8 bytes
// those low bytes.
void FioSha256(const uint8_t* p, size_t n, uint8_t* field) {
  std::array<uint32_t, 8> h = Sha256Init();
  size_t i = 0;
  for (; i + 64 <= n; i += 64) Sha256Block(h, p + i);
  uint8_t tail[128] = {};
  const size_t blocks = PadLastBlocks(p, n, /*big_endian_length=*/false, tail);
  for (size_t b = 0; b < blocks; ++b) Sha256Block(h, tail + 64 * b);
  std::memcpy(field, tail + (blocks - 1) * 64, 64);
  for (int w = 0; w < 8; ++w) field[w] = static_cast<uint8_t>(h[static_cast<size_t>(w)]);
}

// fill_sha512() in fio 3.33 calls fio_sha512_init() and _update() and no
// final (fio added one in 2025, commit 3ee53198 "crc/sha512: fix missing
// finalize part of sha512 hash"): the 128-byte field is the context's
// buffer of input not yet compressed — the data's last n % 128 bytes, then
// the rest of its first 128 (for n >= 128; shorter data leaves zeros where
// fio leaves what was in memory).
void FioSha512(const uint8_t* p, size_t n, uint8_t* field) {
  Sha512 h;
  h.Update(p, n);
  std::memcpy(field, h.buffer().data(), 128);
}

}  // namespace

size_t SumSize(VerifyKind kind) {
  switch (kind) {  // verify.c __hdr_size(): sizeof(struct vhdr_*)
    case VerifyKind::kMd5:
      return 16;
    case VerifyKind::kCrc64:
      return 8;
    case VerifyKind::kCrc32:
    case VerifyKind::kCrc32c:
    case VerifyKind::kXxhash:
      return 4;
    case VerifyKind::kCrc16:
      return 2;
    case VerifyKind::kCrc7:
      return 1;
    case VerifyKind::kSha256:
      return 64;  // uint8_t sha256[64], of which fio fills all (FioSha256)
    case VerifyKind::kSha512:
      return 128;
    case VerifyKind::kSha3_224:
      return 28;
    case VerifyKind::kSha3_256:
      return 32;
    case VerifyKind::kSha3_384:
      return 48;
    case VerifyKind::kSha3_512:
      return 64;
    case VerifyKind::kSha1:
      return 20;
    default:
      return 0;
  }
}

const char* SumName(VerifyKind kind) {
  switch (kind) {
    case VerifyKind::kMd5:
      return "md5";
    case VerifyKind::kCrc64:
      return "crc64";
    case VerifyKind::kCrc32:
      return "crc32";
    case VerifyKind::kCrc32c:
      return "crc32c";
    case VerifyKind::kXxhash:
      return "xxhash";
    case VerifyKind::kCrc16:
      return "crc16";
    case VerifyKind::kCrc7:
      return "crc7";
    case VerifyKind::kSha256:
      return "sha256";
    case VerifyKind::kSha512:
      return "sha512";
    case VerifyKind::kSha3_224:
      return "sha3-224";
    case VerifyKind::kSha3_256:
      return "sha3-256";
    case VerifyKind::kSha3_384:
      return "sha3-384";
    case VerifyKind::kSha3_512:
      return "sha3-512";
    case VerifyKind::kSha1:
      return "sha1";
    default:
      return "";
  }
}

void FillSum(VerifyKind kind, const uint8_t* p, size_t n, uint8_t* field) {
  switch (kind) {
    case VerifyKind::kMd5: {  // fill_md5(): the digest (its words are LE)
      const auto d = Md5(p, n);
      std::memcpy(field, d.data(), d.size());
      break;
    }
    case VerifyKind::kCrc64:
      PutLe(field, Crc64(p, n), 8);
      break;
    case VerifyKind::kCrc32:
      PutLe(field, Crc32Posix(p, n), 4);
      break;
    case VerifyKind::kCrc32c:
      PutLe(field, Crc32c(p, n), 4);
      break;
    case VerifyKind::kXxhash:  // fill_xxhash(): XXH32 with seed 1
      PutLe(field, XXH32(p, n, 1), 4);
      break;
    case VerifyKind::kCrc16:
      PutLe(field, Crc16(p, n), 2);
      break;
    case VerifyKind::kCrc7:
      field[0] = Crc7(p, n);
      break;
    case VerifyKind::kSha256:
      FioSha256(p, n, field);
      break;
    case VerifyKind::kSha512:
      FioSha512(p, n, field);
      break;
    case VerifyKind::kSha3_224:
    case VerifyKind::kSha3_256:
    case VerifyKind::kSha3_384:
    case VerifyKind::kSha3_512: {
      const std::vector<uint8_t> d = Sha3(p, n, SumSize(kind));
      std::memcpy(field, d.data(), d.size());
      break;
    }
    case VerifyKind::kSha1: {  // fill_sha1(): the state words H0..H4, LE
      const auto h = Sha1Words(p, n);
      for (size_t w = 0; w < 5; ++w) PutLe(field + 4 * w, h[w], 4);
      break;
    }
    default:
      break;
  }
}

}  // namespace storlab::fio
