// ZfsCompressor: what compressing one ZFS record costs and saves.
//
// ZFS compresses each record on its way to disk (zio_compress_data) and
// keeps the result only if it saves at least 1/8 (the output buffer is
// s_len - s_len/8) and, rounded up to the 4 KiB sector (ashift 12), is
// still smaller than the record. LZ4 stops as soon as its output would
// pass that bound, so incompressible data costs little; zstd has no such
// early abort and costs its full rate on any data.
//
// The size comes from the data when there is data: an estimate made by
// one greedy pass of LZ4's own match finder (4-byte hashes, 64 KiB window,
// LZ4's skip acceleration, its token/literal/offset costs); for zstd the
// same matches with the literals entropy-coded at their order-0 entropy
// (zstd Huffman-codes literals). In timing-only runs the data's
// compressibility is a parameter (`ratio`; fio's default buffers are
// random: 1.0). The CPU time is bytes / rate, with the rates below.
// Pure functions of the input; thread-safe.
#ifndef STORLAB_SIM_LAYERS_ZFS_ZFS_COMPRESS_H_
#define STORLAB_SIM_LAYERS_ZFS_ZFS_COMPRESS_H_

#include <cstdint>
#include <string_view>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

enum class ZfsCompression { kOff, kLz4, kZstd };
Result<ZfsCompression> ParseZfsCompression(std::string_view name);
const char* ZfsCompressionName(ZfsCompression c);

struct ZfsCompressRates {
  // "often exceeds 500 MB/s on compression and over 1.5 GB/s on
  // decompression and incompressible data (per single CPU core)" -- illumos
  // wiki, LZ4 Compression (ZFS issue #3035).
  double lz4_bytes_per_s = 500e6;
  double lz4_incompressible_bytes_per_s = 1.5e9;
  double lz4_decompress_bytes_per_s = 1.5e9;
  // zstd: the README gives 530 MB/s compress, 1700 MB/s decompress for
  // level 1 (Core i7-9700K, Silesia); ZFS's zstd is level 3, slower to
  // compress: estimate 330 MB/s and 1.2 GB/s (derived: level 3 runs at
  // ~0.6x level 1 in lzbench tables). Not fitted to any seed figure.
  double zstd_bytes_per_s = 330e6;
  double zstd_decompress_bytes_per_s = 1.2e9;
};

struct ZfsCompressed {
  uint64_t psize = 0;       // bytes on disk (a multiple of the 4 KiB sector)
  bool compressed = false;  // false: stored as is
  Nanos cpu;                // compression time on one core
};

class ZfsCompressor {
 public:
  static constexpr uint64_t kSector = 4096;  // ashift 12
  ZfsCompressor(ZfsCompression alg, const ZfsCompressRates& rates, double ratio)
      : alg_(alg), rates_(rates), ratio_(ratio) {}

  // A record of `lsize` bytes; `data` may be nullptr (timing only: the
  // configured ratio decides).
  ZfsCompressed Compress(const uint8_t* data, uint64_t lsize) const;
  // Decompression time of a record stored compressed.
  Nanos DecompressTime(uint64_t lsize) const;

  // The estimated compressed size of `data` (LZ4 format), and (zstd) with
  // literals entropy-coded. Exposed for tests.
  static uint64_t EstimateLz4(const uint8_t* data, uint64_t len);
  static uint64_t EstimateZstd(const uint8_t* data, uint64_t len);

  ZfsCompression algorithm() const { return alg_; }

 private:
  ZfsCompression alg_;
  ZfsCompressRates rates_;
  double ratio_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ZFS_ZFS_COMPRESS_H_
