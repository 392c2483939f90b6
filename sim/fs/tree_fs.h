// TreeFs: the name space and the block map of a file tree whose file data
// lives on a simulated device — the FUSE mount's tree mode. Directories,
// names, inodes and their attributes live in memory (no metadata is written
// to the device); each regular file's data is placed on the device by the
// extent allocator (extent_fs.h), so seeks and RAID stripes see where a
// real file system would have put it. TreeFs does no I/O: PlanRead and
// PlanWrite say which device ranges a file range maps to, and its user
// (sim/serve/vfs/tree_vfs.h) moves the data.
//
// POSIX semantics it keeps: hard links (not to directories), symbolic
// links, rename with RENAME_NOREPLACE and RENAME_EXCHANGE (moving a
// directory into itself is EINVAL), unlink of an open file (the inode and
// its blocks live until the kernel forgets it), directory link counts,
// ctime/mtime updates, holes (a read of one needs no device I/O), ENOSPC
// before any block is taken. Permission checks are the kernel's
// (default_permissions).
//
// Invariant: the bytes of an allocated block past a file's size read as
// zeros — a write into fresh blocks pads them with zeros (Piece::fresh),
// and a truncate inside a block asks its user to zero the block's tail
// (TruncatePlan) — so growing a file never shows what the blocks held.
//
// Not thread-safe: its user serialises calls (one mutex).
#ifndef STORLAB_SIM_FS_TREE_FS_H_
#define STORLAB_SIM_FS_TREE_FS_H_

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/fs/extent_fs.h"
#include "sim/status.h"

namespace storlab {

class TreeFs {
 public:
  static constexpr uint64_t kRoot = 1;
  static constexpr size_t kNameMax = 255;
  static constexpr size_t kSymlinkMax = 4095;

  // A piece of a file range: on the device at device_offset, or a hole.
  struct Piece {
    uint64_t file_offset = 0, length = 0;
    uint64_t device_offset = ExtentFs::kHole;
    bool fresh = false;  // a write's: allocated for it (pad with zeros)
    bool hole() const { return device_offset == ExtentFs::kHole; }
  };
  // What a truncate leaves to do on the device: zero [offset, offset+length).
  struct TruncatePlan {
    uint64_t zero_offset = 0, zero_length = 0;
  };

  // A tree over [0, capacity) of a device, its root owned by uid:gid.
  // `block`: the allocation unit (a multiple of the device's logical block).
  TreeFs(uint64_t capacity, uint32_t block, uint32_t uid, uint32_t gid);
  TreeFs(const TreeFs&) = delete;
  TreeFs& operator=(const TreeFs&) = delete;

  uint32_t block() const { return space_.block_size(); }

  Result<struct stat> Lookup(uint64_t parent, std::string_view name);
  void Forget(uint64_t ino, uint64_t n);
  Result<struct stat> GetAttr(uint64_t ino) const;
  struct statvfs StatFs() const;

  // Creates a node (S_IFREG, S_IFDIR, S_IFLNK with `target`, S_IFIFO,
  // S_IFSOCK); counts a lookup.
  Result<struct stat> Make(uint64_t parent, std::string_view name, uint32_t mode, uint32_t uid,
                           uint32_t gid, std::string_view target = {});
  Result<std::string> Readlink(uint64_t ino) const;
  Status Unlink(uint64_t parent, std::string_view name);
  Status Rmdir(uint64_t parent, std::string_view name);
  Status Rename(uint64_t parent, std::string_view name, uint64_t new_parent,
                std::string_view new_name, uint32_t flags);
  Result<struct stat> Link(uint64_t ino, uint64_t new_parent, std::string_view new_name);

  struct Entry {
    std::string name;
    uint64_t ino;
    uint32_t mode;
    uint64_t next;
  };
  Result<std::vector<Entry>> ReadDir(uint64_t ino, uint64_t offset, size_t most) const;

  // Attributes. Truncate: the size; its plan zeroes a cut block's tail.
  Status Chmod(uint64_t ino, uint32_t mode);
  Status Chown(uint64_t ino, bool set_uid, uint32_t uid, bool set_gid, uint32_t gid);
  Status SetTimes(uint64_t ino, const struct timespec* atime, const struct timespec* mtime);
  Result<TruncatePlan> Truncate(uint64_t ino, uint64_t size);

