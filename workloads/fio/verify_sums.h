// What follows fio's verify header for each verify= type (verify.h's
// struct vhdr_*): its size (verify.c __hdr_size() less the header) and
// the bytes fill_<type>() puts there, computed over a block's data
// (digest.h), as fio 3.33 does on a little-endian host — including what
// fio 3.33 keeps of sha256 and sha512, which is not their digest
// (verify_sums.cc). Thread-safe (pure functions).
#ifndef STORLAB_WORKLOADS_FIO_VERIFY_SUMS_H_
#define STORLAB_WORKLOADS_FIO_VERIFY_SUMS_H_

#include <cstddef>
#include <cstdint>

#include "workloads/fio/verify.h"

namespace storlab::fio {

// sizeof(struct vhdr_<type>): 0 for meta, pattern, null.
size_t SumSize(VerifyKind kind);

// The name verify_io_u_<type>() logs a failure under ("md5", "sha3-224").
const char* SumName(VerifyKind kind);

// fill_<type>(): the SumSize(kind) bytes at `field` for the `n` data bytes
// at `data`.
void FillSum(VerifyKind kind, const uint8_t* data, size_t n, uint8_t* field);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_VERIFY_SUMS_H_
