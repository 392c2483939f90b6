// fio's data verification (verify.c, verify.h) on the bytes a simulated
// stack really returns: what a write with verify= puts into its buffer
// (populate_verify_io_u(): a struct verify_header, then the checksum of the
// rest of the block, or verify_pattern's bytes), and the checks a read of
// the block makes (verify_io_u(), verify_header(), verify_io_u_crc32c(),
// ...), with fio 3.33's error messages.
//
// The header is fio 3.33's struct verify_header, 40 bytes, little-endian
// (checked against blocks real fio 3.33 wrote, tests/workloads/golden/verify):
//   0 u16 magic 0xacca   2 u16 verify_type   4 u32 len   8 u64 rand_seed
//  16 u64 offset        24 u32 time_sec     28 u32 time_nsec
//  32 u16 thread        34 u16 numberio     36 u32 crc32 (crc32c of bytes 0-35)
// followed by the checksum of the bytes after it up to len (verify_sums.h:
// 1 byte for crc7 up to 128 for sha512). meta: the header only; pattern:
// no header, the pattern.
// Thread-safe (pure functions).
#ifndef STORLAB_WORKLOADS_FIO_VERIFY_H_
#define STORLAB_WORKLOADS_FIO_VERIFY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/status.h"

namespace storlab::fio {

// fio's VERIFY_* values (verify.h), as they appear in verify_type.
enum class VerifyKind : uint16_t {
  kNone = 0,
  kMeta = 1,  // VERIFY_HDR_ONLY
  kMd5 = 2,
  kCrc64 = 3,
  kCrc32 = 4,
  kCrc32c = 5,  // crc32c-intel too (VERIFY_CRC32C_INTEL, 6, is never set)
  kCrc16 = 7,
  kCrc7 = 8,
  kSha256 = 9,
  kSha512 = 10,
  kSha3_224 = 11,
  kSha3_256 = 12,
  kSha3_384 = 13,
  kSha3_512 = 14,
  kXxhash = 15,
  kSha1 = 16,
  kPattern = 18,  // VERIFY_PATTERN_NO_HDR: verify=pattern, no header
  kNull = 19,     // pretend to verify
};

// From verify=NAME (option_table.cc's values); crc32c-intel is crc32c, as in
// fio 3.33 (the same verify_type 5 in the header).
VerifyKind VerifyKindFromName(std::string_view name);

// verify_pattern=0xHEX, a decimal number or a "string" (fio's
// parse_and_fill_pattern() for those forms). An error names the option.
Result<std::vector<uint8_t>> ParseVerifyPattern(std::string_view text, std::string_view where);

// fio's fio_crc32c(): CRC-32C (Castagnoli) without the final inversion,
// so "123456789" gives 0x1cf96d7c (~0xe3069283, the usual check value).
uint32_t Crc32c(const uint8_t* p, size_t n);

// verify_dump: a file fio writes when a block fails (verify.c dump_buf():
// NAME.OFFSET.received / .expected / .hdr_fail).
struct VerifyDumpFile {
  std::string name;
  std::vector<uint8_t> bytes;
};

// What a block's header says it is.
struct VerifyBlock {
  uint64_t offset = 0;
  uint64_t rand_seed = 0;
  uint64_t time_ns = 0;
  uint16_t thread = 1;
  uint16_t numberio = 0;
};

// An entry of the blocks a job wrote (fio's io_hist_list, struct io_piece):
// its file (the job's index), length and header.
struct VerifyPiece {
  uint32_t file;
  uint64_t length;  // 0: superseded
  VerifyBlock block;
  bool in_flight = true;           // its write has not completed (fio's IP_F_IN_FLIGHT)
  bool trim_listed = false;        // on the trim verify list (verify_trims.h)
  bool trimmed = false;            // trimmed since: reads back as zeros (fio's IP_F_TRIMMED)
  std::vector<uint8_t> data = {};  // verify_dump: what was written
};

// populate_verify_io_u(): fills `len` bytes at `buf` (its other bytes are
// the job's data) as fio would for `kind`: a header every `interval` bytes
// (verify_interval; 0 or more than `len`: one for the whole I/O), the
// n-th saying offset b.offset + n * interval.
// `verify_offset` (0: none): each header and its checksum then change
// places with the as many bytes that far into their block (populate_hdr(),
// memswp()). REQUIRES: they fit in the block (VerifyHeaderSize()).
void FillVerify(VerifyKind kind, const std::vector<uint8_t>& pattern, const VerifyBlock& b,
                uint8_t* buf, uint64_t len, uint64_t interval = 0, uint64_t verify_offset = 0);

// verify.c __hdr_size(): the header and its checksum field (0 for
// verify=pattern, which has none).
uint64_t VerifyHeaderSize(VerifyKind kind);

// What verify_io_u() found: fio's messages (lines ending in '\n') and
// whether the I/O failed.
struct VerifyOutcome {
  std::string messages;
  bool failed = false;
  // Each block that failed: where in the I/O, its length, whether its
  // header was bad (verify_header()) or its data, and its messages.
  struct Bad {
    uint64_t at, length;
    bool header;
    std::string message;
  };
  std::vector<Bad> bad;
};

// verify_io_u(): checks an I/O read back, header by header (`interval` as
// for FillVerify). `expect` holds what was written there (check_seed: the
// header's rand_seed and numberio must match, as in a write job's verify
// pass). A bad header ends the check; a bad checksum is reported and the
// check goes on (fatal: verify_fatal stops it), the I/O's result being its
// last block's, as in fio. Messages name `file`. `async` (verify_async=):
// checked by fio's verifier thread, whose io_u flags the messages show
// (IO_U_F_NO_FILE_PUT set, IO_U_F_IN_CUR_DEPTH cleared). `verify_offset`:
// as for FillVerify, each header is swapped back before it is checked.
VerifyOutcome CheckVerify(VerifyKind kind, const std::vector<uint8_t>& pattern,
                          const VerifyBlock& expect, bool check_seed, const std::string& file,
                          const uint8_t* buf, uint64_t len, uint64_t interval, bool fatal,
                          bool async = false, uint64_t verify_offset = 0);

// verify.c verify_trimmed_io_u(): a block trimmed by trim verify
// (trim_verify_zero=1) must read back as zeros; `offset` is the block's.
VerifyOutcome CheckTrimmed(const std::string& file, uint64_t offset, const uint8_t* buf,
                           uint64_t len);

// The same for one header over the whole I/O: "" or fio's message.
inline std::string CheckVerify(VerifyKind kind, const std::vector<uint8_t>& pattern,
                               const VerifyBlock& expect, bool check_seed, const std::string& file,
                               const uint8_t* buf, uint64_t len) {
  return CheckVerify(kind, pattern, expect, check_seed, file, buf, len, 0, false).messages;
}

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_VERIFY_H_
