// SimHost::NowaitCheck(): what RWF_NOWAIT does to a read or write on the
// simulated host, as Linux 6.1 (Debian 12's kernel) decides it.
#include "workloads/host/block_device.h"
#include "workloads/host/sim_host.h"

namespace storlab {

SimHost::Nowait SimHost::NowaitCheck(uint32_t file, Op op, uint64_t offset, uint64_t length,
                                     bool direct) {
  // kiocb_set_rw_flags(): RWF_NOWAIT on a file opened without FMODE_NOWAIT
  // is EOPNOTSUPP. OpenZFS's zpl_open() and NFS's nfs_file_open() do not
  // set it (ext4_file_open() and blkdev_open() do).
  if (page_cache_ == nullptr || page_cache_->nfs_client() != nullptr) return Nowait::kUnsupported;
  // ext4_buffered_write_iter() and blkdev_write_iter(): IOCB_NOWAIT
  // without IOCB_DIRECT is EOPNOTSUPP.
  if (op == Op::kWrite && !direct) return Nowait::kBufferedWrite;
  if (op != Op::kRead && op != Op::kWrite) return Nowait::kProceeds;
  const ExtentFs::File& f = fs_->file(file);
  if (op == Op::kWrite && IsBlockDevice(f.name)) return Nowait::kProceeds;
  // A direct read does not wait here.
  if (op == Op::kRead && direct) return Nowait::kProceeds;
  // What is left asks of every extent of the range:
  // - a direct write to a file, ext4_dio_write_checks(): one that extends
  //   the file or does not overwrite allocated blocks (ext4_overwrite_io())
  //   needs the inode lock exclusive and may allocate: -EAGAIN;
  // - a buffered read: every page cached and up to date, no read-ahead
  //   asked for (PageCache::ReadsWithoutIo()). A hole's zero pages are
  //   never kept by the simulated cache, so a hole is a page to create:
  //   filemap_create_folio() is -EAGAIN under IOCB_NOWAIT too.
  if (op == Op::kWrite && offset + length > f.size) return Nowait::kWouldBlock;
  scratch_.clear();
  if (!fs_->Map(file, offset, length, false, &scratch_).ok()) return Nowait::kWouldBlock;
  for (const auto& e : scratch_) {
    if (e.device_offset == ExtentFs::kHole) return Nowait::kWouldBlock;
    if (op == Op::kRead && !page_cache_->ReadsWithoutIo(file, e.device_offset, e.length)) {
      return Nowait::kWouldBlock;
    }
  }
  return Nowait::kProceeds;
}

}  // namespace storlab
