#include "sim/layers/thin/thin_metadata.h"

#include <cassert>

namespace storlab {

ThinMetadata::ThinMetadata(uint64_t pool_chunks)
    : pool_chunks_(pool_chunks),
      now_((pool_chunks + 63) / 64, 0),
      committed_bits_((pool_chunks + 63) / 64, 0) {}

void ThinMetadata::Set(std::vector<uint64_t>& b, uint64_t p, bool on) {
  // held_ counts chunks in use now or at the last commit.
  const bool was = Held(p);
  const uint64_t m = uint64_t{1} << (p % 64);
  if (on) {
    b[p / 64] |= m;
  } else {
    b[p / 64] &= ~m;
  }
  const bool is = Held(p);
  if (is && !was) ++held_;
  if (was && !is) --held_;
}

std::optional<uint64_t> ThinMetadata::Lookup(uint64_t v) const {
  auto it = map_.find(v);
  if (it == map_.end()) return std::nullopt;
  return it->second;
}

uint64_t ThinMetadata::MappedIn(uint64_t first, uint64_t end) const {
  uint64_t n = 0;
  for (const auto& [v, p] : map_) n += v >= first && v < end ? 1 : 0;
  return n;
}

bool ThinMetadata::ChangedIn(uint64_t first, uint64_t end) const {
  for (const Change& c : journal_)
    if (c.v >= first && c.v < end) return true;
  return false;
}

uint64_t ThinMetadata::free_chunks() const {
  const uint64_t used = held_ + others_;
  return used >= pool_chunks_ ? 0 : pool_chunks_ - used;
}

std::optional<uint64_t> ThinMetadata::Allocate() {
  if (free_chunks() == 0) return std::nullopt;
  // First chunk free now and at the last commit, from the hint up, then
  // from the start. Word-wise: skip full words.
  for (int pass = 0; pass < 2; ++pass) {
    const uint64_t from = pass == 0 ? hint_ : 0, to = pass == 0 ? pool_chunks_ : hint_;
    for (uint64_t p = from; p < to;) {
      const uint64_t w = now_[p / 64] | committed_bits_[p / 64];
      if (p % 64 == 0 && w == ~uint64_t{0}) {
        p += 64;
        continue;
      }
      if (!Held(p)) {
        Set(now_, p, true);
        hint_ = p + 1;
        return p;
      }
      ++p;
    }
  }
  return std::nullopt;  // the rest is held by others
}

void ThinMetadata::Unreserve(uint64_t p) {
  assert(Bit(now_, p));
  Set(now_, p, false);
}

void ThinMetadata::Map(uint64_t v, uint64_t p) {
  auto old = Lookup(v);
  map_[v] = p;
  journal_.push_back({v, old, p});
}

std::optional<uint64_t> ThinMetadata::Unmap(uint64_t v) {
  auto it = map_.find(v);
  if (it == map_.end()) return std::nullopt;
  const uint64_t p = it->second;
  map_.erase(it);
  Set(now_, p, false);  // free at once if it was never committed
  journal_.push_back({v, p, std::nullopt});
  return p;
}

void ThinMetadata::EndCommit(size_t mark) {
  for (size_t i = 0; i < mark; ++i) {
    const Change& c = journal_[i];
    if (c.before) {
      committed_.erase(c.v);
      Set(committed_bits_, *c.before, false);  // a discarded chunk is free now
    }
    if (c.after) {
      committed_[c.v] = *c.after;
      Set(committed_bits_, *c.after, true);
    }
  }
  journal_.erase(journal_.begin(), journal_.begin() + static_cast<std::ptrdiff_t>(mark));
  hint_ = 0;
}

void ThinMetadata::Rollback() {
  map_ = committed_;
  now_ = committed_bits_;
  held_ = committed_.size();  // every committed chunk is mapped
  journal_.clear();
  hint_ = 0;
}

void ThinMetadata::set_pool_chunks(uint64_t n) {
  assert(n >= pool_chunks_);
  pool_chunks_ = n;
  now_.resize((n + 63) / 64, 0);
  committed_bits_.resize((n + 63) / 64, 0);
}

}  // namespace storlab
