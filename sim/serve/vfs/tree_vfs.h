// TreeVfs: a file tree on one exported device (the FUSE mount's --tree):
// the name space and block map of TreeFs (sim/fs/tree_fs.h) in memory,
// file data on the device through BlockIo, on the service's timeline — so
// `fio --directory` sees the device's seeks, RAID stripes and caches where
// a file system would have put its files. Holes and unwritten (fallocated)
// blocks read as zeros without device I/O; fsync and fdatasync flush the
// device; a full device is ENOSPC; PUNCH_HOLE frees whole blocks and
// ZERO_RANGE turns them unwritten, zeroing only the partial blocks at the
// ends on the device (as ext4 does; no discard is sent).
//
// Thread-safe (vfs.h). Lock order: mu_ (the tree), then BlockIo's range
// lock, taken only after mu_ is released.
#ifndef STORLAB_SIM_SERVE_VFS_TREE_VFS_H_
#define STORLAB_SIM_SERVE_VFS_TREE_VFS_H_

#include <memory>
#include <mutex>

#include "sim/fs/tree_fs.h"
#include "sim/serve/service.h"
#include "sim/serve/vfs/block_io.h"
#include "sim/serve/vfs/image_vfs.h"
#include "sim/serve/vfs/vfs.h"

namespace storlab {

class TreeVfs : public Vfs {
 public:
  // The tree lives on export `export_index` of `service`.
  // REQUIRES: `service` outlives this object and has been started.
  TreeVfs(Service& service, int export_index, const VfsOptions& options);
  TreeVfs(const TreeVfs&) = delete;
  TreeVfs& operator=(const TreeVfs&) = delete;

  Result<struct stat> Lookup(uint64_t parent, std::string_view name) override;
  void Forget(uint64_t ino, uint64_t n) override;
  Result<struct stat> GetAttr(uint64_t ino) override;
  Result<std::vector<DirEntry>> ReadDir(uint64_t ino, uint64_t offset, size_t most) override;
  Result<struct statvfs> StatFs(uint64_t ino) override;
  Result<struct stat> Mknod(uint64_t parent, std::string_view name, uint32_t mode,
                            const Caller& who) override;
  Result<struct stat> Mkdir(uint64_t parent, std::string_view name, uint32_t mode,
                            const Caller& who) override;
  Result<struct stat> Symlink(std::string_view target, uint64_t parent, std::string_view name,
                              const Caller& who) override;
  Result<std::string> Readlink(uint64_t ino) override;
  Status Unlink(uint64_t parent, std::string_view name) override;
  Status Rmdir(uint64_t parent, std::string_view name) override;
  Status Rename(uint64_t parent, std::string_view name, uint64_t new_parent,
                std::string_view new_name, uint32_t flags) override;
  Result<struct stat> Link(uint64_t ino, uint64_t new_parent, std::string_view new_name) override;
  void SetAttr(uint64_t ino, const SetAttrs& set, AttrReply reply) override;
  Result<OpenAnswer> Open(uint64_t ino, int flags) override;
  Result<std::pair<struct stat, OpenAnswer>> Create(uint64_t parent, std::string_view name,
                                                    uint32_t mode, int flags,
                                                    const Caller& who) override;
  void Release(uint64_t ino, uint64_t fh) override {}
  void Read(uint64_t ino, uint64_t fh, uint64_t offset, size_t size, ReadReply reply) override;
  void Write(uint64_t ino, uint64_t fh, uint64_t offset, const uint8_t* data, size_t size,
             WriteReply reply) override;
  void Fsync(uint64_t ino, uint64_t fh, bool datasync, StatusReply reply) override;
  void Fallocate(uint64_t ino, uint64_t fh, int mode, uint64_t offset, uint64_t length,
                 StatusReply reply) override;
  void SyncAll(StatusReply reply) override;

  // Inodes in memory (tests: nothing leaks).
  size_t inodes() const;

 private:
  OpenAnswer Answer() const;

  const VfsOptions options_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<BlockIo> io_;
  mutable std::mutex mu_;  // guards tree_
  TreeFs tree_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_VFS_TREE_VFS_H_
