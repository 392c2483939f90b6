// Vfs: the file system a FUSE mount shows, as the inode operations of
// libfuse's low-level API, with answers through callbacks and no FUSE in
// it — so that fusefs/ is glue (one fuse_reply_* per answer) and the file
// system's logic is tested without a kernel (tests/serve/vfs_*_test.cc).
//
// Implementations: ImageVfs (one image file per exported device,
// image_vfs.h), TreeVfs (a file tree whose data the extent allocator places
// on a device, tree_vfs.h), and StorlabDir (control_dir.h), which wraps
// either and adds the .storlab/ folder with stats.json and control.
//
// Inode numbers are the kernel's (FUSE_ROOT_ID is 1). Every operation
// validates what it is given — names, offsets, sizes, inode numbers the
// kernel would never send — and answers with an error rather than trusting
// it. Operations that touch the device answer later, on a service reply
// thread; the others answer before they return. Each answers exactly once.
//
// Thread-safe: every method may be called from any thread, concurrently.
#ifndef STORLAB_SIM_SERVE_VFS_VFS_H_
#define STORLAB_SIM_SERVE_VFS_VFS_H_

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/callback.h"
#include "sim/status.h"

namespace storlab {

constexpr uint64_t kRootIno = 1;

// How the kernel should cache a file it opens (fuse_file_info's bits).
struct OpenAnswer {
  uint64_t fh = 0;
  bool direct_io = false;   // FOPEN_DIRECT_IO: every read and write reaches us
  bool keep_cache = false;  // FOPEN_KEEP_CACHE: keep cached pages across opens
  bool nonseekable = false;
};

struct DirEntry {
  std::string name;
  uint64_t ino = 0;
  uint32_t mode = 0;  // the type bits are what readdir reports
  uint64_t next = 0;  // the offset to continue after this entry
};

// Who asks (fuse_req_ctx): owner of what they create.
struct Caller {
  uint32_t uid = 0, gid = 0;
  uint32_t umask = 022;
};

// setattr's fields (FUSE_SET_ATTR_*), as plain flags.
struct SetAttrs {
  bool mode = false, uid = false, gid = false, size = false;
  bool atime = false, atime_now = false, mtime = false, mtime_now = false;
  struct stat attr = {};
};

class Vfs {
 public:
  using AttrReply = Callback<void(Result<struct stat>), 48>;
  using StatusReply = Callback<void(Status), 48>;
  // `data` is valid only during the call.
  using ReadReply = Callback<void(Status, const uint8_t* data, size_t size), 48>;
  using WriteReply = Callback<void(Result<size_t>), 48>;

  virtual ~Vfs() = default;

  // Name space (answer at once).
  virtual Result<struct stat> Lookup(uint64_t parent, std::string_view name) = 0;
  // The kernel dropped `n` references that Lookup, Create, Mkdir, Mknod,
  // Symlink or Link gave it.
  virtual void Forget(uint64_t ino, uint64_t n) = 0;
  virtual Result<struct stat> GetAttr(uint64_t ino) = 0;
  // Entries after `offset` (0: from the start), at most `most`.
  virtual Result<std::vector<DirEntry>> ReadDir(uint64_t ino, uint64_t offset, size_t most) = 0;
  virtual Result<struct statvfs> StatFs(uint64_t ino) = 0;
  virtual Result<struct stat> Mknod(uint64_t parent, std::string_view name, uint32_t mode,
                                    const Caller& who);
  virtual Result<struct stat> Mkdir(uint64_t parent, std::string_view name, uint32_t mode,
                                    const Caller& who);
  virtual Result<struct stat> Symlink(std::string_view target, uint64_t parent,
                                      std::string_view name, const Caller& who);
  virtual Result<std::string> Readlink(uint64_t ino);
  virtual Status Unlink(uint64_t parent, std::string_view name);
  virtual Status Rmdir(uint64_t parent, std::string_view name);
  // flags: RENAME_NOREPLACE, RENAME_EXCHANGE (others: EINVAL).
  virtual Status Rename(uint64_t parent, std::string_view name, uint64_t new_parent,
                        std::string_view new_name, uint32_t flags);
  virtual Result<struct stat> Link(uint64_t ino, uint64_t new_parent, std::string_view new_name);

  // Files. SetAttr may touch the device (a truncate zeroes a block's tail).
  virtual void SetAttr(uint64_t ino, const SetAttrs& set, AttrReply reply) = 0;
  virtual Result<OpenAnswer> Open(uint64_t ino, int flags) = 0;
  // Creates and opens (O_CREAT): both answers or an error.
  virtual Result<std::pair<struct stat, OpenAnswer>> Create(uint64_t parent, std::string_view name,
                                                            uint32_t mode, int flags,
                                                            const Caller& who);
  virtual void Release(uint64_t ino, uint64_t fh) = 0;
  virtual Result<OpenAnswer> OpenDir(uint64_t ino);
  virtual void Read(uint64_t ino, uint64_t fh, uint64_t offset, size_t size, ReadReply reply) = 0;
  // `data` is valid only during the call (an implementation that answers
  // later copies it).
  virtual void Write(uint64_t ino, uint64_t fh, uint64_t offset, const uint8_t* data, size_t size,
                     WriteReply reply) = 0;
  virtual void Fsync(uint64_t ino, uint64_t fh, bool datasync, StatusReply reply) = 0;
  // mode: 0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE | KEEP_SIZE,
  // FALLOC_FL_ZERO_RANGE (others: EOPNOTSUPP).
  virtual void Fallocate(uint64_t ino, uint64_t fh, int mode, uint64_t offset, uint64_t length,
                         StatusReply reply);
  // Flushes everything (syncfs).
  virtual void SyncAll(StatusReply reply) = 0;
};

// Name checks every Vfs makes: not empty, no '/' or NUL, at most 255 bytes.
Status CheckName(std::string_view name);

// The largest read or write a Vfs takes (the kernel sends at most max_write
// or max_pages, 1 MiB here); larger: kInvalidArgument, nothing allocated.
constexpr size_t kMaxIo = 64u << 20;
Status CheckIoSize(size_t size);

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_VFS_VFS_H_
