#include "sim/layers/cache/cache_mask.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "sim/bit_count.h"

namespace storlab {

BlockMask::BlockMask(uint32_t sectors) : sectors_(sectors) {
  if (sectors_ > 64) {
    heap_.reset(new uint64_t[nwords()]);
    std::memset(heap_.get(), 0, nwords() * sizeof(uint64_t));
  }
}

BlockMask::BlockMask(const BlockMask& o) : sectors_(o.sectors_), inline_(o.inline_) {
  if (o.heap_) {
    heap_.reset(new uint64_t[nwords()]);
    std::memcpy(heap_.get(), o.heap_.get(), nwords() * sizeof(uint64_t));
  }
}

BlockMask& BlockMask::operator=(const BlockMask& o) {
  if (this != &o) {
    BlockMask copy(o);
    *this = std::move(copy);
  }
  return *this;
}

template <typename Fn>
void BlockMask::ForWords(uint32_t first, uint32_t count, Fn&& fn) {
  uint32_t i = first, end = first + count;
  while (i < end) {
    uint32_t w = i / 64, bit = i % 64;
    uint32_t n = std::min<uint32_t>(end - i, 64 - bit);
    uint64_t m = n == 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1) << bit;
    fn(w, m);
    i += n;
  }
}

void BlockMask::SetWords(uint32_t first, uint32_t count) {
  uint64_t* w = words();
  ForWords(first, count, [&](uint32_t i, uint64_t m) { w[i] |= m; });
}

void BlockMask::ClearWords(uint32_t first, uint32_t count) {
  uint64_t* w = words();
  ForWords(first, count, [&](uint32_t i, uint64_t m) { w[i] &= ~m; });
}

bool BlockMask::AllSetWords(uint32_t first, uint32_t count) const {
  const uint64_t* w = words();
  bool all = true;
  ForWords(first, count, [&](uint32_t i, uint64_t m) { all = all && (w[i] & m) == m; });
  return all;
}

bool BlockMask::AnySetWords(uint32_t first, uint32_t count) const {
  const uint64_t* w = words();
  bool any = false;
  ForWords(first, count, [&](uint32_t i, uint64_t m) { any = any || (w[i] & m) != 0; });
  return any;
}

uint32_t BlockMask::CountWords(uint32_t first, uint32_t count) const {
  const uint64_t* w = words();
  uint32_t n = 0;
  ForWords(first, count, [&](uint32_t i, uint64_t m) { n += BitCount(w[i] & m); });
  return n;
}

void BlockMask::ClearBits(const BlockMask& o) {
  uint64_t* w = words();
  const uint64_t* ow = o.words();
  for (uint32_t i = 0; i < nwords(); ++i) w[i] &= ~ow[i];
}

uint32_t BlockMask::Next(uint32_t i, uint32_t end, bool set) const {
  const uint64_t* w = words();
  while (i < end) {
    const uint64_t word = set ? w[i / 64] : ~w[i / 64];
    const uint64_t from_i = word >> (i % 64);  // bit 0 is sector i
    if (from_i != 0) return std::min(end, i + static_cast<uint32_t>(std::countr_zero(from_i)));
    i = (i / 64 + 1) * 64;
  }
  return end;
}

BlockMask::RunList BlockMask::Runs(uint32_t first, uint32_t count, bool set) const {
  RunList runs;
  const uint32_t end = first + count;
  for (uint32_t i = Next(first, end, set); i < end;) {
    const uint32_t stop = Next(i, end, !set);
    runs.emplace_back(i, stop - i);
    i = Next(stop, end, set);
  }
  return runs;
}

bool BlockMask::operator==(const BlockMask& o) const {
  if (sectors_ != o.sectors_) return false;
  return std::memcmp(words(), o.words(), nwords() * sizeof(uint64_t)) == 0;
}

}  // namespace storlab
