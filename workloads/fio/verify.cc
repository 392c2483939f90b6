// fio's verify headers and checks (verify.h).
#include "workloads/fio/verify.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <utility>

#include "sim/quoted.h"
#include "workloads/fio/fio_pattern.h"
#include "workloads/fio/verify_sums.h"

namespace storlab::fio {
namespace {

constexpr uint16_t kVerifyMagic = 0xacca;  // FIO_HDR_MAGIC
constexpr uint64_t kHdrSize = 40;          // sizeof(struct verify_header)
constexpr uint64_t kCrcOffset = 36;        // offsetof(struct verify_header, crc32)

void Put16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}
void Put32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void Put64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint64_t Get(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

const std::array<uint32_t, 256>& CrcTable() {
  static const std::array<uint32_t, 256> t = [] {
    std::array<uint32_t, 256> r{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? (c >> 1) ^ 0x82f63b78U : c >> 1;
      r[i] = c;
    }
    return r;
  }();
  return t;
}

std::string Hex(const uint8_t* p, size_t n) {
  std::string s;
  char b[3];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(b, sizeof(b), "%02x", p[i]);
    s += b;
  }
  return s;
}

// The I/O a checked header's block is part of (verify_interval splits an
// I/O into blocks of its own header each).
struct IoSpan {
  uint64_t offset, length;
  unsigned flags;  // the io_u's flags, as log_verify_failure() prints them
};

// log_verify_failure(): the block and the I/O it was in.
std::string Failure(const char* name, const std::string& file, uint64_t off, uint64_t len,
                    IoSpan io) {
  char b[256];
  std::snprintf(b, sizeof(b),
                "%.8s: verify failed at file %s offset %llu, length %llu (requested block: "
                "offset=%llu, length=%llu, flags=%x)\n",
                name, file.c_str(), static_cast<unsigned long long>(off),
                static_cast<unsigned long long>(len), static_cast<unsigned long long>(io.offset),
                static_cast<unsigned long long>(io.length), io.flags);
  return b;
}

// verify.c memswp(): `n` bytes at `a` and at `b` change places. fio copies
// with memcpy(), which glibc implements as memmove(): when the two overlap
// (verify_offset shorter than the header), the bytes are those memmove()
// leaves, and the block fails its check, as in real fio 3.33.
void MemSwap(uint8_t* a, uint8_t* b, uint64_t n) {
  uint8_t swap[200];
  std::memcpy(swap, a, n);
  std::memmove(a, b, n);
  std::memcpy(b, swap, n);
}

// populate_hdr(): one header, and the checksum of its block's rest.
void FillHeader(VerifyKind kind, const VerifyBlock& b, uint8_t* buf, uint64_t len) {
  if (len < kHdrSize + SumSize(kind)) return;
  Put16(buf, kVerifyMagic);
  Put16(buf + 2, static_cast<uint16_t>(kind));
  Put32(buf + 4, static_cast<uint32_t>(len));
  Put64(buf + 8, b.rand_seed);
  Put64(buf + 16, b.offset);
  Put32(buf + 24, static_cast<uint32_t>(b.time_ns / 1000000000));
  Put32(buf + 28, static_cast<uint32_t>(b.time_ns % 1000000000));
  Put16(buf + 32, b.thread);
  Put16(buf + 34, b.numberio);
  Put32(buf + kCrcOffset, Crc32c(buf, kCrcOffset));
  const uint64_t sum = SumSize(kind);
  if (sum) FillSum(kind, buf + kHdrSize + sum, len - kHdrSize - sum, buf + kHdrSize);
}

// verify_io_u_pattern(): the first of the `n` bytes at `p` that is not
// the pattern (which starts `from` bytes before them), as fio says it, or "".
std::string PatternMismatch(const std::vector<uint8_t>& pattern, uint64_t from, const uint8_t* p,
                            uint64_t n) {
  char m[160];
  for (uint64_t i = 0; i < n && !pattern.empty(); ++i) {
    const uint8_t want = pattern[(from + i) % pattern.size()];
    if (p[i] == want) continue;
    std::snprintf(m, sizeof(m),
                  "fio: got pattern '%02x', wanted '%02x'. Bad bits %d\n"
                  "fio: bad pattern block offset %llu\n",
                  p[i], want, __builtin_popcount(static_cast<unsigned>(p[i] ^ want)),
                  static_cast<unsigned long long>(i));
    return m;
  }
  return "";
}

// verify_header() and the checksum of one header's block (`off`, `len`,
// `at` bytes into the I/O `io`); `io_expect` is the I/O's first header.
std::string CheckBlock(VerifyKind kind, const std::vector<uint8_t>& pattern,
                       const VerifyBlock& io_expect, uint64_t off, uint64_t at, bool check_seed,
                       const std::string& file, const uint8_t* buf, uint64_t len, IoSpan io) {
  char m[256];
  const auto ulen = static_cast<unsigned long long>(len);
  if (len < kHdrSize + SumSize(kind)) return "";
  // verify_header(): magic, length, seed, offset, numberio, the header's crc.
  const uint64_t magic = Get(buf, 2), hlen = Get(buf + 4, 4), seed = Get(buf + 8, 8),
                 hoff = Get(buf + 16, 8), numberio = Get(buf + 34, 2), crc = Get(buf + 36, 4);
  if (magic != kVerifyMagic) {
    std::snprintf(m, sizeof(m), "verify: bad magic header %llx, wanted %x",
                  static_cast<unsigned long long>(magic), kVerifyMagic);
  } else if (hlen != len) {
    std::snprintf(m, sizeof(m), "verify: bad header length %llu, wanted %llu",
                  static_cast<unsigned long long>(hlen), ulen);
  } else if (check_seed && seed != io_expect.rand_seed) {
    std::snprintf(m, sizeof(m), "verify: bad header rand_seed %llu, wanted %llu",
                  static_cast<unsigned long long>(seed),
                  static_cast<unsigned long long>(io_expect.rand_seed));
  } else if (hoff != off) {
    // fio names the I/O's offset as the one wanted.
    std::snprintf(m, sizeof(m), "verify: bad header offset %llu, wanted %llu",
                  static_cast<unsigned long long>(hoff),
                  static_cast<unsigned long long>(io.offset));
  } else if (check_seed && numberio != io_expect.numberio) {
    std::snprintf(m, sizeof(m), "verify: bad header numberio %llu, wanted %u",
                  static_cast<unsigned long long>(numberio), io_expect.numberio);
  } else if (crc != Crc32c(buf, kCrcOffset)) {
    std::snprintf(m, sizeof(m), "verify: bad header crc %llx, calculated %x",
                  static_cast<unsigned long long>(crc), Crc32c(buf, kCrcOffset));
  } else {
    m[0] = '\0';
  }
  if (m[0]) {
    char tail[200];
    std::snprintf(tail, sizeof(tail),
                  " at file %s offset %llu, length %llu (requested block: offset=%llu, "
                  "length=%llu)\n",
                  file.c_str(), static_cast<unsigned long long>(off), ulen,
                  static_cast<unsigned long long>(io.offset),
                  static_cast<unsigned long long>(io.length));
    return std::string(m) + tail;
  }
  const uint64_t sum = SumSize(kind);
  if (!sum) {
    // meta: the header; with a verify_pattern (verify_io_u(): VERIFY_HDR_ONLY
    // and verify_pattern_bytes), the pattern over the rest of the block.
    if (pattern.empty()) return "";
    std::string bad = PatternMismatch(pattern, at + kHdrSize, buf + kHdrSize, len - kHdrSize);
    return bad.empty() ? "" : bad + Failure("pattern", file, off, len, io);
  }
  // verify_io_u_<type>(): the sum over the data, compared with the field.
  uint8_t got[128];
  FillSum(kind, buf + kHdrSize + sum, len - kHdrSize - sum, got);
  if (std::memcmp(got, buf + kHdrSize, sum) == 0) return "";
  std::string out = Failure(SumName(kind), file, off, len, io) +
                    "       Expected CRC: " + Hex(buf + kHdrSize, sum) +
                    "\n       Received CRC: " + Hex(got, sum) + "\n";
  // verify_io_u(): the type the block says it was written with, when
  // another.
  if (const uint64_t media = Get(buf + 2, 2); media != static_cast<uint16_t>(kind)) {
    std::snprintf(m, sizeof(m), "fio: verify type mismatch (%llu media, %u given)\n",
                  static_cast<unsigned long long>(media), static_cast<unsigned>(kind));
    out += m;
  }
  return out;
}

}  // namespace

