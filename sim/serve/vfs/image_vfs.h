// ImageVfs: each exported device of a service as one image file in the
// root directory, `<export>.img`, its size the device's capacity — for
// losetup, mkfs, btrfs RAID, VM images, fio. Readable and writable at any
// offset (partial blocks through BlockIo's read-modify-write); a write past
// the end is ENOSPC, as on a block device, and a truncate leaves the size
// as it is (a disk cannot be resized; dd's O_TRUNC works). fsync and
// fdatasync flush the device; fallocate's PUNCH_HOLE discards (trim, where
// the export trims; reads return zeros afterwards), ZERO_RANGE writes zeros.
//
// Thread-safe (vfs.h).
#ifndef STORLAB_SIM_SERVE_VFS_IMAGE_VFS_H_
#define STORLAB_SIM_SERVE_VFS_IMAGE_VFS_H_

#include <memory>
#include <mutex>
#include <vector>

#include "sim/serve/service.h"
#include "sim/serve/vfs/block_io.h"
#include "sim/serve/vfs/vfs.h"

namespace storlab {

// What the kernel caches (the mount's --direct-io / --kernel-cache).
enum class KernelCache {
  kDefault,   // page cache for reads, dropped at each open; writes go through
  kDirectIo,  // FOPEN_DIRECT_IO: every read and write reaches the model
  kKeep,      // FOPEN_KEEP_CACHE: cached pages survive reopening
};

struct VfsOptions {
  KernelCache cache = KernelCache::kDefault;
  uint32_t uid = 0, gid = 0;  // the owner of what the mount shows
};

class ImageVfs : public Vfs {
 public:
  static constexpr uint64_t kFirstImage = 16;  // inodes 2-15: .storlab/

  // REQUIRES: `service` outlives this object and has been started.
  ImageVfs(Service& service, const VfsOptions& options);
  ImageVfs(const ImageVfs&) = delete;
  ImageVfs& operator=(const ImageVfs&) = delete;

  Result<struct stat> Lookup(uint64_t parent, std::string_view name) override;
  void Forget(uint64_t ino, uint64_t n) override {}
  Result<struct stat> GetAttr(uint64_t ino) override;
  Result<std::vector<DirEntry>> ReadDir(uint64_t ino, uint64_t offset, size_t most) override;
  Result<struct statvfs> StatFs(uint64_t ino) override;
  void SetAttr(uint64_t ino, const SetAttrs& set, AttrReply reply) override;
  Result<OpenAnswer> Open(uint64_t ino, int flags) override;
  void Release(uint64_t ino, uint64_t fh) override {}
  void Read(uint64_t ino, uint64_t fh, uint64_t offset, size_t size, ReadReply reply) override;
  void Write(uint64_t ino, uint64_t fh, uint64_t offset, const uint8_t* data, size_t size,
             WriteReply reply) override;
  void Fsync(uint64_t ino, uint64_t fh, bool datasync, StatusReply reply) override;
  void Fallocate(uint64_t ino, uint64_t fh, int mode, uint64_t offset, uint64_t length,
                 StatusReply reply) override;
  void SyncAll(StatusReply reply) override;

 private:
  struct Image {
    std::string name;  // "<export>.img"
    std::unique_ptr<Session> session;
    std::unique_ptr<BlockIo> io;
    struct stat attr = {};  // guarded by mu_
  };
  // The image of inode `ino`, or nullptr.
  Image* Find(uint64_t ino);
  struct stat RootAttr() const;

  const VfsOptions options_;
  std::vector<Image> images_;
  struct stat root_ = {};
  mutable std::mutex mu_;  // guards the attributes
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_VFS_IMAGE_VFS_H_
