#include "workloads/fio/offset_gen.h"

#include <algorithm>
#include <bit>

#include "workloads/fio/rand_dist_gen.h"

namespace storlab::fio {

RandomMap::RandomMap(uint64_t blocks)
    : blocks_(blocks), words_((blocks + 63) / 64), full_words_((words_.size() + 63) / 64) {
  Clear();
}

void RandomMap::Clear() {
  std::fill(words_.begin(), words_.end(), 0);
  std::fill(full_words_.begin(), full_words_.end(), 0);
  used_ = 0;
  // Bits past the end count as used, so they are never returned.
  if (blocks_ % 64) {
    uint64_t w = words_.size() - 1;
    words_[w] = ~uint64_t{0} << (blocks_ % 64);
  }
}

void RandomMap::Set(uint64_t b) {
  uint64_t w = b >> 6;
  uint64_t bit = uint64_t{1} << (b & 63);
  if (words_[w] & bit) return;
  words_[w] |= bit;
  ++used_;
  if (words_[w] == ~uint64_t{0}) full_words_[w >> 6] |= uint64_t{1} << (w & 63);
}

uint64_t RandomMap::NextFree(uint64_t b) const {
  uint64_t w = b >> 6;
  uint64_t bits = ~words_[w] & (~uint64_t{0} << (b & 63));
  if (bits) return (w << 6) + static_cast<uint64_t>(std::countr_zero(bits));
  // The first word in [start, end) that is not full, from the summary.
  auto find = [&](uint64_t start, uint64_t end) -> int64_t {
    uint64_t word = start;
    while (word < end) {
      uint64_t sw = word >> 6;
      uint64_t avail = ~full_words_[sw] & (~uint64_t{0} << (word & 63));
      if (avail) {
        uint64_t cand = (sw << 6) + static_cast<uint64_t>(std::countr_zero(avail));
        return cand < end ? static_cast<int64_t>(cand) : -1;
      }
      word = (sw + 1) << 6;
    }
    return -1;
  };
  int64_t found = find(w + 1, words_.size());
  if (found < 0) found = find(0, w + 1);
  uint64_t fw = static_cast<uint64_t>(found);
  return (fw << 6) + static_cast<uint64_t>(std::countr_zero(~words_[fw]));
}

RandomPicker::RandomPicker(uint64_t blocks, RandGen gen, bool use_map, uint64_t seed)
    : blocks_(blocks),
      gen_(gen),
      use_map_(use_map && gen != RandGen::kLfsr),
      t88_(seed),
      t258_(seed),
      map_(use_map_ ? blocks : 0) {
  if (gen_ == RandGen::kLfsr) {
    unsigned bits = blocks_ <= 1 ? 1 : 64 - static_cast<unsigned>(std::countl_zero(blocks_ - 1));
    half_bits_ = (bits + 1) / 2;
    if (half_bits_ == 0) half_bits_ = 1;
    uint64_t x = seed;
    for (auto& k : keys_) k = SplitMix(x);
  }
}

RandomPicker::~RandomPicker() = default;

void RandomPicker::SetDistribution(std::unique_ptr<RandDistGen> dist) { dist_ = std::move(dist); }

uint64_t RandomPicker::Permute(uint64_t x) const {
  const uint64_t mask = (uint64_t{1} << half_bits_) - 1;
  uint64_t l = x >> half_bits_, r = x & mask;
  for (uint64_t k : keys_) {
    uint64_t z = (r + k) * 0x9e3779b97f4a7c15ULL;
    z ^= z >> 29;
    uint64_t nl = r;
    r = (l ^ z) & mask;
    l = nl;
  }
  return (l << half_bits_) | r;
}

uint64_t RandomPicker::Draw() {
  if (gen_ == RandGen::kTausworthe64 || blocks_ > (uint64_t{1} << 32)) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(t258_.Next()) * blocks_) >> 64);
  }
  return (static_cast<uint64_t>(t88_.Next()) * blocks_) >> 32;
}

bool RandomPicker::Next(uint64_t* block) {
  if (blocks_ == 0) return false;
  if (dist_) {
    *block = dist_->Next();
    return true;
  }
  if (gen_ == RandGen::kLfsr) {
    if (counter_ == blocks_) return false;
    uint64_t y = Permute(counter_++);
    while (y >= blocks_) y = Permute(y);
    *block = y;
    return true;
  }
  if (!use_map_) {
    *block = Draw();
    return true;
  }
  if (map_.full()) return false;
  uint64_t b = Draw();
  if (map_.Test(b)) b = map_.NextFree(b);
  map_.Set(b);
  *block = b;
  return true;
}

uint64_t RandomPicker::Claim(uint64_t b, uint64_t n) {
  if (!use_map_ || dist_ || gen_ == RandGen::kLfsr) return n;
  for (uint64_t i = 1; i < n; ++i) {
    // Blocks past the last one an I/O can start at are not in the map.
    if (b + i >= blocks_) return n;
    if (map_.Test(b + i)) return i;
    map_.Set(b + i);
  }
  return n;
}

void RandomPicker::Restart() {
  counter_ = 0;
  if (use_map_) map_.Clear();
}

}  // namespace storlab::fio
