// FaultEnv: the host's Env with failures injected on cue (LevelDB's test
// ErrorEnv): an open that fails, reads or writes that fail with an errno,
// short reads and writes, a disk that fills up after so many bytes. Files
// opened through it check the knobs on every call, so a test can open a
// store, then break the disk under it. Not thread-safe.
#ifndef STORLAB_TESTS_SIM_FAULT_ENV_H_
#define STORLAB_TESTS_SIM_FAULT_ENV_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "sim/env.h"

namespace storlab::testing {

class FaultEnv : public EnvWrapper {
 public:
  static constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();

  FaultEnv() : EnvWrapper(Env::Default()) {}

  int open_errno = 0;                                     // opens fail with it
  int read_errno = 0;                                     // ReadAt fails with it
  int write_errno = 0;                                    // WriteAt fails with it
  int truncate_errno = 0;                                 // Truncate fails with it
  int punch_errno = 0;                                    // PunchHole fails with it
  int sync_errno = 0;                                     // File::Sync and SyncDir fail with it
  int rename_errno = 0;                                   // Rename fails with it
  size_t max_read = std::numeric_limits<size_t>::max();   // bytes per ReadAt (short reads)
  size_t max_write = std::numeric_limits<size_t>::max();  // bytes per WriteAt (short writes)
  // Bytes WriteAt may still write; then ENOSPC (a write that reaches the
  // limit is cut short first, as on a full disk).
  uint64_t space_left = kUnlimited;
  uint64_t opens = 0;  // opens attempted

  Result<std::unique_ptr<File>> OpenReadWrite(const std::string& path) override {
    return Wrap(target()->OpenReadWrite(path));
  }
  Result<std::unique_ptr<File>> OpenReadOnly(const std::string& path) override {
    return Wrap(target()->OpenReadOnly(path));
  }
  Status SyncDir(const std::string& path) override {
    if (sync_errno) return ErrnoStatus(sync_errno);
    return target()->SyncDir(path);
  }
  Status Rename(const std::string& from, const std::string& to) override {
    if (rename_errno) return ErrnoStatus(rename_errno);
    return target()->Rename(from, to);
  }

 private:
  class FaultFile : public File {
   public:
    FaultFile(FaultEnv& env, std::unique_ptr<File> base) : env_(env), base_(std::move(base)) {}
    Result<size_t> ReadAt(uint64_t off, size_t n, uint8_t* out) override {
      if (env_.read_errno) return ErrnoStatus(env_.read_errno);
      return base_->ReadAt(off, std::min(n, env_.max_read), out);
    }
    Result<size_t> WriteAt(uint64_t off, size_t n, const uint8_t* in) override {
      if (env_.write_errno) return ErrnoStatus(env_.write_errno);
      if (env_.space_left == 0) return ErrnoStatus(ENOSPC);
      n = std::min<uint64_t>({n, env_.max_write, env_.space_left});
      auto r = base_->WriteAt(off, n, in);
      if (r.ok() && env_.space_left != kUnlimited) env_.space_left -= *r;
      return r;
    }
    Status Truncate(uint64_t size) override {
      if (env_.truncate_errno) return ErrnoStatus(env_.truncate_errno);
      return base_->Truncate(size);
    }
    Status PunchHole(uint64_t off, uint64_t len) override {
      if (env_.punch_errno) return ErrnoStatus(env_.punch_errno);
      return base_->PunchHole(off, len);
    }
    Result<uint64_t> AllocatedBytes() override { return base_->AllocatedBytes(); }
    Status Sync() override {
      if (env_.sync_errno) return ErrnoStatus(env_.sync_errno);
      return base_->Sync();
    }

   private:
    FaultEnv& env_;
    std::unique_ptr<File> base_;
  };

  Result<std::unique_ptr<File>> Wrap(Result<std::unique_ptr<File>> base) {
    ++opens;
    if (open_errno) return ErrnoStatus(open_errno);
    if (!base.ok()) return base.status();
    return std::unique_ptr<File>(new FaultFile(*this, std::move(base).value()));
  }
};

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_FAULT_ENV_H_
