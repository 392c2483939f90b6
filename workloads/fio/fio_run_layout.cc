// FioRun's layout of a job's files before it starts (fio_run.h): fio's
// filesetup.c extend_file(), writing a file front to back.
#include <algorithm>

#include "sim/virtual_driver.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/io_buffers.h"

namespace storlab::fio {
namespace {

// Writes [0, size) of a file front to back, one request at a time, then
// fsyncs it: fio's extend_file() (create_fsync=0: no fsync).
struct LayoutWriter {
  SimHost* host;
  uint32_t id;
  uint64_t size;
  uint64_t chunk;
  bool direct;
  bool fsync;
  IoBuffers* bufs;  // empty: timing only
  // filesetup.c extend_file() writes max_bs at a time, each filled by
  // fill_io_buffer() (a pattern starts again every `bs` bytes).
  uint64_t bs;
  uint64_t pos = 0;
  uint64_t written = 0;
  bool done = false;
  Status status;

  void Next() {
    if (pos >= size && !fsync) {
      done = true;
      return;
    }
    if (pos >= size) {
      host->Fsync(id, direct, [this](Status st) {
        if (!st.ok() && status.ok()) status = st;
        done = true;
      });
      return;
    }
    uint64_t len = std::min(chunk, size - pos);
    len = (len + 4095) / 4096 * 4096;
    uint8_t* data = nullptr;
    if (!bufs->empty()) {
      data = bufs->slot(0);
      const BufferFill& fill = bufs->fill();
      if (fill.kind == BufferFill::Kind::kRandom && !fill.refill) {
        // fio fills each bs piece afresh (fill_io_buffer): random. One
        // random chunk, stamped per chunk, is random within any record up
        // to its size, and costs nothing per chunk.
        bufs->Scramble(0, len, pos, host->engine().now());
      } else {
        // Each bs piece as fill_io_buffer makes it (a pattern repeats from
        // each piece's start; compressible chunks are fresh).
        for (uint64_t b = 0; b < len; b += bs) bufs->Fill(data + b, std::min(bs, len - b));
      }
    }
    host->FileIo(
        id, Op::kWrite, pos, len, direct,
        [this, len](Status st) {
          if (!st.ok()) {
            status = st;
            done = true;
            return;
          }
          pos += len;
          written += len;
          Next();
        },
        0, data);
  }
};

}  // namespace

Status FioRun::LayoutFile(const JobSpec& spec, uint32_t id, uint64_t size) {
  // fio writes the file with buffered write()s, fsyncs it and drops it from
  // the page cache (posix_fadvise DONTNEED) before the job starts. We write
  // it with 1 MiB direct writes, what writeback would send: the same bytes
  // reach the device, and nothing of the file is left in the cache.
  uint64_t chunk = std::max<uint64_t>(spec.max_bs(kWrite), 1 << 20);
  chunk = (chunk + 4095) / 4096 * 4096;
  IoBuffers bufs;
  if (host_.writes_carry_data()) bufs = IoBuffers(1, chunk, spec.rand_seed ^ id, spec.fill);
  LayoutWriter w{.host = &host_,
                 .id = id,
                 .size = size,
                 .chunk = chunk,
                 .direct = true,
                 .fsync = spec.opts.create_fsync,
                 .bufs = &bufs,
                 .bs = spec.max_bs(kWrite)};
  w.Next();
  Watchdog watchdog(host_.stack());
  RETURN_IF_ERROR(VirtualDriver(host_.engine()).RunWatched([&] { return !w.done; }, watchdog));
  layout_bytes_ += w.written;
  return w.status;
}

}  // namespace storlab::fio
