// Env: every access of the simulator to the host's files, behind one
// interface (LevelDB's include/leveldb/env.h): the sparse files of a
// FileStore (sim/store/file_store.h) and the stack files the loader reads
// (sim/profile/stack_file.h). Env::Default() is the host's POSIX calls
// (sim/env_posix.cc); a test wraps it in an EnvWrapper and overrides one
// method to inject a failure (ENOSPC, EIO, a short read or write, an open
// that fails) — tests/sim/fault_env.h.
//
// Errors are values: a failed call returns the OS's reason (strerror) with
// its errno mapped to a Status code (ENOSPC: kNoSpace, ENOENT: kNotFound,
// EROFS: kReadOnly, EACCES/EPERM: kNotPermitted, any other: kIoError). The
// caller adds what it was doing and to which file (Status::WithContext), so
// a message reads "write to /var/x.img at offset 4096: No space left on
// device" whoever failed. Short reads and writes are not errors: the caller
// loops. Env::Default() is thread-safe; a File is not.
#ifndef STORLAB_SIM_ENV_H_
#define STORLAB_SIM_ENV_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/status.h"

namespace storlab {

// A Status for errno `err` (see above for the codes).
Status ErrnoStatus(int err);

// An open host file, read and written at explicit offsets (pread/pwrite).
class File {
 public:
  File() = default;
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  virtual ~File() = default;

  // Reads up to `n` bytes at `off` into `out`; returns how many, fewer on a
  // short read, 0 at or past the end of the file.
  virtual Result<size_t> ReadAt(uint64_t off, size_t n, uint8_t* out) = 0;
  // Writes up to `n` bytes at `off`; returns how many, fewer on a short
  // write. REQUIRES: opened by OpenReadWrite.
  virtual Result<size_t> WriteAt(uint64_t off, size_t n, const uint8_t* in) = 0;
  // Sets the file's size (extending it sparsely).
  virtual Status Truncate(uint64_t size) = 0;
  // Deallocates [off, off + len), keeping the size (reads give zeros);
  // kNotSupported (or another error) where the host cannot: the caller then
  // writes zeros.
  virtual Status PunchHole(uint64_t off, uint64_t len) = 0;
  // The bytes the host has allocated to the file (st_blocks × 512).
  virtual Result<uint64_t> AllocatedBytes() = 0;
  // Makes what was written durable (fsync).
  virtual Status Sync() = 0;
};

class Env {
 public:
  struct FileInfo {
    bool exists = false;
    bool regular = false;    // a regular file (not a directory, device, fifo)
    bool directory = false;  // a directory
    uint64_t size = 0;       // if regular
  };

  Env() = default;
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;
  virtual ~Env() = default;

  // The host's own calls. Never deleted.
  static Env* Default();

  // Opens `path` for reading and writing, creating it (mode 0644) if absent.
  virtual Result<std::unique_ptr<File>> OpenReadWrite(const std::string& path) = 0;
  // Opens an existing file for reading.
  virtual Result<std::unique_ptr<File>> OpenReadOnly(const std::string& path) = 0;
  // What is at `path` (a missing file is not an error: exists = false).
  virtual Result<FileInfo> Stat(const std::string& path) = 0;

  // Directories, for a saved state's atomic replacement (sim/state_dir.h).
  // Creates directory `path` (mode 0755); kExists if something is there.
  virtual Status CreateDir(const std::string& path) = 0;
  // The names in directory `path`, without "." and "..", sorted.
  virtual Result<std::vector<std::string>> ListDir(const std::string& path) = 0;
  // Makes directory `path`'s entries durable (fsync of the directory).
  virtual Status SyncDir(const std::string& path) = 0;
  // rename(2): `to` is replaced if it is a file or an empty directory.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Removes a file (unlink) or an empty directory (rmdir).
  virtual Status RemoveFile(const std::string& path) = 0;
  virtual Status RemoveDir(const std::string& path) = 0;
};

// Forwards every call to another Env, so a subclass overrides only what it
// changes (LevelDB's EnvWrapper).
class EnvWrapper : public Env {
 public:
  explicit EnvWrapper(Env* target) : target_(target) {}
  Env* target() const { return target_; }

  Result<std::unique_ptr<File>> OpenReadWrite(const std::string& path) override {
    return target_->OpenReadWrite(path);
  }
  Result<std::unique_ptr<File>> OpenReadOnly(const std::string& path) override {
    return target_->OpenReadOnly(path);
  }
  Result<FileInfo> Stat(const std::string& path) override { return target_->Stat(path); }
  Status CreateDir(const std::string& path) override { return target_->CreateDir(path); }
  Result<std::vector<std::string>> ListDir(const std::string& path) override {
    return target_->ListDir(path);
  }
  Status SyncDir(const std::string& path) override { return target_->SyncDir(path); }
  Status Rename(const std::string& from, const std::string& to) override {
    return target_->Rename(from, to);
  }
  Status RemoveFile(const std::string& path) override { return target_->RemoveFile(path); }
  Status RemoveDir(const std::string& path) override { return target_->RemoveDir(path); }

 private:
  Env* target_;
};

// Reads all of `file` from offset 0 (looping over short reads), at most
// `max_bytes` (more is kInvalidArgument).
Result<std::string> ReadWholeFile(File& file, uint64_t max_bytes);
// Writes all of `data` at offset 0 (looping over short writes).
Status WriteWholeFile(File& file, std::string_view data);

}  // namespace storlab

#endif  // STORLAB_SIM_ENV_H_