  // Data. REQUIRES for both: a regular file (else kIsDirectory / EINVAL).
  // The pieces of [offset, offset + length) clipped at the file's size;
  // holes as pieces with hole().
  Result<std::vector<Piece>> PlanRead(uint64_t ino, uint64_t offset, uint64_t length) const;
  // Allocates the holes of [offset, offset + length) (kNoSpace, taking
  // nothing, if they do not fit), grows the size, sets mtime.
  Result<std::vector<Piece>> PlanWrite(uint64_t ino, uint64_t offset, uint64_t length);
  // fallocate: allocates the holes of the range as unwritten blocks (as
  // ext4 does): they read as zeros without device I/O, and the first write
  // to one pads it with zeros. keep_size: the size does not grow.
  Status Allocate(uint64_t ino, uint64_t offset, uint64_t length, bool keep_size);
  // What a PUNCH_HOLE or ZERO_RANGE leaves to do on the device: zero these
  // ranges (device offset, length) — the written parts of the partial
  // blocks at the range's ends.
  struct ZeroPlan {
    std::vector<std::pair<uint64_t, uint64_t>> zero;
  };
  // fallocate(PUNCH_HOLE | KEEP_SIZE), as ext4_punch_hole: the blocks wholly
  // inside the range go back to the free space (holes again; no discard is
  // sent, as ext4 mounted without -o discard) and the partial blocks at its
  // ends are zeroed in place. Nothing changes past the block holding the
  // last byte (ext4 clips the hole there); the size stays.
  Result<ZeroPlan> PunchHole(uint64_t ino, uint64_t offset, uint64_t length);
  // fallocate(ZERO_RANGE), as ext4_zero_range: allocates the range's holes
  // (kNoSpace, taking nothing, if they do not fit), turns its whole blocks
  // unwritten (they read as zeros, no device I/O) and zeroes the partial
  // blocks at its ends in place. keep_size: the size does not grow.
  Result<ZeroPlan> ZeroRange(uint64_t ino, uint64_t offset, uint64_t length, bool keep_size);

  // Live inodes (for tests: nothing leaks after unlink and forget).
  size_t inodes() const { return nodes_.size(); }
  uint64_t free_bytes() const { return space_.free_bytes(); }

 private:
  struct Node {
    struct stat attr = {};
    uint64_t lookups = 0;
    uint32_t file = 0;    // ExtentFs id (regular files)
    std::string target;   // symbolic links
    uint64_t parent = 0;  // directories
    // Directories: name -> (ino, cookie); cookie -> name, the readdir order.
    std::map<std::string, std::pair<uint64_t, uint64_t>, std::less<>> names;
    std::map<uint64_t, std::string> order;
    uint64_t next_cookie = 3;  // 1 and 2 are "." and ".."
    // Regular files: allocated blocks not yet written (fallocate), as
    // block-aligned file ranges: start -> end.
    std::map<uint64_t, uint64_t> unwritten;
  };
  Result<Node*> Get(uint64_t ino);
  Result<const Node*> Get(uint64_t ino) const;
  Result<Node*> GetDir(uint64_t ino);
  static bool IsDir(const Node& n) { return S_ISDIR(n.attr.st_mode); }
  void AddName(Node& dir, std::string_view name, uint64_t ino);
  void DropName(Node& dir, std::string_view name);
  // Drops the node when nothing references it any more.
  void MaybeFree(uint64_t ino);
  bool IsAncestor(uint64_t dir, uint64_t of) const;  // dir is `of` or above it
  void Touch(Node& n, bool mtime, bool ctime);
  void UpdateBlocks(Node& n);
  Status CheckSpace(const Node& n, uint64_t offset, uint64_t length) const;
  // InvalidArgument unless [offset, offset + length) ends within the
  // largest file (2^60 bytes).
  static Status CheckRange(uint64_t offset, uint64_t length);
  // Splits allocated pieces at the node's unwritten ranges; those parts
  // become holes (a read) or fresh (a write, which also marks them written).
  void ApplyUnwritten(Node& n, std::vector<Piece>& pieces, bool write);
  // Adds / removes the block-aligned file range [u0, u1) to / from the
  // node's unwritten ranges (merging / splitting neighbours).
  static void AddUnwritten(Node& n, uint64_t u0, uint64_t u1);
  static void EraseUnwritten(Node& n, uint64_t u0, uint64_t u1);
  // The parts of [offset, end) outside its whole blocks, clipped at the
  // size, mapped to the device where written: appended to plan->zero.
  void PlanPartialZero(Node& n, uint64_t offset, uint64_t end, ZeroPlan* plan);

  ExtentFs space_;
  std::unordered_map<uint64_t, std::unique_ptr<Node>> nodes_;
  uint64_t next_ino_ = 16;  // 2-15 are left to the user (the mount's .storlab/)
};

}  // namespace storlab

#endif  // STORLAB_SIM_FS_TREE_FS_H_