VerifyKind VerifyKindFromName(std::string_view n) {
  // options.c's verify= values.
  static constexpr std::pair<std::string_view, VerifyKind> kNames[] = {
      {"md5", VerifyKind::kMd5},           {"crc64", VerifyKind::kCrc64},
      {"crc32", VerifyKind::kCrc32},       {"crc32c-intel", VerifyKind::kCrc32c},
      {"crc32c", VerifyKind::kCrc32c},     {"crc16", VerifyKind::kCrc16},
      {"crc7", VerifyKind::kCrc7},         {"sha1", VerifyKind::kSha1},
      {"sha256", VerifyKind::kSha256},     {"sha512", VerifyKind::kSha512},
      {"sha3-224", VerifyKind::kSha3_224}, {"sha3-256", VerifyKind::kSha3_256},
      {"sha3-384", VerifyKind::kSha3_384}, {"sha3-512", VerifyKind::kSha3_512},
      {"xxhash", VerifyKind::kXxhash},     {"meta", VerifyKind::kMeta},
      {"pattern", VerifyKind::kPattern},   {"null", VerifyKind::kNull},
  };
  for (const auto& [name, kind] : kNames) {
    if (n == name) return kind;
  }
  return VerifyKind::kNone;
}

Result<std::vector<uint8_t>> ParseVerifyPattern(std::string_view t, std::string_view where) {
  auto r = ParseFioPattern(t);
  if (!r.ok()) {
    return Status::InvalidArgument(std::string(where) + ": verify_pattern=" + Quoted(t) + ": " +
                                   r.status().message());
  }
  return r;
}

