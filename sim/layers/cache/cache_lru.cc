#include "sim/layers/cache/cache_lru.h"

#include "sim/layers/cache/cache_smq.h"

namespace storlab {

void LruPolicy::Hit(const Access& a) {
  auto it = pos_.find(a.block);
  if (it == pos_.end()) return;
  auto& l = list(it->second.dirty);
  l.splice(l.end(), l, it->second.it);
}

void LruPolicy::Insert(uint64_t block, bool dirty, Promote how) {
  auto& l = list(dirty);
  // A temporary promotion is the first candidate for eviction.
  auto it = how == Promote::kTemporary ? l.insert(l.begin(), block) : l.insert(l.end(), block);
  pos_[block] = Pos{dirty, it};
}

void LruPolicy::Remove(uint64_t block) {
  auto it = pos_.find(block);
  if (it == pos_.end()) return;
  list(it->second.dirty).erase(it->second.it);
  pos_.erase(it);
}

void LruPolicy::SetDirty(uint64_t block, bool dirty) {
  auto it = pos_.find(block);
  if (it == pos_.end() || it->second.dirty == dirty) return;
  auto& from = list(it->second.dirty);
  auto& to = list(dirty);
  to.splice(to.end(), from, it->second.it);
  it->second.dirty = dirty;
}

std::optional<uint64_t> LruPolicy::Victim(const std::function<bool(uint64_t)>& evictable,
                                          size_t max_scan) {
  size_t n = 0;
  for (uint64_t b : clean_) {
    if (n++ >= max_scan) break;
    if (evictable(b)) return b;
  }
  return std::nullopt;
}

std::unique_ptr<CachePolicy> MakeCachePolicy(PolicyKind kind, uint64_t cache_blocks,
                                             uint64_t origin_blocks) {
  if (kind == PolicyKind::kSmq) return std::make_unique<SmqPolicy>(cache_blocks, origin_blocks);
  return std::make_unique<LruPolicy>();
}

}  // namespace storlab
