// fio's data patterns (lib/pattern.c parse_and_fill_pattern()), as
// buffer_pattern= and verify_pattern= take them: a sequence of tokens
// written one after another — "a string" (its bytes), 0xHEX (any number of
// digits; an odd count starts with a half byte), a decimal integer in
// [INT_MIN, INT_MAX] (its bytes, least significant first, up to the last
// non-zero one; 0 is one zero byte) — at most 512 bytes (MAX_PATTERN_SIZE).
// fio's '%o' formats (verify_pattern only) and 'file' tokens (the pattern
// read from a host file) are not modelled: an error says so.
// Thread-safe (pure functions).
#ifndef STORLAB_WORKLOADS_FIO_FIO_PATTERN_H_
#define STORLAB_WORKLOADS_FIO_FIO_PATTERN_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/status.h"

namespace storlab::fio {

// The pattern's bytes; an error says what is wrong (without the option).
Result<std::vector<uint8_t>> ParseFioPattern(std::string_view text);

// verify.c fill_buffer_pattern() / cpy_pattern(): `len` bytes of `pattern`
// repeated from its first byte.
void FillPattern(const std::vector<uint8_t>& pattern, uint8_t* buf, uint64_t len);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FIO_PATTERN_H_
