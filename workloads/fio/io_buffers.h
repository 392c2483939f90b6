// IoBuffers: the data of a job's I/O units, as fio makes it, for runs that
// keep data (power cuts, the oracle) and for stacks whose timing depends on
// what writes carry (ZFS compresses records: SimHost::writes_carry_data).
//
// fio allocates one buffer per iodepth slot and fills each once
// (backend.c init_io_u_buffers → io_u_fill_buffer → fill_io_buffer):
//   - by default with random bytes (lib/rand.c fill_random_buf);
//   - zero_buffers: zeros;
//   - buffer_pattern: the pattern, repeated from the buffer's start;
//   - buffer_compress_percentage=P: in chunks of min(bs, buffer_compress_chunk)
//     (0: bs), each (100-P) % fresh random bytes then zeros (or the pattern)
//     (fill_random_buf_percentage); P=100 means zero_buffers (init.c).
// Before each write (io_u.c get_io_u): with refill_buffers (which
// buffer_compress_percentage turns on) the buffer is filled again as
// above; otherwise, with scramble_buffers=1 (the default; off with
// zero_buffers, buffer_pattern, buffer_compress_percentage or verify) fio
// changes a few bytes of every 512-byte sector — the sector's file offset
// at one of the first eight 64-byte lines, chosen from the start time and
// offset, and the start time (seconds, nanoseconds) at the end of the first
// line (small_content_scramble). So every write carries content of its own,
// yet a buffer reused 32 times is 32 near-copies of itself, which a block
// compressor finds (fio's HOWTO: scrambling "is not enough to defeat more
// clever block compression attempts").
// dedupe_percentage=P (io_u.c get_buf_state(), save_buf_state(); dedupe.c):
// the buffers are refilled before every write in chunks as above (P of
// buffer_compress_percentage, 0 when not given) and P % of them are drawn
// again from a generator state used before: with dedupe_mode=repeat the
// state the next fresh buffer starts from (so that buffer and the next
// fresh one are the same), with working_set one of the first
// size × dedupe_working_set_percentage % / bs buffers the job's generator
// makes (with dedupe_global=1 those pages are taken in turns from every
// job's generator, init_dedupe_working_set_seeds()); P=100 writes the same
// buffer over and over. A dedup layer or compressor then finds the copies.
// The random bytes are storlab's (sim/random.h), not fio's hash chains:
// the same kind of content, not the same bytes.
// Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_IO_BUFFERS_H_
#define STORLAB_WORKLOADS_FIO_IO_BUFFERS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/random.h"
#include "sim/time.h"

namespace storlab::fio {

// What fio puts in a write buffer, resolved from the options as fio's
// init.c fixup_options / setup_td_flags and options.c callbacks do
// (job_spec.cc).
struct BufferFill {
  enum class Kind { kRandom, kZero, kPattern, kCompress };
  Kind kind = Kind::kRandom;
  bool refill = false;            // refill_buffers: fill before every write
  bool scramble = true;           // small_content_scramble before every write
  uint32_t compress_percent = 0;  // kCompress: 1..99
  uint64_t compress_chunk = 512;  // kCompress: 0 = min_write
  uint64_t min_write = 4096;      // the smallest write (fio's min_bs[DDIR_WRITE])
  std::vector<uint8_t> pattern;   // kPattern; kCompress's fixed part (empty: zeros)
  // dedupe_percentage: this percent of buffers repeat an earlier one (1..100;
  // 0: off). Turns kind into kCompress (fill_io_buffer()).
  uint32_t dedupe_percent = 0;
  bool dedupe_working_set = false;  // dedupe_mode=working_set (else repeat)
  uint64_t dedupe_pages = 0;        // the working set's buffers (fio's num_unique_pages)
  // dedupe_global: every job's buffer seed in thread order, and this
  // job's place in it (empty: the working set is the job's own).
  std::vector<uint64_t> dedupe_seeds;
  size_t dedupe_index = 0;
};

class IoBuffers {
 public:
  IoBuffers() = default;
  // `slots` buffers of `size` bytes, filled from `seed` as `fill` says.
  IoBuffers(size_t slots, uint64_t size, uint64_t seed, BufferFill fill = {});

  bool empty() const { return bufs_.empty(); }
  uint8_t* slot(size_t i) { return bufs_[i].get(); }
  const BufferFill& fill() const { return fill_; }
  // get_io_u() before a write of `length` bytes of slot `i` at file offset
  // `offset`, started at `start`: refill, or scramble, or nothing.
  void BeforeWrite(size_t i, uint64_t length, uint64_t offset, Nanos start);
  // small_content_scramble of `length` bytes of slot `i`.
  void Scramble(size_t i, uint64_t length, uint64_t offset, Nanos start);
  // fill_io_buffer(): `len` bytes at `buf` filled afresh, as `fill` says.
  void Fill(uint8_t* buf, uint64_t len);

 private:
  void FillRandom(Random& rng, uint8_t* buf, uint64_t len);
  void FillChunks(Random& rng, uint8_t* buf, uint64_t len);
  void FillDedupe(uint8_t* buf, uint64_t len);
  void MakeWorkingSet();

  uint64_t size_ = 0;
  BufferFill fill_;
  Random rng_{0};
  // dedupe: the state a repeated buffer starts from (fio's buf_state_prev),
  // the draws of which buffers repeat (dedupe_state) and which working set
  // page (dedupe_working_set_index_state), and the working set's states.
  Random prev_{0};
  Random dedupe_rng_{0};
  Random ws_index_rng_{0};
  std::vector<Random> ws_;
  std::vector<std::unique_ptr<uint8_t[]>> bufs_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_IO_BUFFERS_H_
