// sim/fd_io: whole writes and reads on pipes and sockets, a closed peer
// reported as false (never SIGPIPE), an early end of a fixed-size read.
#include "sim/fd_io.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

namespace storlab {
namespace fd_io_test {

TEST(FdIo, APipeCarriesMoreThanItsBufferWhole) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  const std::string big(1 << 20, 'x');  // more than a pipe holds: short writes
  std::thread writer([&] {
    EXPECT_TRUE(WriteFull(p[1], big));
    close(p[1]);
  });
  const std::string got = ReadToEnd(p[0]);
  writer.join();
  close(p[0]);
  EXPECT_EQ(got, big);
}

TEST(FdIo, ASocketWhosePeerIsGoneIsFalseNotSigpipe) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  close(sv[1]);
  EXPECT_FALSE(WriteFull(sv[0], "hello"));  // a SIGPIPE would end the test binary
  close(sv[0]);
}

TEST(FdIo, AFixedSizeReadFailsAtAnEarlyEnd) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  ASSERT_TRUE(WriteFull(sv[1], "abc"));
  shutdown(sv[1], SHUT_WR);
  char buf[8] = {};
  EXPECT_TRUE(ReadFull(sv[0], buf, 2));
  EXPECT_EQ(std::string(buf, 2), "ab");
  EXPECT_FALSE(ReadFull(sv[0], buf, 4)) << "one byte left, four asked";
  close(sv[0]);
  close(sv[1]);
}

}  // namespace fd_io_test
}  // namespace storlab
