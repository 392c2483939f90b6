#include "sim/layers/cache/cache_lru.h"

#include "sim/layers/cache/cache_smq.h"

namespace storlab {

void LruPolicy::Hit(const Access& a, CacheEntry& e) {
  if (List::Linked(e)) list(e.lru_dirty).PushHot(e);
}

void LruPolicy::Insert(CacheEntry& e, bool dirty, Promote how) {
  if (List::Linked(e)) list(e.lru_dirty).Unlink(e);  // inserted again: it leaves its old place
  e.lru_dirty = dirty;
  // A temporary promotion is the first candidate for eviction.
  if (how == Promote::kTemporary) {
    list(dirty).PushCold(e);
  } else {
    list(dirty).PushHot(e);
  }
}

void LruPolicy::Remove(CacheEntry& e) {
  if (List::Linked(e)) list(e.lru_dirty).Unlink(e);
}

void LruPolicy::SetDirty(CacheEntry& e, bool dirty) {
  if (!List::Linked(e) || e.lru_dirty == dirty) return;
  list(e.lru_dirty).Unlink(e);
  e.lru_dirty = dirty;
  list(dirty).PushHot(e);
}

std::optional<uint64_t> LruPolicy::Victim(const std::function<bool(uint64_t)>& evictable,
                                          size_t max_scan) {
  size_t n = 0;
  for (const CacheEntry& e : clean_) {
    if (n++ >= max_scan) break;
    if (evictable(e.block)) return e.block;
  }
  return std::nullopt;
}

std::unique_ptr<CachePolicy> MakeCachePolicy(PolicyKind kind, uint64_t cache_blocks,
                                             uint64_t origin_blocks, CacheTable& table) {
  if (kind == PolicyKind::kSmq) return std::make_unique<SmqPolicy>(cache_blocks, origin_blocks);
  return std::make_unique<LruPolicy>(table);
}

}  // namespace storlab
