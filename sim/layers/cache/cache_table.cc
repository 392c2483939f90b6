#include "sim/layers/cache/cache_table.h"

#include <algorithm>
#include <cassert>

namespace storlab {

CacheTable::CacheTable(uint32_t slots, uint32_t sectors_per_block, uint32_t sector_bytes,
                       bool defer_free)
    : slots_(slots),
      sectors_(sectors_per_block),
      sector_bytes_(sector_bytes),
      defer_free_(defer_free) {
  Clear();
}

void CacheTable::Clear() {
  entries_.Clear();
  free_.clear();
  pending_.clear();
  by_block_ = GroupSet();
  by_seq_.Clear();
  dirty_sectors_ = 0;
  failed_ = 0;
  fresh_ = 0;  // every slot free, none written down
}

CacheEntry* CacheTable::Find(uint64_t block) { return entries_.Find(block); }

const CacheEntry* CacheTable::Find(uint64_t block) const { return entries_.Find(block); }

CacheEntry& CacheTable::Insert(uint64_t block, uint32_t slot) {
  CacheEntry& e = *entries_.TryEmplace(block).first;
  e.block = block;
  e.slot = slot;
  e.valid = BlockMask(sectors_);
  e.dirty = BlockMask(sectors_);
  return e;
}

uint32_t CacheTable::Erase(CacheEntry& e, bool claim) {
  assert(!e.lru.linked && "CacheTable::Erase: the policy still links the entry");
  Unindex(e);
  uint32_t slot = e.slot;
  entries_.Erase(e.block);
  if (claim) return slot;
  if (defer_free_) {
    pending_.push_back(slot);
  } else {
    free_.push_back(slot);
  }
  return slot;
}

std::optional<uint32_t> CacheTable::TakeFreeSlot() {
  if (free_.empty()) {
    if (fresh_ == slots_) return std::nullopt;
    return fresh_++;
  }
  uint32_t s = free_.back();
  free_.pop_back();
  return s;
}

void CacheTable::SetUsedSlots(const std::vector<uint32_t>& used) {
  free_.clear();
  pending_.clear();
  // The stack as if every free slot were pushed from the highest down:
  // those above the highest used one stay implicit (fresh_). (A sorted
  // list, not a bit per slot: a 240 GB cache of 256 KiB blocks has 915 K
  // slots, and a restore runs in every power cut's forked check.)
  auto it = std::lower_bound(used.begin(), used.end(), slots_);
  fresh_ = it == used.begin() ? 0 : *(it - 1) + 1;
  for (uint32_t s = fresh_; s > 0; --s) {
    if (it != used.begin() && *(it - 1) == s - 1) {
      --it;
    } else {
      free_.push_back(s - 1);
    }
  }
}

std::vector<uint32_t> CacheTable::TakePending() {
  std::vector<uint32_t> out;
  out.swap(pending_);
  return out;
}

void CacheTable::ReleaseSlots(const std::vector<uint32_t>& slots) {
  free_.insert(free_.end(), slots.begin(), slots.end());
}

void CacheTable::MarkDirty(CacheEntry& e, uint32_t first, uint32_t count, uint64_t seq, Nanos now) {
  e.valid.Set(first, count);
  if (e.destage_failed) --failed_;
  e.destage_failed = false;
  uint32_t before = e.dirty.Count();
  e.dirty.Set(first, count);
  dirty_sectors_ += e.dirty.Count() - before;
  if (before == 0) {
    e.dirty_seq = seq;
    e.dirty_since = now;
    by_block_.insert(e.block);
    by_seq_.Insert(seq, e.block, now, e.age_home);
  }
}

void CacheTable::MarkFailed(CacheEntry& e) {
  if (!e.destage_failed) ++failed_;
  e.destage_failed = true;
}

void CacheTable::Unindex(CacheEntry& e) {
  if (e.destage_failed) --failed_;
  e.destage_failed = false;
  uint32_t n = e.dirty.Count();
  if (n == 0) return;
  dirty_sectors_ -= n;
  by_block_.erase(e.block);
  by_seq_.Erase(e.dirty_seq, e.block, e.age_home);
}

void CacheTable::MarkClean(CacheEntry& e) {
  Unindex(e);
  e.dirty.ClearAll();
}

void CacheTable::Invalidate(CacheEntry& e, uint32_t first, uint32_t count) {
  uint32_t before = e.dirty.Count();
  e.dirty.Clear(first, count);
  uint32_t after = e.dirty.Count();
  dirty_sectors_ -= before - after;
  if (before > 0 && after == 0) {
    if (e.destage_failed) --failed_;
    e.destage_failed = false;
    by_block_.erase(e.block);
    by_seq_.Erase(e.dirty_seq, e.block, e.age_home);
  }
  e.valid.Clear(first, count);
}

}  // namespace storlab
