#include "sim/layers/cache/cache_lru.h"

#include "sim/layers/cache/cache_smq.h"

namespace storlab {

void LruPolicy::Hit(const Access& a) {
  Entry* e = pos_.Find(a.block);
  if (e) list(e->dirty).PushHot(*e);
}

void LruPolicy::Insert(uint64_t block, bool dirty, Promote how) {
  auto [p, inserted] = pos_.TryEmplace(block);
  Entry& e = *p;
  if (inserted) {
    e.block = block;
  } else {  // inserted again: it leaves its old place
    list(e.dirty).Unlink(e);
  }
  e.dirty = dirty;
  // A temporary promotion is the first candidate for eviction.
  if (how == Promote::kTemporary) {
    list(dirty).PushCold(e);
  } else {
    list(dirty).PushHot(e);
  }
}

void LruPolicy::Remove(uint64_t block) {
  Entry* e = pos_.Find(block);
  if (!e) return;
  list(e->dirty).Unlink(*e);
  pos_.Erase(block);
}

void LruPolicy::SetDirty(uint64_t block, bool dirty) {
  Entry* e = pos_.Find(block);
  if (!e || e->dirty == dirty) return;
  list(e->dirty).Unlink(*e);
  e->dirty = dirty;
  list(dirty).PushHot(*e);
}

std::optional<uint64_t> LruPolicy::Victim(const std::function<bool(uint64_t)>& evictable,
                                          size_t max_scan) {
  size_t n = 0;
  for (const Entry& e : clean_) {
    if (n++ >= max_scan) break;
    if (evictable(e.block)) return e.block;
  }
  return std::nullopt;
}

std::unique_ptr<CachePolicy> MakeCachePolicy(PolicyKind kind, uint64_t cache_blocks,
                                             uint64_t origin_blocks) {
  if (kind == PolicyKind::kSmq) return std::make_unique<SmqPolicy>(cache_blocks, origin_blocks);
  return std::make_unique<LruPolicy>();
}

}  // namespace storlab
