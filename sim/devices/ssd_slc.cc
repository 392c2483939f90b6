#include "sim/devices/ssd_slc.h"

namespace storlab {

SsdSlcCache::SsdSlcCache(uint64_t static_bytes, uint64_t dynamic_bytes, uint32_t cell_bits,
                         uint64_t block_bytes, uint64_t lba_bytes)
    : static_(cell_bits > 1 ? static_bytes : 0),
      dynamic_(cell_bits > 1 ? dynamic_bytes : 0),
      cell_bits_(cell_bits),
      block_bytes_(std::max<uint64_t>(1, block_bytes)),
      track_shift_(12) {
  while ((lba_bytes >> track_shift_) > (uint64_t{1} << 24)) ++track_shift_;
  units_ = (lba_bytes + track_bytes() - 1) >> track_shift_;
  table_.resize((units_ >> kChunkShift) + 1);
}

uint64_t SsdSlcCache::capacity(uint64_t free_user_bytes) const {
  return static_ + std::min(dynamic_, free_user_bytes / cell_bits_);
}

void SsdSlcCache::Program(uint64_t bytes) {
  if (open_ == kNone || blocks_[open_].filled + bytes > block_bytes_) {
    CloseOpen();
    if (free_.empty()) {
      open_ = static_cast<uint32_t>(blocks_.size());
      blocks_.emplace_back();
    } else {
      open_ = free_.back();
      free_.pop_back();
    }
    ++in_use_;
  }
  blocks_[open_].filled += bytes;
  used_ += bytes;
}

void SsdSlcCache::CloseOpen() {
  if (open_ == kNone) return;
  blocks_[open_].closed = true;
  BucketInsert(open_);
  open_ = kNone;
}

void SsdSlcCache::Set(uint64_t u, uint32_t v) {
  auto& chunk = table_[u >> kChunkShift];
  if (!chunk) {
    if (v == 0) return;
    chunk = std::make_unique<uint32_t[]>(uint64_t{1} << kChunkShift);  // zeroed
  }
  chunk[u & ((1u << kChunkShift) - 1)] = v;
}

void SsdSlcCache::Drop(uint64_t u) {
  const uint32_t v = Get(u);
  if (v == 0) return;
  const uint32_t block = v - 1;
  Block& b = blocks_[block];
  if (b.closed) BucketRemove(block);
  --b.valid;
  if (b.closed) BucketInsert(block);
  --valid_units_;
  Set(u, 0);
}

void SsdSlcCache::Write(uint64_t off, uint64_t len, bool slc) {
  if (len == 0) return;
  const uint64_t last = std::min(units_ - 1, (off + len - 1) >> track_shift_);
  for (uint64_t u = off >> track_shift_; u <= last; ++u) {
    Drop(u);
    if (!slc) continue;
    Block& b = blocks_[open_];
    ++b.valid;
    ++valid_units_;
    b.units.push_back(static_cast<uint32_t>(u));
    Set(u, open_ + 1);
  }
}

void SsdSlcCache::Trim(uint64_t off, uint64_t len) {
  const uint64_t first = (off + track_bytes() - 1) >> track_shift_;
  const uint64_t end = std::min(units_, (off + len) >> track_shift_);
  for (uint64_t u = first; u < end;) {
    if (!table_[u >> kChunkShift]) {  // nothing of this chunk is in SLC
      u = ((u >> kChunkShift) + 1) << kChunkShift;
      continue;
    }
    Drop(u++);
  }
}

void SsdSlcCache::BucketInsert(uint32_t block) {
  Block& b = blocks_[block];
  if (b.valid >= bucket_.size()) bucket_.resize(b.valid + 1, kNone);
  b.prev = kNone;
  b.next = bucket_[b.valid];
  if (b.next != kNone) blocks_[b.next].prev = block;
  bucket_[b.valid] = block;
  min_valid_ = std::min(min_valid_, b.valid);
}

void SsdSlcCache::BucketRemove(uint32_t block) {
  Block& b = blocks_[block];
  if (b.prev != kNone) {
    blocks_[b.prev].next = b.next;
  } else {
    bucket_[b.valid] = b.next;
  }
  if (b.next != kNone) blocks_[b.next].prev = b.prev;
  b.prev = b.next = kNone;
}

bool SsdSlcCache::Cheapest(uint32_t* block, uint64_t* valid_bytes) const {
  while (min_valid_ < bucket_.size() && bucket_[min_valid_] == kNone) ++min_valid_;
  if (min_valid_ >= bucket_.size()) return false;
  *block = bucket_[min_valid_];
  *valid_bytes = ValidBytes(blocks_[*block]);
  return true;
}

uint64_t SsdSlcCache::Reclaim(uint32_t block) {
  Block& b = blocks_[block];
  const uint64_t folded = ValidBytes(b);
  for (const uint32_t u : b.units) {
    if (Get(u) == block + 1) Set(u, 0);
  }
  BucketRemove(block);
  valid_units_ -= b.valid;
  used_ -= b.filled;
  --in_use_;
  ++reclaimed_;
  b.filled = 0;
  b.valid = 0;
  b.closed = false;
  b.units.clear();
  free_.push_back(block);
  return folded;
}

}  // namespace storlab
