// Vfs's defaults (vfs.h): what a file system without a name space (the
// image mode) answers to the calls that would change one.
#include "sim/serve/vfs/vfs.h"

namespace storlab {
namespace {

Status NoNameSpace() {
  return Status::NotPermitted(
      "this mount shows one image per exported device and nothing else (mount with --tree for a "
      "file tree)");
}

}  // namespace

Status CheckName(std::string_view name) {
  if (name.empty()) return Status::InvalidArgument("an empty name");
  if (name.size() > 255) {
    return Status::NameTooLong("a name of " + std::to_string(name.size()) + " bytes (at most 255)");
  }
  if (name.find('/') != std::string_view::npos || name.find('\0') != std::string_view::npos)
    return Status::InvalidArgument("a name holding '/' or NUL");
  return Status();
}

Status CheckIoSize(size_t size) {
  if (size <= kMaxIo) return Status();
  return Status::InvalidArgument("a request of " + std::to_string(size) + " bytes (at most " +
                                 std::to_string(kMaxIo) + ")");
}

Result<struct stat> Vfs::Mknod(uint64_t, std::string_view, uint32_t, const Caller&) {
  return NoNameSpace();
}
Result<struct stat> Vfs::Mkdir(uint64_t, std::string_view, uint32_t, const Caller&) {
  return NoNameSpace();
}
Result<struct stat> Vfs::Symlink(std::string_view, uint64_t, std::string_view, const Caller&) {
  return NoNameSpace();
}
Result<std::string> Vfs::Readlink(uint64_t) {
  return Status::InvalidArgument("not a symbolic link");
}
Status Vfs::Unlink(uint64_t, std::string_view) { return NoNameSpace(); }
Status Vfs::Rmdir(uint64_t, std::string_view) { return NoNameSpace(); }
Status Vfs::Rename(uint64_t, std::string_view, uint64_t, std::string_view, uint32_t) {
  return NoNameSpace();
}
Result<struct stat> Vfs::Link(uint64_t, uint64_t, std::string_view) { return NoNameSpace(); }
Result<std::pair<struct stat, OpenAnswer>> Vfs::Create(uint64_t, std::string_view, uint32_t, int,
                                                       const Caller&) {
  return NoNameSpace();
}
Result<OpenAnswer> Vfs::OpenDir(uint64_t ino) {
  auto a = GetAttr(ino);
  if (!a.ok()) return a.status();
  if (!S_ISDIR(a->st_mode)) return Status::NotDirectory("inode " + std::to_string(ino));
  return OpenAnswer{};
}
void Vfs::Fallocate(uint64_t, uint64_t, int, uint64_t, uint64_t, StatusReply reply) {
  reply(Status::NotSupported("fallocate"));
}

}  // namespace storlab
