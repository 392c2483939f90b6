#include "workloads/fio/io_buffers.h"

#include <cstring>

#include "sim/random.h"

namespace storlab::fio {

IoBuffers::IoBuffers(size_t slots, uint64_t size, uint64_t seed) : size_(size) {
  Random rng(seed, "fio/buffers");
  for (size_t i = 0; i < slots; ++i) {
    bufs_.emplace_back(new uint8_t[size]);
    uint8_t* p = bufs_.back().get();
    for (uint64_t at = 0; at < size; at += 8) {
      const uint64_t r = rng.Next();
      std::memcpy(p + at, &r, std::min<uint64_t>(8, size - at));
    }
  }
}

void IoBuffers::Scramble(size_t i, uint64_t length, uint64_t offset, Nanos start) {
  const uint64_t ns = static_cast<uint64_t>(start.count());
  const uint64_t sec = ns / 1'000'000'000, nsec = ns % 1'000'000'000;
  const unsigned line = static_cast<unsigned>((nsec ^ offset) & 7);
  uint8_t* p = bufs_[i].get();
  uint64_t boffset = offset;
  for (uint64_t at = 0; at + 512 <= length && at + 512 <= size_; at += 512) {
    std::memcpy(p + at + (line << 6), &boffset, 8);
    std::memcpy(p + at + 64 - 16, &sec, 8);
    std::memcpy(p + at + 64 - 8, &nsec, 8);
    boffset += 512;
  }
}

}  // namespace storlab::fio
