// CacheTable: the cache's block metadata — which origin blocks it holds, in
// which slot of the cache device, which sectors are valid and dirty — with
// the slot allocator and the dirty indexes the destager walks.
//
// An entry is keyed by origin block number. `valid` says which sectors of
// the block the slot holds (normally all of them); `dirty` (a subset) which
// of those the origin does not have yet. `io` counts client requests in
// flight that touch the entry; `locked` is set while a promotion or a
// destage owns it. A freed slot either returns to the free list at once or,
// when `defer_free` is set (a cache device with committed metadata: the
// slot may still be named by the last commit), waits in a pending list until
// ReleasePending() — dm-cache commits before reusing a demoted block.
// Dirty blocks are indexed by origin offset (the elevator order of
// writeback) and by the sequence number of their oldest undestaged write
// (flush and expiry order). Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_TABLE_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_TABLE_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "sim/key_map.h"
#include "sim/layers/cache/cache_dirty_age.h"
#include "sim/layers/cache/cache_mask.h"
#include "sim/layers/page_cache/page_group_set.h"
#include "sim/lru_list.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

struct CacheEntry {
  uint64_t block = 0;
  uint32_t slot = 0;
  BlockMask valid;
  BlockMask dirty;
  uint64_t dirty_seq = 0;                   // oldest undestaged write (when dirty)
  Nanos dirty_since;                        // when it turned dirty
  size_t age_home = DirtyAgeIndex::kNotIn;  // its place in the dirty-age index
  uint32_t io = 0;                          // client requests in flight on this entry
  bool locked = false;                      // a promotion or destage owns the block
  bool destage_failed = false;
  // The LRU policy's place (cache_lru.h): its links, and which of its two
  // lists (clean or dirty) they are in. Unlinked under other policies.
  bool lru_dirty = false;
  LruHook<CacheEntry> lru;
};

class CacheTable {
 public:
  CacheTable(uint32_t slots, uint32_t sectors_per_block, uint32_t sector_bytes, bool defer_free);
  CacheTable(const CacheTable&) = delete;
  CacheTable& operator=(const CacheTable&) = delete;

  uint32_t slots() const { return slots_; }
  uint32_t sectors_per_block() const { return sectors_; }
  size_t size() const { return entries_.size(); }

  CacheEntry* Find(uint64_t block);
  const CacheEntry* Find(uint64_t block) const;
  // Maps `block` to `slot` with nothing valid yet.
  // REQUIRES: !Find(block); slot taken from TakeFreeSlot().
  CacheEntry& Insert(uint64_t block, uint32_t slot);
  // Unmaps the block of `e`; its slot is freed (or deferred), or with
  // `claim` kept for the caller. Returns the slot.
  uint32_t Erase(CacheEntry& e, bool claim = false);
  void Clear();

  std::optional<uint32_t> TakeFreeSlot();
  // Restoring committed metadata: every slot not in `used` (ascending,
  // each once) becomes free.
  void SetUsedSlots(const std::vector<uint32_t>& used);
  bool has_free_slot() const { return !free_.empty() || fresh_ < slots_; }
  bool has_pending_slots() const { return !pending_.empty(); }
  // Slots freed since the last call, for the commit that makes them
  // reusable; ReleaseSlots() then returns them to the free list.
  std::vector<uint32_t> TakePending();
  void ReleaseSlots(const std::vector<uint32_t>& slots);
  // Puts slots back into the pending list (their commit failed).
  void DeferSlots(const std::vector<uint32_t>& slots) {
    pending_.insert(pending_.end(), slots.begin(), slots.end());
  }

  // Dirty state. MarkDirty sets sectors dirty (and valid); a clean entry
  // takes `seq` and `now` as its oldest write.
  void MarkDirty(CacheEntry& e, uint32_t first, uint32_t count, uint64_t seq, Nanos now);
  // Clears every dirty sector of `e`.
  void MarkClean(CacheEntry& e);
  // Drops the dirty and valid bits of [first, first+count).
  void Invalidate(CacheEntry& e, uint32_t first, uint32_t count);
  // A destage of `e` failed: it stays dirty and is not retried until it is
  // written again.
  void MarkFailed(CacheEntry& e);
  uint64_t failed_blocks() const { return failed_; }
  uint64_t dirty_bytes() const { return dirty_sectors_ * sector_bytes_; }
  uint64_t dirty_blocks() const { return by_block_.size(); }
  const GroupSet& dirty_by_block() const { return by_block_; }
  // (oldest write's sequence, block) -> that write's time, oldest first.
  DirtyAgeIndex::Entries dirty_by_seq() const { return by_seq_.entries(); }
  // The destager's expiry: see DirtyAgeIndex::Scan.
  DirtyAgeIndex::Expiry ScanExpiry(Nanos now, Nanos expire, uint64_t limit) {
    return by_seq_.Scan(now, expire, limit);
  }

  // storlab sim --state (cache_state.cc): every entry in block order (slot,
  // valid and dirty sectors, oldest write, failed), the free slots in
  // their stack order and the pending ones. REQUIRES: no I/O on an entry,
  // none locked. Restores into a cleared table of the same size; the
  // dirty indexes follow from the entries.
  Status SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  void Unindex(CacheEntry& e);

  const uint32_t slots_;
  const uint32_t sectors_;
  const uint32_t sector_bytes_;
  const bool defer_free_;
  KeyMap<CacheEntry> entries_;  // one probe a lookup; growth moves no entry
  // The free slots: a stack whose bottom, slots [fresh_, slots_), was never
  // taken since Clear() (taken lowest first, after every slot freed since,
  // which `free_` holds, newest on top). Kept implicit, so that a power cut
  // does not write millions of slot numbers (in a forked power-cut check,
  // each page written is a page copied).
  std::vector<uint32_t> free_;
  uint32_t fresh_ = 0;
  std::vector<uint32_t> pending_;  // freed, not yet reusable
  // In block order, as a bitmap (the page cache's GroupSet): no tree node
  // allocated and freed each time a block goes dirty and clean.
  GroupSet by_block_;
  DirtyAgeIndex by_seq_;
  uint64_t dirty_sectors_ = 0;
  uint64_t failed_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_TABLE_H_
