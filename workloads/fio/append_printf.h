// AppendPrintf: printf onto the end of a string, as fio's reports are built
// line by line (output_normal.cc, output_terse.cc). At most 1023 bytes per
// call.
#ifndef STORLAB_WORKLOADS_FIO_APPEND_PRINTF_H_
#define STORLAB_WORKLOADS_FIO_APPEND_PRINTF_H_

#include <string>

namespace storlab::fio {

void AppendPrintf(std::string* s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_APPEND_PRINTF_H_
