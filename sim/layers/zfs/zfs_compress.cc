#include "sim/layers/zfs/zfs_compress.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/all_zero.h"
#include "sim/quoted.h"
#include "sim/round.h"

namespace storlab {

namespace {

constexpr uint64_t kBpePayloadSize = 112;  // BPE_PAYLOAD_SIZE (spa.h)
constexpr uint64_t kLz4Header = 4;         // lz4_zfs.c: the compressed length, big-endian
constexpr uint64_t kZstdHeader = 8;        // zfs_zstd.c: zfs_zstdhdr_t
constexpr int kZstdLevel = 3;              // ZIO_ZSTD_LEVEL_DEFAULT (zio.h)

// Scratch output buffers, one per thread (cells of the demo run in threads).
std::vector<char>& Scratch(uint64_t n) {
  thread_local std::vector<char> buf;
  if (buf.size() < n) buf.resize(n);
  return buf;
}

struct ZstdContext {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ~ZstdContext() { ZSTD_freeCCtx(cctx); }
  ZstdContext() = default;
  ZstdContext(const ZstdContext&) = delete;
  ZstdContext& operator=(const ZstdContext&) = delete;
};

}  // namespace

Result<ZfsCompression> ParseZfsCompression(std::string_view name) {
  if (name == "off") return ZfsCompression::kOff;
  if (name == "lz4" || name == "on") return ZfsCompression::kLz4;
  if (name == "zstd") return ZfsCompression::kZstd;
  return Status::InvalidArgument("unknown compression " + Quoted(name) +
                                 " (expected off, lz4, on or zstd)");
}

const char* ZfsCompressionName(ZfsCompression c) {
  switch (c) {
    case ZfsCompression::kOff:
      return "off";
    case ZfsCompression::kLz4:
      return "lz4";
    case ZfsCompression::kZstd:
      return "zstd";
  }
  return "?";
}

uint64_t ZfsCompressor::MaxSize(uint64_t lsize) {
  // zio_get_compression_max_size(): save 12.5 %, whole allocation units.
  uint64_t d_len = lsize - (lsize >> 3);
  d_len -= d_len % kSector;
  return d_len < kSector ? kBpePayloadSize : d_len;
}

uint64_t ZfsCompressor::Lz4Size(const uint8_t* data, uint64_t lsize, uint64_t max) {
  // zfs_lz4_compress_buf(): the header, then LZ4 into what is left; 0 (did
  // not fit) means "store as is".
  if (max <= kLz4Header) return lsize;
  std::vector<char>& out = Scratch(max);
  const int n = LZ4_compress_default(reinterpret_cast<const char*>(data), out.data(),
                                     static_cast<int>(lsize), static_cast<int>(max - kLz4Header));
  return n <= 0 ? lsize : static_cast<uint64_t>(n) + kLz4Header;
}

uint64_t ZfsCompressor::ZstdSize(const uint8_t* data, uint64_t lsize, uint64_t max) {
  // zfs_zstd_compress_buf(): the header, then zstd at the dataset's level.
  if (max <= kZstdHeader) return lsize;
  thread_local ZstdContext ctx;
  std::vector<char>& out = Scratch(max);
  const size_t n =
      ZSTD_compressCCtx(ctx.cctx, out.data(), max - kZstdHeader, data, lsize, kZstdLevel);
  return ZSTD_isError(n) ? lsize : n + kZstdHeader;
}

uint64_t ZfsCompressor::Lz4Probes(uint64_t literals) {
  // LZ4_compress_generic_validated(): `step = searchMatchNb++ >>
  // LZ4_skipTrigger`, searchMatchNb starting at 1 << 6: 64 probes a step
  // of 1, then 64 of 2, and so on.
  uint64_t probes = 0, step = 1;
  while (literals > 64 * step) {
    literals -= 64 * step;
    probes += 64;
    ++step;
  }
  return probes + (literals + step - 1) / step;
}

ZfsCompressor::Lz4Work ZfsCompressor::Lz4WorkOf(const uint8_t* block, uint64_t n) {
  // The LZ4 block format (lz4's doc/lz4_Block_format.md): sequences of a
  // token (literal length, match length - 4), extra length bytes of 255
  // while the nibble is 15, the literals, a 2-byte offset; the last
  // sequence has literals only.
  Lz4Work w;
  uint64_t at = 0;
  auto length = [&](uint64_t nibble) {
    uint64_t len = nibble;
    if (nibble == 15) {
      uint8_t b = 255;
      while (b == 255 && at < n) len += b = block[at++];
    }
    return len;
  };
  while (at < n) {
    const uint8_t token = block[at++];
    const uint64_t literals = length(token >> 4);
    at += literals;
    w.literal_bytes += literals;
    w.probes += Lz4Probes(literals);
    ++w.sequences;
    if (at + 2 > n) break;  // the last sequence: literals only
    at += 2;
    w.matched_bytes += length(token & 15) + 4;  // MINMATCH
  }
  return w;
}

ZfsCompressed ZfsCompressor::Compress(const uint8_t* data, uint64_t lsize) const {
  ZfsCompressed r;
  r.psize = RoundUp(lsize, kSector);
  if (alg_ == ZfsCompression::kOff) return r;
  if (data != nullptr && AllZero(data, lsize)) {  // abd_cmp_zero() == 0
    r.psize = 0;  // zio_write_compress(): an all-zero block becomes a hole
    return r;
  }
  const uint64_t d_len = MaxSize(lsize);
  uint64_t c_len;
  if (data == nullptr) {
    c_len = static_cast<uint64_t>(std::ceil(static_cast<double>(lsize) / ratio_));
    if (c_len > d_len) c_len = lsize;
  } else {
    c_len =
        alg_ == ZfsCompression::kLz4 ? Lz4Size(data, lsize, d_len) : ZstdSize(data, lsize, d_len);
  }
  // zio_write_compress(): what did not fit, or does not save a whole
  // allocation unit once rounded, is stored as is.
  const bool fits = c_len < lsize && RoundUp(c_len, kSector) < r.psize;
  if (alg_ == ZfsCompression::kLz4 && data != nullptr && c_len < lsize) {
    // LZ4 wrote a block (it may still save no whole sector): its work. The
    // block is still in this thread's scratch buffer.
    const Lz4Work w =
        Lz4WorkOf(reinterpret_cast<const uint8_t*>(Scratch(0).data()), c_len - kLz4Header);
    const double ns = static_cast<double>(w.probes) * rates_.lz4_probe_ns +
                      static_cast<double>(w.matched_bytes) * rates_.lz4_matched_byte_ns +
                      static_cast<double>(w.sequences) * rates_.lz4_sequence_ns;
    r.cpu = Nanos(std::llround(ns));
    const double dns =
        static_cast<double>(w.literal_bytes) * rates_.lz4_decompress_literal_byte_ns +
        static_cast<double>(w.matched_bytes) * rates_.lz4_decompress_matched_byte_ns +
        static_cast<double>(w.sequences) * rates_.lz4_decompress_sequence_ns;
    r.decompress_cpu = Nanos(std::llround(dns));
  } else if (alg_ == ZfsCompression::kLz4) {
    r.cpu =
        TransferTime(lsize, fits ? rates_.lz4_bytes_per_s : rates_.lz4_incompressible_bytes_per_s);
  } else {
    r.cpu = TransferTime(lsize, rates_.zstd_bytes_per_s);
  }
  if (fits) {
    r.psize = RoundUp(std::max<uint64_t>(c_len, 1), kSector);
    r.compressed = true;
    if (r.decompress_cpu == Nanos(0)) r.decompress_cpu = DecompressTime(lsize);
  } else {
    r.decompress_cpu = Nanos(0);
  }
  return r;
}

Nanos ZfsCompressor::DecompressTime(uint64_t lsize) const {
  switch (alg_) {
    case ZfsCompression::kOff:
      return Nanos(0);
    case ZfsCompression::kLz4:
      return TransferTime(lsize, rates_.lz4_decompress_bytes_per_s);
    case ZfsCompression::kZstd:
      return TransferTime(lsize, rates_.zstd_decompress_bytes_per_s);
  }
  return Nanos(0);
}

}  // namespace storlab
