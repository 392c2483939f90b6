#include "sim/serve/vfs/tree_vfs.h"

#include <fcntl.h>
#include <linux/falloc.h>

#include <algorithm>
#include <cstring>

#include "sim/serve/vfs/concurrent_join.h"

namespace storlab {
namespace {

uint32_t AllocationBlock(const ExportInfo& e) { return std::max<uint32_t>(4096, e.min_block); }

}  // namespace

TreeVfs::TreeVfs(Service& service, int export_index, const VfsOptions& options)
    : options_(options),
      session_(service.OpenSession(export_index)),
      io_(std::make_unique<BlockIo>(*session_, service.exports()[export_index])),
      tree_(service.exports()[export_index].size, AllocationBlock(service.exports()[export_index]),
            options.uid, options.gid) {}

size_t TreeVfs::inodes() const {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.inodes();
}

OpenAnswer TreeVfs::Answer() const {
  OpenAnswer a;
  a.direct_io = options_.cache == KernelCache::kDirectIo;
  a.keep_cache = options_.cache == KernelCache::kKeep;
  return a;
}

Result<struct stat> TreeVfs::Lookup(uint64_t parent, std::string_view name) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.Lookup(parent, name);
}

void TreeVfs::Forget(uint64_t ino, uint64_t n) {
  std::lock_guard<std::mutex> l(mu_);
  tree_.Forget(ino, n);
}

Result<struct stat> TreeVfs::GetAttr(uint64_t ino) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.GetAttr(ino);
}

Result<std::vector<DirEntry>> TreeVfs::ReadDir(uint64_t ino, uint64_t offset, size_t most) {
  std::lock_guard<std::mutex> l(mu_);
  ASSIGN_OR_RETURN(auto entries, tree_.ReadDir(ino, offset, most));
  std::vector<DirEntry> out;
  out.reserve(entries.size());
  for (auto& e : entries) out.push_back({std::move(e.name), e.ino, e.mode, e.next});
  return out;
}

Result<struct statvfs> TreeVfs::StatFs(uint64_t ino) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.StatFs();
}

Result<struct stat> TreeVfs::Mknod(uint64_t parent, std::string_view name, uint32_t mode,
                                   const Caller& who) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.Make(parent, name, mode & ~(who.umask & 0777), who.uid, who.gid);
}

Result<struct stat> TreeVfs::Mkdir(uint64_t parent, std::string_view name, uint32_t mode,
                                   const Caller& who) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.Make(parent, name, S_IFDIR | (mode & ~who.umask & 07777), who.uid, who.gid);
}

Result<struct stat> TreeVfs::Symlink(std::string_view target, uint64_t parent,
                                     std::string_view name, const Caller& who) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.Make(parent, name, S_IFLNK | 0777, who.uid, who.gid, target);
}

Result<std::string> TreeVfs::Readlink(uint64_t ino) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.Readlink(ino);
}

Status TreeVfs::Unlink(uint64_t parent, std::string_view name) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.Unlink(parent, name);
}

Status TreeVfs::Rmdir(uint64_t parent, std::string_view name) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.Rmdir(parent, name);
}

Status TreeVfs::Rename(uint64_t parent, std::string_view name, uint64_t new_parent,
                       std::string_view new_name, uint32_t flags) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.Rename(parent, name, new_parent, new_name, flags);
}

Result<struct stat> TreeVfs::Link(uint64_t ino, uint64_t new_parent, std::string_view new_name) {
  std::lock_guard<std::mutex> l(mu_);
  return tree_.Link(ino, new_parent, new_name);
}

void TreeVfs::SetAttr(uint64_t ino, const SetAttrs& set, AttrReply reply) {
  std::unique_lock<std::mutex> l(mu_);
  TreeFs::TruncatePlan plan;
  Status st;
  if (set.size) {
    auto p = tree_.Truncate(ino, static_cast<uint64_t>(set.attr.st_size));
    if (p.ok()) plan = *p;
    st = p.status();
  }
  if (st.ok() && set.mode) st = tree_.Chmod(ino, set.attr.st_mode);
  if (st.ok() && (set.uid || set.gid))
    st = tree_.Chown(ino, set.uid, set.attr.st_uid, set.gid, set.attr.st_gid);
  if (st.ok() && (set.atime || set.mtime)) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct timespec at = set.atime_now ? now : set.attr.st_atim;
    struct timespec mt = set.mtime_now ? now : set.attr.st_mtim;
    st = tree_.SetTimes(ino, set.atime ? &at : nullptr, set.mtime ? &mt : nullptr);
  }
  Result<struct stat> attr = st.ok() ? tree_.GetAttr(ino) : Result<struct stat>(st);
  l.unlock();
  if (!attr.ok() || plan.zero_length == 0) return reply(std::move(attr));
  // The cut block's tail must read as zeros if the file grows again.
  struct stat a = *attr;
  io_->Zero(plan.zero_offset, plan.zero_length, false,
            [a, reply = std::move(reply)](Status zs) mutable {
              if (!zs.ok()) return reply(std::move(zs));
              reply(a);
            });
}

