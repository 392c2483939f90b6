// Qcow2L2Cache: qemu's L2 table cache (block/qcow2-cache.c) as far as
// timing needs it: which L2 slices are in memory, in least-recently-used
// order, and which of them are dirty (updated in memory, not yet written
// back). A slice is l2-cache-entry-size bytes of one L2 table (the whole
// table, one cluster, by default; docs/qcow2-cache.txt). The entries' data
// is not kept: the mapping itself lives in Qcow2Map.
//
// qcow2_cache_do_get evicts the least recently used entry that is not in
// use; a dirty victim is written back first (qcow2_cache_entry_flush). Not
// thread-safe.
#ifndef STORLAB_SIM_LAYERS_VM_QCOW2_L2_CACHE_H_
#define STORLAB_SIM_LAYERS_VM_QCOW2_L2_CACHE_H_

#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>

#include "sim/lru_list.h"
#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class Qcow2L2Cache {
 public:
  // REQUIRES: capacity >= 1 (qemu's MIN_L2_CACHE_SIZE is 2).
  explicit Qcow2L2Cache(uint64_t capacity) : capacity_(capacity) {}
  Qcow2L2Cache(const Qcow2L2Cache&) = delete;
  Qcow2L2Cache& operator=(const Qcow2L2Cache&) = delete;

  // Whether `slice` is cached; a hit makes it the most recently used.
  bool Touch(uint64_t slice);
  // The entry that must leave for one more to fit; nullopt: there is room.
  std::optional<uint64_t> Victim() const;
  bool dirty(uint64_t slice) const { return dirty_.count(slice) != 0; }
  // Drops `slice` (REQUIRES: cached and clean).
  void Evict(uint64_t slice);
  // Adds `slice` as the most recently used (REQUIRES: not cached, room).
  void Insert(uint64_t slice);
  void MarkDirty(uint64_t slice) { dirty_.insert(slice); }
  void MarkClean(uint64_t slice) { dirty_.erase(slice); }
  // Dirty slices in ascending order (qcow2_cache_write walks the table in order).
  const std::set<uint64_t>& dirty_slices() const { return dirty_; }
  uint64_t size() const { return lru_.size(); }
  uint64_t capacity() const { return capacity_; }
  // A power cut: everything in memory is gone.
  void Clear();
  // storlab sim --state (qcow2_state.cc): the slices, least recently used
  // first, and the dirty ones.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  struct Entry {
    uint64_t slice = 0;
    LruHook<Entry> hook;
  };
  uint64_t capacity_;
  std::unordered_map<uint64_t, Entry> entries_;
  LruList<Entry, &Entry::hook> lru_;
  std::set<uint64_t> dirty_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_VM_QCOW2_L2_CACHE_H_
