// ZfsCompressor: what compressing one ZFS record costs and saves.
//
// ZFS compresses each record on its way to disk (zio.c zio_write_compress):
// an all-zero record becomes a hole (abd_cmp_zero: no block, no I/O);
// otherwise the compressor gets an output buffer of
// zio_get_compression_max_size(): s_len - s_len/8 (a block must save
// 12.5 %), rounded down to the allocation size (4 KiB, ashift 12), or
// BPE_PAYLOAD_SIZE (112 bytes) when that is under one allocation; what does
// not fit is stored as is. What fits is rounded up to the allocation size
// (zio_roundup_alloc_size) and stored as is if that is no smaller than the
// record. Embedded block pointers (a record that compresses to <= 112
// bytes lives in its block pointer) are not modelled: such a record takes
// one sector.
//
// The size comes from the real compressors, run on the record's bytes:
// liblz4's LZ4_compress_default (the algorithm of ZFS's lz4_zfs.c, same
// 4096-entry hash table, plus ZFS's 4-byte length header) and libzstd at
// ZFS's default level 3 (zfs_zstd.c, plus its 8-byte header). Records with
// no bytes (a write that carried none) take the configured `ratio`.
// The CPU time of LZ4 is its work on the record (Lz4Work), read back from
// the block it produced: one hash probe per position searched (fewer as a
// run of literals grows: the step widens every 64 misses, LZ4's
// acceleration), the bytes each match extension compared, and a fixed
// cost per sequence emitted; decompressing it, its literal bytes, matched
// bytes and sequences (decompress_cpu). A record of near-copies of one
// buffer (fio's test A) is mostly matches and compresses 2-3x faster than
// typical data, a record half holes faster still; ZfsCompressRates has the
// figures. A record that does not fit the bound, and a record without
// bytes, cost bytes / rate; zstd is charged its full rate on any data
// (zfs_zstd.c's early abort for levels >= 3 on records >= 128 KiB, an LZ4
// then a zstd-1 pass, is not modelled).
// Pure functions of the input; thread-safe (scratch buffers are
// thread-local).
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
  // wiki, LZ4 Compression (ZFS issue #3035). The rates are typical data's,
  // charged to records without bytes.
  double lz4_bytes_per_s = 500e6;
  // LZ4's work (Lz4Work), per unit. Measured, not published: the costs
  // relative to each other come from `storlab_bench_lz4` (bench/lz4_cost.cc:
  // liblz4 1.9.4 on this project's CI machine, a least-squares fit of the
  // times of 128 KiB records -- shared libraries, headers, documentation,
  // test A's records of fio's scrambled buffers, fio's
  // buffer_compress_percentage patterns -- every kind within 25 % of its
  // measured speed; here 1.82-1.84 ns a probe, 0.043 ns a matched byte,
  // 12.6-12.7 ns a sequence), scaled (x1.62) so that typical data -- the shared
  // libraries, LZ4 ratio 2.2 like the Silesia corpus's 2.1 in lz4's README
  // -- runs at the published 500 MB/s above.
  double lz4_probe_ns = 3.00;
  double lz4_matched_byte_ns = 0.0696;
  double lz4_sequence_ns = 20.6;
  // Decompressing it (LZ4_decompress_generic: copy the literals, copy each
  // match, decode each sequence), measured and scaled the same way so that
  // the shared libraries decompress at the published 1.5 GB/s below: every
  // kind within 26 % of its measured speed but fio's 25 % and 75 %
  // compression patterns (1.6x and 2.6x slower than fitted: runs of zeros
  // copied at a short offset); here 0.039-0.045 ns a literal byte, 0.040
  // ns a matched byte, 2.7-2.8 ns a sequence (x3.3-3.4).
  double lz4_decompress_literal_byte_ns = 0.150;
  double lz4_decompress_matched_byte_ns = 0.136;
  double lz4_decompress_sequence_ns = 9.2;
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
  uint64_t psize = 0;       // bytes on disk (a multiple of the 4 KiB sector); 0: a hole
  bool compressed = false;  // false: stored as is (or a hole)
  Nanos cpu;                // compression time on one core
  Nanos decompress_cpu;     // decompression time on one core, if compressed
};

class ZfsCompressor {
 public:
  static constexpr uint64_t kSector = 4096;  // ashift 12
  ZfsCompressor(ZfsCompression alg, const ZfsCompressRates& rates, double ratio)
      : alg_(alg), rates_(rates), ratio_(ratio) {}

  // A record of `lsize` bytes; `data` may be nullptr (no bytes: the
  // configured ratio decides).
  ZfsCompressed Compress(const uint8_t* data, uint64_t lsize) const;
  // Decompression time of a record stored compressed, without its bytes
  // (a record compressed with bytes carries its own: decompress_cpu).
  Nanos DecompressTime(uint64_t lsize) const;

  // zio_get_compression_max_size() for an allocation size of kSector.
  static uint64_t MaxSize(uint64_t lsize);
  // The size ZFS's compressor returns for `data` with an output buffer of
  // `max` bytes, header included; lsize when it does not fit.
  static uint64_t Lz4Size(const uint8_t* data, uint64_t lsize, uint64_t max);
  static uint64_t ZstdSize(const uint8_t* data, uint64_t lsize, uint64_t max);

  // What LZ4_compress_generic (lz4.c; LZ4_compressCtx in OpenZFS's
  // lz4_zfs.c, the same loop) did to produce `block`, an LZ4 block of `n`
  // bytes: the positions it probed the hash table at, the bytes its match
  // extensions covered, and the sequences it emitted.
  struct Lz4Work {
    uint64_t probes = 0;
    uint64_t literal_bytes = 0;
    uint64_t matched_bytes = 0;
    uint64_t sequences = 0;
  };
  static Lz4Work Lz4WorkOf(const uint8_t* block, uint64_t n);
  // Probes for a run of `literals` positions without a match: the step is
  // 1 for the first 64, then grows by one every 64 (skipStrength 6).
  static uint64_t Lz4Probes(uint64_t literals);

  ZfsCompression algorithm() const { return alg_; }

 private:
  ZfsCompression alg_;
  ZfsCompressRates rates_;
  double ratio_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ZFS_ZFS_COMPRESS_H_
