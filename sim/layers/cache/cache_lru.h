// LruPolicy: promote every missed block at once; evict the least recently
// used clean block. The policy of a RAM cache (a page cache, a drive's
// buffer) and the baseline against which smq's learning is compared.
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_LRU_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_LRU_H_

#include "sim/key_map.h"
#include "sim/layers/cache/cache_policy.h"
#include "sim/lru_list.h"

namespace storlab {

class LruPolicy : public CachePolicy {
 public:
  LruPolicy() = default;
  LruPolicy(const LruPolicy&) = delete;
  LruPolicy& operator=(const LruPolicy&) = delete;

  std::string_view name() const override { return "lru"; }
  void Hit(const Access& a) override;
  Promote Miss(const Access& a) override { return Promote::kPermanent; }
  void Insert(uint64_t block, bool dirty, Promote how) override;
  void Remove(uint64_t block) override;
  void SetDirty(uint64_t block, bool dirty) override;
  std::optional<uint64_t> Victim(const std::function<bool(uint64_t)>& evictable,
                                 size_t max_scan) override;
  // Both lists, coldest first, and each block's dirty bit.
  void SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;

 private:
  struct Entry {
    uint64_t block = 0;
    bool dirty = false;
    LruHook<Entry> hook;
  };
  using List = LruList<Entry, &Entry::hook>;
  List& list(bool dirty) { return dirty ? dirty_ : clean_; }

  // Cold end: least recently used. Entries live in `pos_` (stable
  // addresses; a block's lookup is one probe, and growing the index moves
  // no entry, where std::unordered_map's rehashes cost 2 % of a NAS run).
  List clean_, dirty_;
  KeyMap<Entry> pos_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_LRU_H_
