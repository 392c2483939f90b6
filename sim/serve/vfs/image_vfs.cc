#include "sim/serve/vfs/image_vfs.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <time.h>

#include <algorithm>
#include <cstring>

#include "sim/serve/vfs/concurrent_join.h"

namespace storlab {
namespace {

struct timespec Now() {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return t;
}

}  // namespace

ImageVfs::ImageVfs(Service& service, const VfsOptions& options) : options_(options) {
  const struct timespec now = Now();
  root_.st_ino = kRootIno;
  root_.st_mode = S_IFDIR | 0755;
  root_.st_nlink = 2;
  root_.st_uid = options.uid;
  root_.st_gid = options.gid;
  root_.st_atim = root_.st_mtim = root_.st_ctim = now;
  for (size_t i = 0; i < service.exports().size(); ++i) {
    const ExportInfo& e = service.exports()[i];
    Image img;
    img.name = e.name + ".img";
    img.session = service.OpenSession(static_cast<int>(i));
    img.io = std::make_unique<BlockIo>(*img.session, e);
    struct stat& a = img.attr;
    a.st_ino = kFirstImage + i;
    a.st_mode = S_IFREG | 0644;
    a.st_nlink = 1;
    a.st_uid = options.uid;
    a.st_gid = options.gid;
    a.st_size = static_cast<off_t>(e.size);
    a.st_blocks = static_cast<blkcnt_t>(e.size / 512);
    a.st_blksize = e.preferred_block;
    a.st_atim = a.st_mtim = a.st_ctim = now;
    images_.push_back(std::move(img));
  }
}

ImageVfs::Image* ImageVfs::Find(uint64_t ino) {
  if (ino < kFirstImage || ino - kFirstImage >= images_.size()) return nullptr;
  return &images_[ino - kFirstImage];
}

Result<struct stat> ImageVfs::Lookup(uint64_t parent, std::string_view name) {
  if (parent != kRootIno)
    return GetAttr(parent).ok() ? Status::NotDirectory("an image file")
                                : Status::NotFound("no such inode");
  RETURN_IF_ERROR(CheckName(name));
  std::lock_guard<std::mutex> l(mu_);
  if (name == "." || name == "..") return root_;
  for (const Image& i : images_)
    if (i.name == name) return i.attr;
  return Status::NotFound("no image named that");
}

Result<struct stat> ImageVfs::GetAttr(uint64_t ino) {
  std::lock_guard<std::mutex> l(mu_);
  if (ino == kRootIno) return root_;
  if (Image* i = Find(ino)) return i->attr;
  return Status::NotFound("no inode " + std::to_string(ino));
}

Result<std::vector<DirEntry>> ImageVfs::ReadDir(uint64_t ino, uint64_t offset, size_t most) {
  if (ino != kRootIno) return Status::NotDirectory("inode " + std::to_string(ino));
  std::vector<DirEntry> out;
  // Offsets: 1 ".", 2 "..", 3 + i the i-th image.
  for (uint64_t o = offset; o < 2 + images_.size() && out.size() < most; ++o) {
    if (o == 0) out.push_back({".", kRootIno, S_IFDIR, 1});
    if (o == 1) out.push_back({"..", kRootIno, S_IFDIR, 2});
    if (o >= 2) out.push_back({images_[o - 2].name, kFirstImage + (o - 2), S_IFREG, o + 1});
  }
  return out;
}

Result<struct statvfs> ImageVfs::StatFs(uint64_t ino) {
  struct statvfs s = {};
  s.f_bsize = s.f_frsize = 4096;
  for (const Image& i : images_) s.f_blocks += (i.io->info().size + 4095) / 4096;
  s.f_files = images_.size() + 1;
  s.f_namemax = 255;
  return s;  // every block is in use (the images are fully allocated)
}

void ImageVfs::SetAttr(uint64_t ino, const SetAttrs& set, AttrReply reply) {
  std::unique_lock<std::mutex> l(mu_);
  struct stat* a = ino == kRootIno ? &root_ : nullptr;
  if (Image* i = Find(ino)) a = &i->attr;
  if (a == nullptr) {
    l.unlock();
    return reply(Status::NotFound("no inode " + std::to_string(ino)));
  }
  const struct timespec now = Now();
  if (set.mode) a->st_mode = (a->st_mode & S_IFMT) | (set.attr.st_mode & 07777);
  if (set.uid) a->st_uid = set.attr.st_uid;
  if (set.gid) a->st_gid = set.attr.st_gid;
  if (set.atime) a->st_atim = set.atime_now ? now : set.attr.st_atim;
  if (set.mtime) a->st_mtim = set.mtime_now ? now : set.attr.st_mtim;
  // set.size: ignored — an image is a disk, its size its capacity.
  a->st_ctim = now;
  const struct stat out = *a;
  l.unlock();
  reply(out);
}

Result<OpenAnswer> ImageVfs::Open(uint64_t ino, int flags) {
  if (ino == kRootIno) return Status::IsDirectory("the root");
  if (Find(ino) == nullptr) return Status::NotFound("no inode " + std::to_string(ino));
  OpenAnswer a;
  a.direct_io = options_.cache == KernelCache::kDirectIo;
  a.keep_cache = options_.cache == KernelCache::kKeep;
  return a;
}

void ImageVfs::Read(uint64_t ino, uint64_t fh, uint64_t offset, size_t size, ReadReply reply) {
  if (Status st = CheckIoSize(size); !st.ok()) return reply(st, nullptr, 0);
  Image* img = Find(ino);
  if (img == nullptr) return reply(Status::NotFound("no image inode"), nullptr, 0);
  const uint64_t cap = img->io->info().size;
  if (offset >= cap || size == 0) return reply(Status(), nullptr, 0);
  const uint64_t n = std::min<uint64_t>(size, cap - offset);
  uint8_t* buf = new uint8_t[n];
  img->io->Read(offset, n, buf, [buf, n, reply = std::move(reply)](Status st) mutable {
    reply(st, st.ok() ? buf : nullptr, st.ok() ? n : 0);
    delete[] buf;
  });
}

void ImageVfs::Write(uint64_t ino, uint64_t fh, uint64_t offset, const uint8_t* data, size_t size,
                     WriteReply reply) {
  if (Status st = CheckIoSize(size); !st.ok()) return reply(st);
  Image* img = Find(ino);
  if (img == nullptr) return reply(Status::NotFound("no image inode"));
  const uint64_t cap = img->io->info().size;
  if (size == 0) return reply(size_t{0});
  if (offset >= cap) return reply(Status::NoSpace("a write past the end of the device"));
  const uint64_t n = std::min<uint64_t>(size, cap - offset);
  uint8_t* copy = new uint8_t[n];
  std::memcpy(copy, data, n);
  img->io->Write(offset, n, copy, 0, 0, [copy, n, reply = std::move(reply)](Status st) mutable {
    delete[] copy;
    if (st.ok()) return reply(static_cast<size_t>(n));
    reply(std::move(st));
  });
}

void ImageVfs::Fsync(uint64_t ino, uint64_t fh, bool datasync, StatusReply reply) {
  Image* img = Find(ino);
  if (img == nullptr) return reply(ino == kRootIno ? Status() : Status::NotFound("no inode"));
  img->io->Flush(std::move(reply));
}

void ImageVfs::Fallocate(uint64_t ino, uint64_t fh, int mode, uint64_t offset, uint64_t length,
                         StatusReply reply) {
  Image* img = Find(ino);
  if (img == nullptr) return reply(Status::NotFound("no image inode"));
  const uint64_t cap = img->io->info().size;
  const bool keep = mode & FALLOC_FL_KEEP_SIZE;
  mode &= ~FALLOC_FL_KEEP_SIZE;
  if (length == 0) return reply(Status::InvalidArgument("fallocate of zero length"));
  const bool past = offset >= cap || length > cap - offset;
  if (mode == 0) {
    // The image is allocated already; growing it is not possible.
    return reply(past && !keep ? Status::NoSpace("a disk cannot grow") : Status());
  }
  if (mode != FALLOC_FL_PUNCH_HOLE && mode != FALLOC_FL_ZERO_RANGE)
    return reply(Status::NotSupported("fallocate mode " + std::to_string(mode)));
  if (mode == FALLOC_FL_PUNCH_HOLE && !keep)
    return reply(Status::NotSupported("PUNCH_HOLE without KEEP_SIZE"));
  if (offset >= cap) return reply(Status());
  img->io->Zero(offset, std::min(length, cap - offset), mode == FALLOC_FL_PUNCH_HOLE,
                std::move(reply));
}

void ImageVfs::SyncAll(StatusReply reply) {
  auto* join = new ConcurrentJoin(static_cast<int>(images_.size()), std::move(reply));
  for (Image& i : images_) i.io->Flush([join](Status st) { join->Arrive(std::move(st)); });
}

}  // namespace storlab
