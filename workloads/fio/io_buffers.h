// IoBuffers: the data of a job's I/O units, as fio makes it, for runs that
// keep data (power cuts, the oracle).
//
// fio allocates one buffer per iodepth slot and fills each once with random
// bytes (io_u.c: init_io_u → fill_io_buffer → fill_random_buf); with the
// default scramble_buffers=1 it changes, before each write, a few bytes of
// every 512-byte sector — the sector's file offset at one of the first eight
// 64-byte lines, chosen from the start time and offset, and the start time
// (seconds, nanoseconds) at the end of the first line
// (io_u.c: small_content_scramble). So every write carries content of its
// own, and an old version of a block can be told from a new one.
// Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_IO_BUFFERS_H_
#define STORLAB_WORKLOADS_FIO_IO_BUFFERS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/time.h"

namespace storlab::fio {

class IoBuffers {
 public:
  IoBuffers() = default;
  // `slots` buffers of `size` bytes, filled from `seed`.
  IoBuffers(size_t slots, uint64_t size, uint64_t seed);

  bool empty() const { return bufs_.empty(); }
  uint8_t* slot(size_t i) { return bufs_[i].get(); }
  // small_content_scramble: before a write of `length` bytes of slot `i`
  // at file offset `offset`, started at `start`.
  void Scramble(size_t i, uint64_t length, uint64_t offset, Nanos start);

 private:
  uint64_t size_ = 0;
  std::vector<std::unique_ptr<uint8_t[]>> bufs_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_IO_BUFFERS_H_
