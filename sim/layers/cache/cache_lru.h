// LruPolicy: promote every missed block at once; evict the least recently
// used clean block. The policy of a RAM cache (a page cache, a drive's
// buffer) and the baseline against which smq's learning is compared.
// Its two lists run through the cache's own entries (CacheEntry::lru), so
// a hit, an insertion or a block turning dirty costs no lookup of its own:
// a NAS server's cache inserts a block per 4 KiB it receives, and a second
// index by block spent a tenth of such a run. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_LRU_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_LRU_H_

#include "sim/layers/cache/cache_policy.h"
#include "sim/layers/cache/cache_table.h"
#include "sim/lru_list.h"

namespace storlab {

class LruPolicy : public CachePolicy {
 public:
  explicit LruPolicy(CacheTable& table) : table_(table) {}
  LruPolicy(const LruPolicy&) = delete;
  LruPolicy& operator=(const LruPolicy&) = delete;

  std::string_view name() const override { return "lru"; }
  void Hit(const Access& a, CacheEntry& e) override;
  Promote Miss(const Access& a) override { return Promote::kPermanent; }
  void Insert(CacheEntry& e, bool dirty, Promote how) override;
  void Remove(CacheEntry& e) override;
  void SetDirty(CacheEntry& e, bool dirty) override;
  std::optional<uint64_t> Victim(const std::function<bool(uint64_t)>& evictable,
                                 size_t max_scan) override;
  // Both lists, coldest first (a block's list is its dirty bit). Restores
  // into the table's restored entries: a block it does not hold, or one
  // listed twice, is an error.
  void SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;

 private:
  using List = LruList<CacheEntry, &CacheEntry::lru>;
  List& list(bool dirty) { return dirty ? dirty_ : clean_; }

  CacheTable& table_;
  // Cold end: least recently used.
  List clean_, dirty_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_LRU_H_
