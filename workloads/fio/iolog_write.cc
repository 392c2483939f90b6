#include "workloads/fio/iolog_write.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "sim/quoted.h"

namespace storlab::fio {

IologWriter::IologWriter(std::string path)
    : path_(std::move(path)), text_("fio version 3 iolog\n") {}

void IologWriter::File(uint64_t usec, const std::string& name, const char* what) {
  text_ += std::to_string(usec) + " " + name + " " + what + "\n";
}

void IologWriter::Io(uint64_t usec, const std::string& name, const char* ddir, uint64_t offset,
                     uint64_t length) {
  text_ += std::to_string(usec) + " " + name + " " + ddir + " " + std::to_string(offset) + " " +
           std::to_string(length) + "\n";
}

Status IologWriter::CheckWritable() const {
  const size_t slash = path_.rfind('/');
  const std::string parent = slash == std::string::npos ? "." : path_.substr(0, slash + 1);
  if (access(parent.c_str(), W_OK) != 0) {
    return Status::InvalidArgument("write_iolog: cannot write " + Quoted(path_) + ": " +
                                   std::strerror(errno));
  }
  return Status();
}

Status IologWriter::Write() const {
  std::FILE* f = std::fopen(path_.c_str(), "a");
  if (!f) {
    return Status::InvalidArgument("write_iolog: cannot open " + Quoted(path_) + ": " +
                                   std::strerror(errno));
  }
  const bool ok = std::fwrite(text_.data(), 1, text_.size(), f) == text_.size();
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed) return Status::InvalidArgument("write_iolog: cannot write " + Quoted(path_));
  return Status();
}

}  // namespace storlab::fio
