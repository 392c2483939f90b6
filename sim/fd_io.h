// Whole transfers on a file descriptor: the loops around send/recv (or
// write/read on a pipe) that retry EINTR and short counts, shared by the
// control socket, the transport probe and the power-cut children's reports.
// A socket is written with MSG_NOSIGNAL, so a peer that has gone away is a
// false return, not a SIGPIPE.
#ifndef STORLAB_SIM_FD_IO_H_
#define STORLAB_SIM_FD_IO_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace storlab {

// Writes all of `data`; false on an error or a closed peer.
bool WriteFull(int fd, std::string_view data);
// Reads exactly `n` bytes into `p`; false on an error or an early end.
bool ReadFull(int fd, char* p, size_t n);
// Reads until the end of the stream (or an error) and returns what came.
std::string ReadToEnd(int fd);

}  // namespace storlab

#endif  // STORLAB_SIM_FD_IO_H_
