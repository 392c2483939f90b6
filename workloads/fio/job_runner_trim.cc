// JobRunner's trims (job_runner.h): rw=trim, randtrim, trimwrite and
// randtrimwrite as fio 3.33 does them. A trim is fio's do_io_u_trim()
// (io_u.c), which every engine calls inside its queue function and which
// returns at once (engines/sync.c, libaio.c, io_uring.c, posixaio.c:
// FIO_Q_COMPLETED): the job's thread waits for it, whatever the iodepth.
// os_trim() (os/os-linux.h) is ioctl(BLKDISCARD): on a block device it
// discards the range, on a regular file it fails with ENOTTY. And
// block_error_percentiles' entries, one per trim-sized block (block_infos.h).
#include <cerrno>
#include <string>
#include <utility>

#include "workloads/fio/job_runner.h"
#include "workloads/host/block_device.h"

namespace storlab::fio {

// io_u.c set_rw_ddir(): a trimwrite job trims a block, then writes it
// (td_trimwrite(): last_start[DDIR_WRITE] == last_start[DDIR_TRIM] means the
// pair is complete and the next I/O is a trim).
int JobRunner::TrimWriteDir() const {
  if (spec_.trim_write && trim_write_due_) return kWrite;
  return kTrim;
}

// io_u.c get_next_block() and get_next_buflen(): a trimwrite job's write
// goes where the trim went (f->last_start[DDIR_TRIM]) and is as long
// (last_pos - last_start), without marking the random map.
bool JobRunner::TrimWritePick(IoUnit* u) {
  if (!spec_.trim_write || !trim_write_due_ || u->dir != kWrite) return false;
  u->file = trim_file_;
  u->offset = trim_offset_;
  u->length = trim_length_;
  return true;
}

// backend.c io_bytes_exceeded(): a job's size= counts its reads and writes
// (td_rw), or its writes (td_write: trimwrite too), or its reads, or else
// its trims.
bool JobRunner::CountsToSize(int dir) const { return !spec_.trim_write || dir == kWrite; }

void JobRunner::SubmitTrim(IoUnit* u, Completion done) {
  if (spec_.trim_write && !u->ver_list) {  // a trim verify trim is not the pair's
    trim_file_ = u->file;
    trim_offset_ = u->offset;
    trim_length_ = u->length;
  }
  const FileState& f = files_[u->file];
  // BLKDISCARD on a regular file (block_device.h) is ENOTTY, as real fio
  // 3.33 reports on a file in /tmp.
  if (!IsBlockDevice(host_.fs().file(f.id).name)) {
    host_.engine().At(host_.engine().now(), [done = std::move(done)]() mutable {
      done(Status::NotSupported(std::string(kTrimNotBlock)));
    });
    return;
  }
  // blkdev_ioctl(BLKDISCARD) (block/ioctl.c blk_ioctl_discard()): the range
  // leaves the page cache and goes to the device as a discard; the ioctl
  // waits for it (blkdev_issue_discard()).
  host_.FileIo(f.id, Op::kTrim, u->offset, u->length, /*direct=*/true, std::move(done));
}

// filesetup.c setup_files(): block_error_percentiles' entries, one per
// trim bs of the file's io_size (fixup_options() allowed one file only).
void JobRunner::SetUpBlockInfos() {
  const FileState& f = files_.front();
  const uint64_t n = (f.size - f.start) / static_cast<uint64_t>(spec_.opts.bs[kTrim]);
  if (n == 0 || n > BlockInfos::kMaxBlocks) {
    messages_.push_back("fio: cannot calculate block histogram with " + std::to_string(n) +
                        " trim blocks, maximum " + std::to_string(BlockInfos::kMaxBlocks));
    std::string verror = "file:filesetup.c:1287, func=block_error_hist, error=Invalid argument";
    messages_.push_back("fio: pid=0, err=22/" + verror);
    FailSetup(EINVAL, std::move(verror));
    return;
  }
  ts_.blocks.Reset(n);
}

// io_u_block_info(): the entry of the block where `u` starts.
uint64_t JobRunner::BlockIndex(const IoUnit& u) const {
  return (u.offset - files_[u.file].zone_start) / static_cast<uint64_t>(spec_.opts.bs[kTrim]);
}

}  // namespace storlab::fio
