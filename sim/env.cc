// Env: the errno mapping and the helpers every Env shares (the host's own
// calls are in env_posix.cc).
#include "sim/env.h"

#include <cerrno>
#include <cstring>

namespace storlab {

Status ErrnoStatus(int err) {
  const char* why = std::strerror(err);
  switch (err) {
    case ENOSPC:
    case EDQUOT:
      return Status::NoSpace(why);
    case ENOENT:
      return Status::NotFound(why);
    case EROFS:
      return Status::ReadOnly(why);
    case EACCES:
    case EPERM:
      return Status::NotPermitted(why);
    default:
      return Status::IoError(why);
  }
}

Result<std::string> ReadWholeFile(File& file, uint64_t max_bytes) {
  std::string text;
  char buf[1 << 16];
  for (;;) {
    ASSIGN_OR_RETURN(size_t n,
                     file.ReadAt(text.size(), sizeof buf, reinterpret_cast<uint8_t*>(buf)));
    if (n == 0) return text;
    if (text.size() + n > max_bytes) {
      return Status::InvalidArgument("larger than " + std::to_string(max_bytes) + " bytes");
    }
    text.append(buf, n);
  }
}

Status WriteWholeFile(File& file, std::string_view data) {
  uint64_t off = 0;
  while (off < data.size()) {
    ASSIGN_OR_RETURN(size_t n, file.WriteAt(off, data.size() - off,
                                            reinterpret_cast<const uint8_t*>(data.data()) + off));
    if (n == 0) return Status::IoError("a write wrote nothing");
    off += n;
  }
  return Status();
}

}  // namespace storlab
