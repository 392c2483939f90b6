#include "sim/layers/zfs/zfs_arc.h"

namespace storlab {

void ZfsArc::Insert(uint64_t record) {
  auto [entry, inserted] = records_.TryEmplace(record);
  entry->record = record;
  lru_.PushHot(*entry);
  if (!inserted) return;
  while (used_bytes() > capacity_bytes_ && !lru_.empty()) {
    Entry& victim = *lru_.Coldest();
    lru_.Unlink(victim);
    records_.Erase(victim.record);
  }
}

void ZfsArc::Touch(uint64_t record) {
  if (Entry* entry = records_.Find(record)) lru_.PushHot(*entry);
}

void ZfsArc::Clear() {
  lru_.Clear();
  records_.Clear();
}

}  // namespace storlab
