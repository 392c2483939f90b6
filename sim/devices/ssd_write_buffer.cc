#include "sim/devices/ssd_write_buffer.h"

#include <algorithm>
#include <cassert>

namespace storlab {

void SsdWriteBuffer::Open(uint64_t size, bool slc) {
  assert(!has_open() && size > 0);
  open_ = Unit();
  open_.seq = next_seq_;
  open_.size = size;
  open_.slc = slc;
}

uint64_t SsdWriteBuffer::Fill(uint64_t off, uint64_t len, Nanos ready) {
  assert(has_open());
  const uint64_t n = std::min(len, open_.size - open_.data_bytes);
  if (n == 0) return 0;
  open_.data_bytes += n;
  open_.ready = Max(open_.ready, ready);
  if (keep_ranges_) {
    if (!open_.ranges.empty() && open_.ranges.back().first + open_.ranges.back().second == off) {
      open_.ranges.back().second += n;
    } else {
      open_.ranges.emplace_back(off, n);
    }
  }
  return n;
}

SsdWriteBuffer::Unit& SsdWriteBuffer::Close() {
  assert(has_open());
  ++next_seq_;
  in_flight_.push_back(std::move(open_));
  open_ = Unit();
  return in_flight_.back();
}

SsdWriteBuffer::Unit SsdWriteBuffer::Done(uint64_t seq) {
  assert(!in_flight_.empty() && seq >= in_flight_.front().seq);
  Unit& u = in_flight_[seq - in_flight_.front().seq];
  assert(!u.done);
  u.done = true;
  held_ -= std::min(held_, u.data_bytes);
  Unit out = std::move(u);  // u keeps its number and done flag
  while (!in_flight_.empty() && in_flight_.front().done) {
    durable_through_ = in_flight_.front().seq;
    in_flight_.pop_front();
  }
  return out;
}

void SsdWriteBuffer::Clear() {
  held_ = 0;
  open_ = Unit();
  in_flight_.clear();
  durable_through_ = next_seq_ - 1;
}

}  // namespace storlab
