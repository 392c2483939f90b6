#include "sim/fd_io.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace storlab {

bool WriteFull(int fd, std::string_view data) {
  bool socket = true;
  while (!data.empty()) {
    const ssize_t n = socket ? ::send(fd, data.data(), data.size(), MSG_NOSIGNAL)
                             : ::write(fd, data.data(), data.size());
    if (n < 0 && socket && errno == ENOTSOCK) {
      socket = false;  // a pipe or a file: plain write from now on
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool ReadFull(int fd, char* p, size_t n) {
  while (n > 0) {
    const ssize_t k = ::read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

std::string ReadToEnd(int fd) {
  std::string s;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    s.append(buf, static_cast<size_t>(n));
  }
  return s;
}

}  // namespace storlab
