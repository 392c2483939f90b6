#include "sim/layers/zfs/zfs_compress.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include "sim/quoted.h"

namespace storlab {

namespace {

struct LzScan {
  uint64_t literals = 0;                  // literal bytes
  uint64_t sequences = 0;                 // matches found
  uint64_t match_cost = 0;                // token, offset and length bytes
  std::array<uint64_t, 256> histogram{};  // of the literals
};

uint32_t Read32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// One greedy pass of LZ4's fast compressor (lz4.c LZ4_compress_generic,
// acceleration 1): hash 4 bytes, look the position up in a 4096-entry
// table, take the match if it is real and within 64 KiB, else skip ahead
// with a step that grows every 64 misses.
LzScan Scan(const uint8_t* d, uint64_t n) {
  LzScan s;
  constexpr uint64_t kMfLimit = 12, kLastLiterals = 5, kWindow = 65535;
  std::array<int64_t, 4096> table;
  table.fill(-1);
  uint64_t ip = 0, anchor = 0;
  uint32_t search = 1u << 6;
  auto literals = [&](uint64_t from, uint64_t to) {
    s.literals += to - from;
    for (uint64_t i = from; i < to; ++i) ++s.histogram[d[i]];
  };
  while (n > kMfLimit && ip + kMfLimit < n) {
    const uint32_t step = search++ >> 6;
    const uint32_t h = (Read32(d + ip) * 2654435761u) >> 20;
    const int64_t ref = table[h];
    table[h] = static_cast<int64_t>(ip);
    if (ref >= 0 && ip - static_cast<uint64_t>(ref) <= kWindow &&
        Read32(d + ref) == Read32(d + ip)) {
      uint64_t len = 4;
      while (ip + len + kLastLiterals < n && d[ref + len] == d[ip + len]) ++len;
      const uint64_t lit = ip - anchor;
      literals(anchor, ip);
      ++s.sequences;
      // token + extra literal-length bytes + offset + extra match-length bytes
      s.match_cost += 1 + (lit >= 15 ? (lit - 15) / 255 + 1 : 0) + 2 +
                      (len - 4 >= 15 ? (len - 19) / 255 + 1 : 0);
      ip += len;
      anchor = ip;
      search = 1u << 6;
    } else {
      ip += step;
    }
  }
  literals(anchor, n);
  const uint64_t lit = n - anchor;
  s.match_cost += 1 + (lit >= 15 ? (lit - 15) / 255 + 1 : 0);
  return s;
}

uint64_t RoundUp(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

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

uint64_t ZfsCompressor::EstimateLz4(const uint8_t* data, uint64_t len) {
  const LzScan s = Scan(data, len);
  return s.literals + s.match_cost;
}

uint64_t ZfsCompressor::EstimateZstd(const uint8_t* data, uint64_t len) {
  const LzScan s = Scan(data, len);
  double bits = 0;  // order-0 entropy of the literals, in bits
  for (uint64_t c : s.histogram) {
    if (c == 0) continue;
    const double p = static_cast<double>(c) / static_cast<double>(s.literals);
    bits -= static_cast<double>(c) * std::log2(p);
  }
  return static_cast<uint64_t>(std::ceil(bits / 8)) + s.match_cost;
}

ZfsCompressed ZfsCompressor::Compress(const uint8_t* data, uint64_t lsize) const {
  ZfsCompressed r;
  r.psize = RoundUp(lsize, kSector);
  if (alg_ == ZfsCompression::kOff) return r;
  uint64_t c_len;
  if (data == nullptr) {
    c_len = static_cast<uint64_t>(std::ceil(static_cast<double>(lsize) / ratio_));
  } else {
    c_len = alg_ == ZfsCompression::kLz4 ? EstimateLz4(data, lsize) : EstimateZstd(data, lsize);
  }
  // zio_compress_data(): keep it only if it saved 1/8 and a sector.
  const uint64_t d_len = lsize - lsize / 8;
  const bool fits = c_len <= d_len && RoundUp(c_len, kSector) < r.psize;
  if (alg_ == ZfsCompression::kLz4) {
    r.cpu =
        TransferTime(lsize, fits ? rates_.lz4_bytes_per_s : rates_.lz4_incompressible_bytes_per_s);
  } else {
    r.cpu = TransferTime(lsize, rates_.zstd_bytes_per_s);
  }
  if (fits) {
    r.psize = RoundUp(std::max<uint64_t>(c_len, 1), kSector);
    r.compressed = true;
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
