#include "workloads/fio/append_printf.h"

#include <cstdarg>
#include <cstdio>

namespace storlab::fio {

void AppendPrintf(std::string* s, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  s->append(buf);
}

}  // namespace storlab::fio
