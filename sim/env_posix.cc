// Env::Default(): the host's POSIX calls (open, pread, pwrite, ftruncate,
// fallocate, fstat, stat), retried on EINTR.
#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "sim/env.h"

namespace storlab {
namespace {

class PosixFile : public File {
 public:
  explicit PosixFile(int fd) : fd_(fd) {}
  ~PosixFile() override { ::close(fd_); }

  Result<size_t> ReadAt(uint64_t off, size_t n, uint8_t* out) override {
    for (;;) {
      const ssize_t r = ::pread(fd_, out, n, static_cast<off_t>(off));
      if (r >= 0) return static_cast<size_t>(r);
      if (errno != EINTR) return ErrnoStatus(errno);
    }
  }
  Result<size_t> WriteAt(uint64_t off, size_t n, const uint8_t* in) override {
    for (;;) {
      const ssize_t r = ::pwrite(fd_, in, n, static_cast<off_t>(off));
      if (r >= 0) return static_cast<size_t>(r);
      if (errno != EINTR) return ErrnoStatus(errno);
    }
  }
  Status Truncate(uint64_t size) override {
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) return ErrnoStatus(errno);
    return Status();
  }
  Status PunchHole(uint64_t off, uint64_t len) override {
    if (::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(off),
                    static_cast<off_t>(len)) != 0) {
      return ErrnoStatus(errno);
    }
    return Status();
  }
  Result<uint64_t> AllocatedBytes() override {
    struct stat st;
    if (::fstat(fd_, &st) != 0) return ErrnoStatus(errno);
    return static_cast<uint64_t>(st.st_blocks) * 512;
  }

 private:
  int fd_;
};

Result<std::unique_ptr<File>> Open(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus(errno);
  return std::unique_ptr<File>(new PosixFile(fd));
}

class PosixEnv : public Env {
 public:
  Result<std::unique_ptr<File>> OpenReadWrite(const std::string& path) override {
    return Open(path, O_RDWR | O_CREAT);
  }
  Result<std::unique_ptr<File>> OpenReadOnly(const std::string& path) override {
    return Open(path, O_RDONLY);
  }
  Result<FileInfo> Stat(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) return FileInfo{};
      return ErrnoStatus(errno);
    }
    const bool regular = S_ISREG(st.st_mode);
    return FileInfo{true, regular, regular ? static_cast<uint64_t>(st.st_size) : 0};
  }
};

}  // namespace

Env* Env::Default() {
  static Env* const env = new PosixEnv();  // never deleted: usable until exit
  return env;
}

}  // namespace storlab
