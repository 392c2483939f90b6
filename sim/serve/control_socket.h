// ControlSocket: the control commands (control.h) over a Unix-domain stream
// socket — one line in, one line out, as many lines per connection as the
// client sends. The NBD plugin's control=SOCKET; anything that can write a
// line to a socket drives it (`socat - UNIX-CONNECT:SOCKET`, nc -U, python).
//
// The socket is created with mode 0600: only its owner may connect (the
// commands cut power and fail disks). An existing socket at the path is
// replaced only if nothing listens on it; any other file there is an error.
// Connections are served one at a time, by one thread of its own.
//
// Thread-safe: Start() and Stop() from the owner.
#ifndef STORLAB_SIM_SERVE_CONTROL_SOCKET_H_
#define STORLAB_SIM_SERVE_CONTROL_SOCKET_H_

#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include "sim/status.h"

namespace storlab {

class ControlSocket {
 public:
  using Handler = std::function<std::string(std::string_view line)>;

  ControlSocket(std::string path, Handler handler)
      : path_(std::move(path)), handler_(std::move(handler)) {}
  ~ControlSocket() { Stop(); }
  ControlSocket(const ControlSocket&) = delete;
  ControlSocket& operator=(const ControlSocket&) = delete;

  // Creates the socket and starts serving it.
  Status Start();
  // Stops serving, closes the socket and removes its path. Idempotent.
  void Stop();
  const std::string& path() const { return path_; }

 private:
  void Loop();
  void Serve(int fd);

  const std::string path_;
  const Handler handler_;
  int listen_fd_ = -1;
  bool bound_ = false;      // the path is ours to remove
  int wake_[2] = {-1, -1};  // a pipe: Stop() writes, the loop wakes
  std::thread thread_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_CONTROL_SOCKET_H_
