#include "sim/devices/ssd_ftl.h"

#include <algorithm>
#include <cassert>

namespace storlab {

SsdScaledFtl::SsdScaledFtl(uint64_t user_bytes, uint64_t native_bytes, uint32_t max_units,
                           uint32_t units_per_block)
    : user_bytes_(user_bytes), units_per_block_(units_per_block) {
  assert(native_bytes > user_bytes && user_bytes > 0);
  k_ = 1;
  while ((user_bytes + kPage * k_ - 1) / (kPage * k_) > max_units) k_ *= 2;
  unit_bytes_ = kPage * k_;
  logical_units_ = static_cast<uint32_t>((user_bytes + unit_bytes_ - 1) / unit_bytes_);
  // At least two blocks of spare beyond the logical units, whatever the
  // rounding: GC needs somewhere to copy to.
  uint64_t physical =
      std::max<uint64_t>(native_bytes / unit_bytes_, logical_units_ + 2ull * units_per_block_);
  blocks_ = static_cast<uint32_t>((physical + units_per_block_ - 1) / units_per_block_);
  const uint32_t spare_blocks =
      blocks_ - static_cast<uint32_t>((logical_units_ + units_per_block_ - 1) / units_per_block_);
  // Clean when about 1% of the blocks are free, but never use more than
  // half of the spare area as the reserve.
  low_ = std::max<uint32_t>(2, std::min<uint32_t>(blocks_ / 128, spare_blocks / 2));

  l2p_.assign(logical_units_, kNone);
  bucket_head_.assign(units_per_block_ + 1, kNone);
}

uint64_t SsdScaledFtl::valid_bytes() const {
  return std::min(user_bytes_, valid_units_ * unit_bytes_);
}

template <typename Fn>
void SsdScaledFtl::Sample(uint64_t first, uint64_t count, uint64_t* pos, Fn&& fn) {
  for (uint64_t i = (k_ - *pos % k_) % k_; i < count; i += k_) fn(first + i);
  *pos += count;
}

SsdScaledFtl::Work SsdScaledFtl::Write(uint64_t off, uint64_t len) {
  Work work;
  if (len == 0) return work;
  const uint64_t first = off / kPage;
  const uint64_t count = (off + len + kPage - 1) / kPage - first;
  Sample(first, count, &write_pos_,
         [&](uint64_t page) { WriteUnit(static_cast<uint32_t>(page / k_), &work); });
  return work;
}

void SsdScaledFtl::Trim(uint64_t off, uint64_t len) {
  if (len == 0) return;
  const uint64_t end = off + len;
  const uint64_t u0 = (off + unit_bytes_ - 1) / unit_bytes_;  // first unit covered whole
  const uint64_t u1 = end / unit_bytes_;                      // one past the last
  const uint64_t first = off / kPage, last = (end + kPage - 1) / kPage;
  auto trim_page = [&](uint64_t page) { TrimUnit(static_cast<uint32_t>(page / k_)); };
  if (u0 >= u1) {
    Sample(first, last - first, &trim_pos_, trim_page);
    return;
  }
  for (uint64_t u = u0; u < u1; ++u) TrimUnit(static_cast<uint32_t>(u));
  Sample(first, u0 * k_ - first, &trim_pos_, trim_page);
  Sample(u1 * k_, last - u1 * k_, &trim_pos_, trim_page);
}

void SsdScaledFtl::Fill(double fraction) {
  const auto n =
      static_cast<uint32_t>(static_cast<double>(logical_units_) * std::clamp(fraction, 0.0, 1.0));
  Work ignored;
  for (uint32_t lu = 0; lu < n; ++lu) WriteUnit(lu, &ignored);
}

bool SsdScaledFtl::WouldReclaim(double target_fraction) const {
  const uint64_t needed = (valid_units_ + units_per_block_ - 1) / units_per_block_ + 2;
  const uint64_t spare = blocks_ > needed ? blocks_ - needed : 0;
  const double target =
      low_ + std::clamp(target_fraction, 0.0, 1.0) * (spare > low_ ? double(spare - low_) : 0.0);
  if (static_cast<double>(free_blocks()) >= target) return false;
  for (uint32_t v = 0; v < units_per_block_; ++v)
    if (bucket_head_[v] != kNone) return true;
  return false;
}

bool SsdScaledFtl::Reclaim(double target_fraction, Work* work) {
  return WouldReclaim(target_fraction) && CleanOne(work);
}

void SsdScaledFtl::WriteUnit(uint32_t lu, Work* work) {
  if (lu >= logical_units_) return;
  if (host_.block == kNone || host_.next == units_per_block_) {
    // The host frontier needs a new block: clean until the pool is above
    // the low watermark (foreground GC).
    while (free_blocks() <= low_ && CleanOne(work)) {
    }
  }
  const uint32_t pu = Allocate(host_);
  if (pu == kNone) return;  // cannot happen: the spare area is never empty
  if (l2p_[lu] != kNone) {
    Invalidate(l2p_[lu]);
  } else {
    ++valid_units_;
  }
  l2p_[lu] = pu;
  p2l_[pu] = lu;
  const uint32_t b = pu / units_per_block_;
  ++valid_[b];
}

void SsdScaledFtl::TrimUnit(uint32_t lu) {
  if (lu >= logical_units_ || l2p_[lu] == kNone) return;
  Invalidate(l2p_[lu]);
  l2p_[lu] = kNone;
  --valid_units_;
}

void SsdScaledFtl::Invalidate(uint32_t pu) {
  const uint32_t b = pu / units_per_block_;
  p2l_[pu] = kNone;
  if (state_[b] == State::kFull) {
    BucketRemove(b);
    --valid_[b];
    BucketInsert(b);
  } else {
    --valid_[b];
  }
}

uint32_t SsdScaledFtl::Allocate(Frontier& f) {
  if (f.block == kNone || f.next == units_per_block_) {
    if (f.block != kNone) {
      state_[f.block] = State::kFull;
      BucketInsert(f.block);
      f.block = kNone;
    }
    if (free_blocks() == 0) return kNone;
    f.block = TakeFreeBlock();
    state_[f.block] = State::kOpen;
    f.next = 0;
  }
  return f.block * units_per_block_ + f.next++;
}

uint32_t SsdScaledFtl::TakeFreeBlock() {
  if (fresh_ < blocks_) {
    p2l_.resize(p2l_.size() + units_per_block_, kNone);
    valid_.push_back(0);
    state_.push_back(State::kFree);
    next_.push_back(kNone);
    prev_.push_back(kNone);
    return fresh_++;
  }
  const uint32_t b = free_.front();
  free_.pop_front();
  return b;
}

bool SsdScaledFtl::CleanOne(Work* work) {
  uint32_t victim = kNone;
  for (uint32_t v = 0; v < units_per_block_ && victim == kNone; ++v) victim = bucket_head_[v];
  if (victim == kNone) return false;
  const bool gc_has_room = gc_.block != kNone && gc_.next < units_per_block_;
  if (!gc_has_room && free_blocks() == 0) return false;
  BucketRemove(victim);
  state_[victim] = State::kOpen;  // out of the buckets while it is emptied
  const uint32_t base = victim * units_per_block_;
  for (uint32_t i = 0; i < units_per_block_ && valid_[victim] > 0; ++i) {
    const uint32_t lu = p2l_[base + i];
    if (lu == kNone) continue;
    const uint32_t dst = Allocate(gc_);
    if (dst == kNone) break;  // no room left to copy into
    p2l_[base + i] = kNone;
    --valid_[victim];
    p2l_[dst] = lu;
    l2p_[lu] = dst;
    ++valid_[dst / units_per_block_];
    ++copies_;
    work->copied_bytes += unit_bytes_;
  }
  if (valid_[victim] > 0) {  // could not finish: leave it full
    state_[victim] = State::kFull;
    BucketInsert(victim);
    return false;
  }
  state_[victim] = State::kFree;
  free_.push_back(victim);
  ++erases_;
  work->erased_bytes += unit_bytes_ * units_per_block_;
  return true;
}

void SsdScaledFtl::BucketInsert(uint32_t b) {
  uint32_t& head = bucket_head_[valid_[b]];
  prev_[b] = kNone;
  next_[b] = head;
  if (head != kNone) prev_[head] = b;
  head = b;
}

void SsdScaledFtl::BucketRemove(uint32_t b) {
  if (prev_[b] != kNone) {
    next_[prev_[b]] = next_[b];
  } else {
    bucket_head_[valid_[b]] = next_[b];
  }
  if (next_[b] != kNone) prev_[next_[b]] = prev_[b];
  prev_[b] = next_[b] = kNone;
}

}  // namespace storlab
