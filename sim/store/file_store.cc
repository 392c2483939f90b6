#include "sim/store/file_store.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace storlab {
namespace {

Status Errno(const std::string& what, const std::string& path) {
  return Status::IoError(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

Result<std::unique_ptr<FileStore>> FileStore::Open(const std::string& path, uint64_t capacity) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot open", path);
  if (::ftruncate(fd, static_cast<off_t>(capacity)) != 0) {
    Status st = Errno("cannot size", path);
    ::close(fd);
    return st;
  }
  return std::unique_ptr<FileStore>(new FileStore(fd, path));
}

FileStore::~FileStore() { ::close(fd_); }

Status FileStore::Read(uint64_t off, uint64_t len, uint8_t* out) const {
  while (len > 0) {
    ssize_t n = ::pread(fd_, out, len, static_cast<off_t>(off));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("read from", path_);
    }
    if (n == 0) {  // beyond the end: reads as zeros
      std::memset(out, 0, len);
      break;
    }
    off += static_cast<uint64_t>(n);
    len -= static_cast<uint64_t>(n);
    out += n;
  }
  return Status();
}

Status FileStore::Write(uint64_t off, uint64_t len, const uint8_t* in) {
  while (len > 0) {
    ssize_t n = ::pwrite(fd_, in, len, static_cast<off_t>(off));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("write to", path_);
    }
    off += static_cast<uint64_t>(n);
    len -= static_cast<uint64_t>(n);
    in += n;
  }
  return Status();
}

Status FileStore::Zero(uint64_t off, uint64_t len) {
  if (::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(off),
                  static_cast<off_t>(len)) == 0) {
    return Status();
  }
  // The host file system cannot punch holes: write zeros instead.
  std::vector<uint8_t> zeros(std::min<uint64_t>(len, 1 << 20), 0);
  while (len > 0) {
    uint64_t n = std::min<uint64_t>(len, zeros.size());
    RETURN_IF_ERROR(Write(off, n, zeros.data()));
    off += n;
    len -= n;
  }
  return Status();
}

uint64_t FileStore::allocated_bytes() const {
  struct stat st;
  if (::fstat(fd_, &st) != 0) return 0;
  return static_cast<uint64_t>(st.st_blocks) * 512;
}

}  // namespace storlab
