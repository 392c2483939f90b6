#include "sim/layers/zfs/zfs_arc.h"

namespace storlab {

void ZfsArc::Insert(uint64_t record) {
  auto [it, inserted] = records_.try_emplace(record, Entry{record, {}});
  lru_.PushHot(it->second);
  if (!inserted) return;
  while (used_bytes() > capacity_bytes_ && !lru_.empty()) {
    Entry& victim = *lru_.Coldest();
    lru_.Unlink(victim);
    records_.erase(victim.record);
  }
}

void ZfsArc::Touch(uint64_t record) {
  auto it = records_.find(record);
  if (it != records_.end()) lru_.PushHot(it->second);
}

void ZfsArc::Clear() {
  lru_.Clear();
  records_.clear();
}

}  // namespace storlab
