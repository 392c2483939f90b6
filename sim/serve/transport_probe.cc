#include "sim/serve/transport_probe.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include "sim/fd_io.h"

namespace storlab {
namespace {

constexpr size_t kHeader = 16;

}  // namespace

Result<Nanos> ProbeSocketRoundTrip(uint64_t bytes, int samples, Clock& clock) {
  if (samples < 1 || bytes > (64u << 20))
    return Status::InvalidArgument("transport probe: bad size");
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return Status::IoError(std::string("transport probe: socketpair: ") + std::strerror(errno));
  const size_t answer = kHeader + bytes;
  const int warm = std::min(samples, 20);
  const int rounds = warm + samples;
  // The peer answers each request; it stops at the first failure (the
  // other end closed), so neither side can wait forever.
  std::thread peer([fd = sv[1], answer, rounds] {
    std::vector<char> buf(answer);
    for (int i = 0; i < rounds; ++i)
      if (!ReadFull(fd, buf.data(), kHeader) ||
          !WriteFull(fd, std::string_view(buf.data(), answer)))
        break;
    ::shutdown(fd, SHUT_RDWR);
  });
  std::vector<char> buf(answer);
  std::vector<int64_t> took;
  took.reserve(static_cast<size_t>(samples));
  bool ok = true;
  for (int i = 0; i < rounds && ok; ++i) {
    const int64_t t0 = clock.NowNanos();
    ok = WriteFull(sv[0], std::string_view(buf.data(), kHeader)) &&
         ReadFull(sv[0], buf.data(), answer);
    if (i >= warm) took.push_back(clock.NowNanos() - t0);
  }
  ::shutdown(sv[0], SHUT_RDWR);
  peer.join();
  ::close(sv[0]);
  ::close(sv[1]);
  if (!ok) return Status::IoError("transport probe: the socket pair failed");
  auto mid = took.begin() + static_cast<std::ptrdiff_t>(took.size() / 2);
  std::nth_element(took.begin(), mid, took.end());
  return Nanos(*mid);
}

}  // namespace storlab
