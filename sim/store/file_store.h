// FileStore: a sparse file on the host holds the device's durable data.
//
// Created (or reopened, keeping its contents) at a given path and truncated
// or extended to the device's capacity. Zero() punches holes. Not
// thread-safe.
#ifndef STORLAB_SIM_STORE_FILE_STORE_H_
#define STORLAB_SIM_STORE_FILE_STORE_H_

#include <memory>
#include <string>

#include "sim/store/store.h"

namespace storlab {

class FileStore : public Store {
 public:
  static Result<std::unique_ptr<FileStore>> Open(const std::string& path, uint64_t capacity);
  ~FileStore() override;
  FileStore(const FileStore&) = delete;
  FileStore& operator=(const FileStore&) = delete;

  bool keeps_data() const override { return true; }
  Status Read(uint64_t off, uint64_t len, uint8_t* out) const override;
  Status Write(uint64_t off, uint64_t len, const uint8_t* in) override;
  Status Zero(uint64_t off, uint64_t len) override;
  uint64_t allocated_bytes() const override;
  const std::string& path() const { return path_; }

 private:
  FileStore(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_FILE_STORE_H_
