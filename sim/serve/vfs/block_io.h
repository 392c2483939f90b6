// BlockIo: byte-granular I/O on one export of the real-time service, for a
// file system that shows the device as a file (the FUSE mount's images) or
// places files on it (its tree mode). The kernel sends a FUSE file system
// any offset and any size; a device takes only whole logical blocks, and
// only so much per request. BlockIo turns each call into device requests:
//   - a read of partial blocks reads the whole blocks into a bounce buffer;
//   - a write of partial blocks reads the partial end blocks first and
//     writes whole blocks (read-modify-write), under an exclusive range lock
//     (range_lock.h) so that no other write to those blocks can slip in
//     between its read and its write; aligned writes take a shared lock;
//   - a write into freshly allocated space (`fresh_block` > 0) pads with
//     zeros to that granularity instead of reading, so what the device held
//     before the allocation never shows through;
//   - a request larger than the export's maximum is split, a few chunks in
//     flight at a time (a discard of a whole disk is one fallocate call).
// Each call answers exactly once, on a service reply thread or, for a call
// refused at once, on the caller's thread.
//
// Thread-safe: any number of calls may be in flight from any threads.
// REQUIRES: buffers stay valid until the call's answer has run.
#ifndef STORLAB_SIM_SERVE_VFS_BLOCK_IO_H_
#define STORLAB_SIM_SERVE_VFS_BLOCK_IO_H_

#include <cstdint>
#include <memory>

#include "sim/callback.h"
#include "sim/serve/service.h"
#include "sim/serve/vfs/rw_range_lock.h"
#include "sim/status.h"

namespace storlab {

class BlockIo {
 public:
  using Done = Callback<void(Status), 64>;

  // REQUIRES: `session` outlives this object.
  BlockIo(Session& session, const ExportInfo& info);
  BlockIo(const BlockIo&) = delete;
  BlockIo& operator=(const BlockIo&) = delete;

  const ExportInfo& info() const { return info_; }
  uint32_t block() const { return info_.min_block; }

  // Reads [offset, offset + length) into `buf`. REQUIRES: inside the device.
  void Read(uint64_t offset, uint64_t length, uint8_t* buf, Done done);
  // Writes `buf` to [offset, offset + length); `flags`: kFua. `fresh_block`:
  // 0, or the allocation unit of the space written, all of which was
  // allocated for this write (padded with zeros, not read).
  void Write(uint64_t offset, uint64_t length, const uint8_t* buf, uint32_t flags,
             uint32_t fresh_block, Done done);
  // The range reads as zeros afterwards. `unmap`: the device may deallocate
  // it (fallocate's PUNCH_HOLE: a trim where the export trims); otherwise
  // it stays allocated (ZERO_RANGE: write-zeroes with kNoUnmap).
  void Zero(uint64_t offset, uint64_t length, bool unmap, Done done);
  // Makes every write answered before it durable.
  void Flush(Done done);

  // The range check every caller makes first: OutOfRange unless
  // [offset, offset + length) lies inside the device.
  Status Check(uint64_t offset, uint64_t length) const;

 private:
  struct Chunked;
  // Submits [offset, offset + length) as requests of at most max_block,
  // `data` advancing with them (nullptr: no data).
  void Submit(Op op, uint32_t flags, uint64_t offset, uint64_t length, uint8_t* data, Done done);
  void WriteLocked(RwRangeLock::Held held, uint64_t offset, uint64_t length, const uint8_t* buf,
                   uint32_t flags, uint32_t fresh_block, Done done);

  Session& session_;
  const ExportInfo info_;
  RwRangeLock locks_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_VFS_BLOCK_IO_H_