uint32_t Crc32c(const uint8_t* p, size_t n) {
  const auto& t = CrcTable();
  uint32_t c = ~0U;
  for (size_t i = 0; i < n; ++i) c = t[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return c;  // fio's crc32c_sw() starts at ~0 and does not invert at the end
}

uint64_t HeaderStep(uint64_t interval, uint64_t len) {
  return interval && interval <= len ? interval : len;
}

uint64_t VerifyHeaderSize(VerifyKind kind) {
  return kind == VerifyKind::kPattern ? 0 : kHdrSize + SumSize(kind);
}

void FillVerify(VerifyKind kind, const std::vector<uint8_t>& pattern, const VerifyBlock& b,
                uint8_t* buf, uint64_t len, uint64_t interval, uint64_t verify_offset) {
  if (kind == VerifyKind::kNone || kind == VerifyKind::kNull) return;
  // fill_verify_pattern(): verify_pattern's bytes, when given, replace the data.
  if (!pattern.empty()) {
    for (uint64_t i = 0; i < len; ++i) buf[i] = pattern[i % pattern.size()];
  }
  if (kind == VerifyKind::kPattern) return;
  // fill_pattern_headers(): a header every get_hdr_inc() bytes, its offset
  // the I/O's plus verify_interval per header before it (__fill_hdr()).
  const uint64_t step = HeaderStep(interval, len);
  VerifyBlock h = b;
  for (uint64_t at = 0, n = 0; at < len; at += step, ++n) {
    h.offset = b.offset + n * (interval ? interval : len);
    FillHeader(kind, h, buf + at, std::min(step, len - at));
    // populate_hdr(): verify_offset moves the header into its block.
    const uint64_t hs = VerifyHeaderSize(kind);
    if (verify_offset && at + verify_offset + hs <= len)
      MemSwap(buf + at, buf + at + verify_offset, hs);
  }
}

VerifyOutcome CheckVerify(VerifyKind kind, const std::vector<uint8_t>& pattern,
                          const VerifyBlock& expect, bool check_seed, const std::string& file,
                          const uint8_t* buf, uint64_t len, uint64_t interval, bool fatal,
                          bool async, uint64_t verify_offset) {
  VerifyOutcome out;
  if (kind == VerifyKind::kNone || kind == VerifyKind::kNull) return out;
  // io_u.h: IO_U_F_IN_CUR_DEPTH (8), IO_U_F_VER_LIST (0x80) for a read of
  // the verify pass (check_seed); verify_io_u_async() clears the first,
  // verify_async_thread() sets IO_U_F_NO_FILE_PUT (4).
  const unsigned flags = (async ? 0x4U : 0x8U) | (check_seed ? 0x80U : 0U);
  const IoSpan io{expect.offset, len, flags};
  if (kind == VerifyKind::kPattern) {
    // verify_io_u_pattern(): the first byte that differs.
    std::string bad = PatternMismatch(pattern, 0, buf, len);
    if (!bad.empty()) {
      out.messages = bad + Failure("pattern", file, expect.offset, len, io);
      out.failed = true;
      out.bad.push_back({0, len, false, out.messages});
    }
    return out;
  }
  // verify_io_u(): each header's block in turn. A bad header ends the
  // check; a bad checksum is reported and the next block checked, unless
  // verify_fatal — and, as in fio, the I/O's result is its last block's.
  const uint64_t step = HeaderStep(interval, len);
  // verify_io_u(): verify_offset's header is swapped back (memswp(), on
  // fio's read buffer; here on a copy).
  std::vector<uint8_t> own;
  const uint64_t hs = VerifyHeaderSize(kind);
  if (verify_offset) {
    own.assign(buf, buf + len);
    buf = own.data();
  }
  for (uint64_t at = 0, n = 0; at < len; at += step, ++n) {
    if (out.failed && fatal) break;
    const uint64_t off = expect.offset + n * (interval ? interval : len);
    const uint64_t blen = std::min(step, len - at);
    if (verify_offset && at + verify_offset + hs <= len)
      MemSwap(own.data() + at, own.data() + at + verify_offset, hs);
    std::string msg =
        CheckBlock(kind, pattern, expect, off, at, check_seed, file, buf + at, blen, io);
    out.failed = !msg.empty();
    if (!out.failed) continue;
    out.messages += msg;
    const bool header = msg.rfind("verify: ", 0) == 0;
    out.bad.push_back({at, blen, header, std::move(msg)});
    if (header) break;  // verify_header() returns
  }
  return out;
}

// verify_trimmed_io_u(): mem_is_zero(), and mem_is_zero_slow() for where
// the first byte that is not is.
VerifyOutcome CheckTrimmed(const std::string& file, uint64_t offset, const uint8_t* buf,
                           uint64_t len) {
  VerifyOutcome out;
  const uint8_t* nz = std::find_if(buf, buf + len, [](uint8_t b) { return b != 0; });
  if (nz == buf + len) return out;
  char m[256];
  std::snprintf(m, sizeof(m),
                "trim: verify failed at file %s offset %llu, length %llu, block offset %lu\n",
                file.c_str(), static_cast<unsigned long long>(offset),
                static_cast<unsigned long long>(len), static_cast<unsigned long>(nz - buf));
  out.messages = m;
  out.failed = true;
  return out;
}

}  // namespace storlab::fio
