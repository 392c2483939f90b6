#include "sim/layers/vm/qcow2_l2_cache.h"

namespace storlab {

bool Qcow2L2Cache::Touch(uint64_t slice) {
  auto it = entries_.find(slice);
  if (it == entries_.end()) return false;
  lru_.PushHot(it->second);
  return true;
}

std::optional<uint64_t> Qcow2L2Cache::Victim() const {
  if (lru_.size() < capacity_) return std::nullopt;
  return lru_.Coldest()->slice;
}

void Qcow2L2Cache::Evict(uint64_t slice) {
  auto it = entries_.find(slice);
  lru_.Unlink(it->second);
  entries_.erase(it);
  dirty_.erase(slice);
}

void Qcow2L2Cache::Insert(uint64_t slice) {
  Entry& e = entries_[slice];
  e.slice = slice;
  lru_.PushHot(e);
}

void Qcow2L2Cache::Clear() {
  lru_.Clear();
  entries_.clear();
  dirty_.clear();
}

}  // namespace storlab
