#include "sim/serve/control_socket.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/fd_io.h"
#include "sim/quoted.h"
#include "sim/serve/control.h"

namespace storlab {
namespace {

Status Errno(const std::string& what) {
  return Status::IoError("control socket: " + what + ": " + std::strerror(errno));
}

// Whether something listens on the socket at `path`.
bool Listening(const sockaddr_un& addr) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  bool up = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return up;
}

}  // namespace

Status ControlSocket::Start() {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path_.empty() || path_.size() >= sizeof addr.sun_path) {
    return Status::InvalidArgument("control socket: the path must be 1 to " +
                                   std::to_string(sizeof addr.sun_path - 1) + " bytes");
  }
  std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
  struct stat st;
  if (::lstat(path_.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return Status::InvalidArgument("control socket: " + Quoted(path_, 256) +
                                     " exists and is not a socket (not replaced)");
    }
    if (Listening(addr)) {
      return Status::InvalidArgument("control socket: " + Quoted(path_, 256) +
                                     " is in use by another server");
    }
    ::unlink(path_.c_str());
  }
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return Errno("socket");
  // Linux creates the socket file with the socket inode's mode (less the
  // umask): set it first, so the file is never open to others.
  ::fchmod(listen_fd_, 0600);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    Status s = Errno("bind " + path_);
    ::close(listen_fd_);
    listen_fd_ = -1;
    return s;
  }
  bound_ = true;
  ::chmod(path_.c_str(), 0600);
  if (::listen(listen_fd_, 8) != 0 || ::pipe2(wake_, O_CLOEXEC) != 0) {
    Status s = Errno("listen " + path_);
    Stop();
    return s;
  }
  thread_ = std::thread([this] { Loop(); });
  return Status();
}

void ControlSocket::Stop() {
  if (thread_.joinable()) {
    char c = 0;
    (void)!::write(wake_[1], &c, 1);
    thread_.join();
  }
  for (int* fd : {&listen_fd_, &wake_[0], &wake_[1]}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  if (bound_) ::unlink(path_.c_str());
  bound_ = false;
}

void ControlSocket::Loop() {
  for (;;) {
    pollfd p[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (p[1].revents) return;
    if (!(p[0].revents & POLLIN)) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    Serve(fd);
    ::close(fd);
  }
}

void ControlSocket::Serve(int fd) {
  std::string buf;
  bool skipping = false;  // inside a line that was too long
  char chunk[4096];
  for (;;) {
    pollfd p[2] = {{fd, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (p[1].revents) return;
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    buf.append(chunk, static_cast<size_t>(n));
    size_t nl;
    while ((nl = buf.find('\n')) != std::string::npos) {
      std::string line = buf.substr(0, nl);
      buf.erase(0, nl + 1);
      if (skipping) {
        skipping = false;
        continue;
      }
      if (!WriteFull(fd, handler_(line) + "\n")) return;
    }
    if (buf.size() > kMaxControlLine) {
      // Answer once, then drop the rest of the line.
      if (!skipping && !WriteFull(fd, "error: control: line too long (at most " +
                                          std::to_string(kMaxControlLine) + " bytes)\n"))
        return;
      skipping = true;
      buf.clear();
    }
  }
}

}  // namespace storlab
