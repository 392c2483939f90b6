// Mapping array byte ranges of a striped array (RAID0/5/6) onto chunks.
//
// A range splits into pieces that each lie inside one data chunk: stripe s,
// data index d, rows [r0, r1) of the chunk (offsets inside it). Row r of
// stripe s is at member offset s*chunk + r on every member of the stripe.
// Header-only helpers; pure, thread-safe.
#ifndef STORLAB_SIM_LAYERS_RAID_STRIPED_MAP_H_
#define STORLAB_SIM_LAYERS_RAID_STRIPED_MAP_H_

#include <algorithm>
#include <cstdint>
#include <utility>

#include "sim/layers/raid/raid_layout.h"

namespace storlab {

struct ChunkPiece {
  uint64_t stripe;
  int d;               // data index in the stripe
  uint64_t r0, r1;     // rows inside the chunk
  uint64_t array_off;  // array offset of row r0
  uint64_t member_off(uint64_t chunk) const { return stripe * chunk + r0; }
  uint64_t length() const { return r1 - r0; }
};

// Calls fn(const ChunkPiece&) for each piece of [off, off+len), in order.
template <typename Fn>
void ForEachChunkPiece(const RaidLayout& l, uint64_t off, uint64_t len, Fn&& fn) {
  const uint64_t c = l.chunk(), sb = l.stripe_bytes();
  uint64_t pos = off;
  const uint64_t end = off + len;
  while (pos < end) {
    const uint64_t s = pos / sb, in = pos % sb;
    const int d = static_cast<int>(in / c);
    const uint64_t r0 = in % c;
    const uint64_t r1 = std::min<uint64_t>(c, r0 + (end - pos));
    fn(ChunkPiece{s, d, r0, r1, pos});
    pos += r1 - r0;
  }
}

// The rows of data chunk d of stripe s that [off, off+len) covers, as
// [lo, hi) inside the chunk; lo == hi when none.
inline std::pair<uint64_t, uint64_t> ChunkCover(const RaidLayout& l, uint64_t s, int d,
                                                uint64_t off, uint64_t len) {
  const uint64_t base = s * l.stripe_bytes() + static_cast<uint64_t>(d) * l.chunk();
  const uint64_t lo = std::max(off, base), hi = std::min(off + len, base + l.chunk());
  if (lo >= hi) return {0, 0};
  return {lo - base, hi - base};
}

// The member-offset rows [lo, hi) that [off, off+len) touches, rounded out to
// `align`: exact rows within one chunk, whole stripes otherwise.
inline std::pair<uint64_t, uint64_t> RowSpan(const RaidLayout& l, uint64_t off, uint64_t len,
                                             uint64_t align) {
  const uint64_t c = l.chunk(), sb = l.stripe_bytes();
  const uint64_t s0 = off / sb, s1 = (off + len - 1) / sb;
  if (s0 == s1 && off % sb / c == (off + len - 1) % sb / c) {
    uint64_t r0 = off % sb % c, r1 = r0 + len;
    r0 = r0 / align * align;
    r1 = (r1 + align - 1) / align * align;
    return {s0 * c + r0, s0 * c + r1};
  }
  return {s0 * c, (s1 + 1) * c};
}

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_STRIPED_MAP_H_
