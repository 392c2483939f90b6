// FileStore: a sparse file on the host holds the device's durable data.
//
// Created (or reopened, keeping its contents) at a given path and truncated
// or extended to the device's capacity. Zero() punches holes (or writes
// zeros where the host cannot). All access goes through an Env (sim/env.h),
// so tests inject the host's failures. Every error names the file, what
// failed and where ("write to PATH at offset N: No space left on device");
// a failed write leaves what was stored before it as it was (only the
// bytes of the failed write itself may be part new, part old, as on a real
// disk). Not thread-safe.
#ifndef STORLAB_SIM_STORE_FILE_STORE_H_
#define STORLAB_SIM_STORE_FILE_STORE_H_

#include <memory>
#include <string>

#include "sim/env.h"
#include "sim/store/store.h"

namespace storlab {

class FileStore : public Store {
 public:
  // `env` null: Env::Default(). REQUIRES: `env` outlives the store.
  static Result<std::unique_ptr<FileStore>> Open(const std::string& path, uint64_t capacity,
                                                 Env* env = nullptr);
  ~FileStore() override = default;
  FileStore(const FileStore&) = delete;
  FileStore& operator=(const FileStore&) = delete;

  bool keeps_data() const override { return true; }
  Status Read(uint64_t off, uint64_t len, uint8_t* out) const override;
  Status Write(uint64_t off, uint64_t len, const uint8_t* in) override;
  Status Zero(uint64_t off, uint64_t len) override;
  // 0 when the host cannot tell.
  uint64_t allocated_bytes() const override;
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;
  const std::string& path() const { return path_; }

 private:
  FileStore(std::unique_ptr<File> file, std::string path)
      : file_(std::move(file)), path_(std::move(path)) {}
  std::unique_ptr<File> file_;
  std::string path_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_FILE_STORE_H_
