// ErrorPolicy: which I/O errors a fio job counts and goes on after, from
// continue_on_error= and ignore_error= (fio 3.33 td_error.c, options.c
// str_ignore_error_cb / ignore_error_type). An error is of one of three
// types (td_error_type: EILSEQ is a verify error, otherwise the I/O's
// direction); a type that continue_on_error names goes on after the errors
// of its ignore_error list, by default EIO and EILSEQ (td_non_fatal_error).
// Thread-compatible (a value).
#ifndef STORLAB_WORKLOADS_FIO_ERROR_POLICY_H_
#define STORLAB_WORKLOADS_FIO_ERROR_POLICY_H_

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/status.h"

namespace storlab::fio {

struct ErrorPolicy {
  // fio's enum error_type_bit.
  static constexpr int kReadType = 0, kWriteType = 1, kVerifyType = 2, kTypes = 3;

  uint32_t continue_mask = 0;  // fio's continue_on_error: 1 << type (0xffff: all)
  // Per type, the errnos that do not end the job; empty: EIO and EILSEQ.
  std::array<std::vector<int>, kTypes> ignore;

  // td_error_type(): the type of error `err` of an I/O of direction `dir`
  // (0 read, anything else write; fsync counts as a write).
  static int Type(int dir, int err);
  // td_non_fatal_error(): the job counts `err` and goes on.
  bool NonFatal(int type, int err) const;
  // The job counts its errors at all (fio's ts->continue_on_error: the
  // "errors" line and the total_err / first_error JSON keys).
  bool counts() const { return continue_mask != 0; }
};

// continue_on_error=VALUE, one of the option table's values (none, read,
// write, io, verify, all, 0, 1): replaces the mask, as fio's FIO_OPT_STR.
void SetContinueOnError(ErrorPolicy* p, std::string_view value);
// ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST, each a ':' list of errno
// names (EIO, ENOSPC, ... as fio's str2error knows them) or numbers; a
// non-empty list replaces its type's and adds the type to the mask.
// `value` must have passed CheckIgnoreError.
void ApplyIgnoreError(ErrorPolicy* p, std::string_view value);
// What fio rejects: an unknown name, 0 or no number, more than three lists.
Status CheckIgnoreError(std::string_view value);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_ERROR_POLICY_H_
