// Env::Default(): the host's POSIX calls (open, pread, pwrite, ftruncate,
// fallocate, fstat, stat, fsync, mkdir, readdir, rename, unlink, rmdir),
// retried on EINTR where a call can be interrupted.
#include <dirent.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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
  Status Sync() override {
    if (::fsync(fd_) != 0) return ErrnoStatus(errno);
    return Status();
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
    return FileInfo{true, regular, S_ISDIR(st.st_mode),
                    regular ? static_cast<uint64_t>(st.st_size) : 0};
  }
  Status CreateDir(const std::string& path) override {
    if (::mkdir(path.c_str(), 0755) != 0) return ErrnoStatus(errno);
    return Status();
  }
  Result<std::vector<std::string>> ListDir(const std::string& path) override {
    DIR* d = ::opendir(path.c_str());
    if (!d) return ErrnoStatus(errno);
    std::vector<std::string> names;
    errno = 0;
    while (const struct dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    const int err = errno;
    ::closedir(d);
    if (err) return ErrnoStatus(err);
    std::sort(names.begin(), names.end());
    return names;
  }
  Status SyncDir(const std::string& path) override {
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus(errno);
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0) return ErrnoStatus(err);
    return Status();
  }
  Status Rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return ErrnoStatus(errno);
    return Status();
  }
  Status RemoveFile(const std::string& path) override {
    if (::unlink(path.c_str()) != 0) return ErrnoStatus(errno);
    return Status();
  }
  Status RemoveDir(const std::string& path) override {
    if (::rmdir(path.c_str()) != 0) return ErrnoStatus(errno);
    return Status();
  }
};

}  // namespace

Env* Env::Default() {
  static Env* const env = new PosixEnv();  // never deleted: usable until exit
  return env;
}

}  // namespace storlab
