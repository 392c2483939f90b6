// SimHost::NowaitCheck(): what RWF_NOWAIT does to a read or write on the
// simulated host, as Linux 6.1 (Debian 12's kernel) decides it.
#include <string_view>

#include "workloads/host/sim_host.h"

namespace storlab {

SimHost::Nowait SimHost::NowaitCheck(uint32_t file, Op op, uint64_t offset, uint64_t length,
                                     bool direct) {
  // kiocb_set_rw_flags(): RWF_NOWAIT on a file opened without FMODE_NOWAIT
  // is EOPNOTSUPP. OpenZFS's zpl_open() and NFS's nfs_file_open() do not
  // set it (ext4_file_open() and blkdev_open() do).
  if (page_cache_ == nullptr || page_cache_->nfs_client() != nullptr) return Nowait::kUnsupported;
  const ExtentFs::File& f = fs_->file(file);
  const bool block_device = std::string_view(f.name).starts_with("/dev/");
  if (op == Op::kWrite && !direct) {
    // ext4_buffered_write_iter() and blkdev_write_iter(): IOCB_NOWAIT
    // without IOCB_DIRECT is EOPNOTSUPP.
    return Nowait::kBufferedWrite;
  }
  if (op == Op::kWrite) {
    if (block_device) return Nowait::kProceeds;
    // ext4_dio_write_checks(): a write that extends the file or does not
    // overwrite allocated blocks (ext4_overwrite_io()) needs the inode
    // lock exclusive and may allocate: -EAGAIN under IOCB_NOWAIT.
    if (offset + length > f.size) return Nowait::kWouldBlock;
    scratch_.clear();
    if (!fs_->Map(file, offset, length, false, &scratch_).ok()) return Nowait::kWouldBlock;
    for (const auto& e : scratch_) {
      if (e.device_offset == ExtentFs::kHole) return Nowait::kWouldBlock;
    }
    return Nowait::kProceeds;
  }
  if (op != Op::kRead || direct) return Nowait::kProceeds;  // a direct read does not wait here
  // A buffered read: every page cached and up to date, no read-ahead asked
  // for (PageCache::ReadsWithoutIo()). A hole's zero pages are never kept
  // by the simulated cache, so a hole is a page to create:
  // filemap_create_folio() is -EAGAIN under IOCB_NOWAIT too.
  scratch_.clear();
  if (!fs_->Map(file, offset, length, false, &scratch_).ok()) return Nowait::kWouldBlock;
  for (const auto& e : scratch_) {
    if (e.device_offset == ExtentFs::kHole ||
        !page_cache_->ReadsWithoutIo(file, e.device_offset, e.length)) {
      return Nowait::kWouldBlock;
    }
  }
  return Nowait::kProceeds;
}

}  // namespace storlab