Result<OpenAnswer> TreeVfs::Open(uint64_t ino, int flags) {
  std::lock_guard<std::mutex> l(mu_);
  ASSIGN_OR_RETURN(struct stat a, tree_.GetAttr(ino));
  if (S_ISDIR(a.st_mode) && (flags & O_ACCMODE) != O_RDONLY)
    return Status::IsDirectory("inode " + std::to_string(ino));
  // libfuse asks the kernel for atomic O_TRUNC: the truncate is ours. To
  // size 0 no block is cut, so there is nothing to zero on the device.
  if ((flags & O_TRUNC) && S_ISREG(a.st_mode) && (flags & O_ACCMODE) != O_RDONLY)
    RETURN_IF_ERROR(tree_.Truncate(ino, 0).status());
  return Answer();
}

Result<std::pair<struct stat, OpenAnswer>> TreeVfs::Create(uint64_t parent, std::string_view name,
                                                           uint32_t mode, int flags,
                                                           const Caller& who) {
  std::lock_guard<std::mutex> l(mu_);
  ASSIGN_OR_RETURN(struct stat a, tree_.Make(parent, name, S_IFREG | (mode & ~who.umask & 07777),
                                             who.uid, who.gid));
  return std::make_pair(a, Answer());
}

void TreeVfs::Read(uint64_t ino, uint64_t fh, uint64_t offset, size_t size, ReadReply reply) {
  if (Status st = CheckIoSize(size); !st.ok()) return reply(st, nullptr, 0);
  std::vector<TreeFs::Piece> pieces;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto p = tree_.PlanRead(ino, offset, size);
    if (!p.ok()) return reply(p.status(), nullptr, 0);
    pieces = std::move(p).value();
  }
  if (pieces.empty()) return reply(Status(), nullptr, 0);
  const uint64_t total = pieces.back().file_offset + pieces.back().length - offset;
  uint8_t* buf = new uint8_t[total];
  int reads = 0;
  for (const auto& p : pieces) {
    if (p.hole())
      std::memset(buf + (p.file_offset - offset), 0, p.length);
    else
      ++reads;
  }
  auto* join = new ConcurrentJoin(reads, [buf, total, reply = std::move(reply)](Status st) mutable {
    reply(st, st.ok() ? buf : nullptr, st.ok() ? total : 0);
    delete[] buf;
  });
  if (reads == 0) return;  // the join has answered
  for (const auto& p : pieces) {
    if (p.hole()) continue;
    io_->Read(p.device_offset, p.length, buf + (p.file_offset - offset),
              [join](Status st) { join->Arrive(std::move(st)); });
  }
}

void TreeVfs::Write(uint64_t ino, uint64_t fh, uint64_t offset, const uint8_t* data, size_t size,
                    WriteReply reply) {
  if (Status st = CheckIoSize(size); !st.ok()) return reply(st);
  if (size == 0) return reply(size_t{0});
  std::vector<TreeFs::Piece> pieces;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto p = tree_.PlanWrite(ino, offset, size);
    if (!p.ok()) return reply(p.status());
    pieces = std::move(p).value();
  }
  uint8_t* copy = new uint8_t[size];
  std::memcpy(copy, data, size);
  const uint32_t block = tree_.block();
  auto* join = new ConcurrentJoin(static_cast<int>(pieces.size()),
                                  [copy, size, reply = std::move(reply)](Status st) mutable {
                                    delete[] copy;
                                    if (!st.ok()) return reply(std::move(st));
                                    reply(size);
                                  });
  for (const auto& p : pieces) {
    io_->Write(p.device_offset, p.length, copy + (p.file_offset - offset), 0, p.fresh ? block : 0,
               [join](Status st) { join->Arrive(std::move(st)); });
  }
}

void TreeVfs::Fsync(uint64_t ino, uint64_t fh, bool datasync, StatusReply reply) {
  io_->Flush(std::move(reply));
}

void TreeVfs::Fallocate(uint64_t ino, uint64_t fh, int mode, uint64_t offset, uint64_t length,
                        StatusReply reply) {
  const bool keep = mode & FALLOC_FL_KEEP_SIZE;
  mode &= ~FALLOC_FL_KEEP_SIZE;
  Result<TreeFs::ZeroPlan> plan = TreeFs::ZeroPlan();
  {
    std::lock_guard<std::mutex> l(mu_);
    if (mode == 0) return reply(tree_.Allocate(ino, offset, length, keep));
    if (mode == FALLOC_FL_PUNCH_HOLE) {
      // The kernel refuses PUNCH_HOLE without KEEP_SIZE before it reaches a
      // file system (vfs_fallocate); a raw request gets the same answer.
      if (!keep) return reply(Status::NotSupported("PUNCH_HOLE without KEEP_SIZE"));
      plan = tree_.PunchHole(ino, offset, length);
    } else if (mode == FALLOC_FL_ZERO_RANGE) {
      plan = tree_.ZeroRange(ino, offset, length, keep);
    } else {
      return reply(Status::NotSupported("fallocate mode " + std::to_string(mode) +
                                        " (the tree mode has PUNCH_HOLE and ZERO_RANGE)"));
    }
  }
  if (!plan.ok()) return reply(plan.status());
  // The partial blocks at the ends, zeroed in place (the tree's lock is
  // released: the device I/O takes BlockIo's range lock).
  const auto& zero = plan->zero;
  if (zero.empty()) return reply(Status());
  auto* join = new ConcurrentJoin(static_cast<int>(zero.size()), std::move(reply));
  for (auto [dev, len] : zero)
    io_->Zero(dev, len, false, [join](Status st) { join->Arrive(std::move(st)); });
}

void TreeVfs::SyncAll(StatusReply reply) { io_->Flush(std::move(reply)); }

}  // namespace storlab
