#include "sim/layers/zfs/zfs_arc.h"

namespace storlab {

void ZfsArc::Insert(uint64_t record) {
  auto [entry, inserted] = records_.TryEmplace(record);
  entry->record = record;
  lru_.PushHot(*entry);
  HoldUncompressed(*entry);
  if (!inserted) return;
  while (used_bytes() > capacity_bytes_ && !lru_.empty()) {
    Entry& victim = *lru_.Coldest();
    lru_.Unlink(victim);
    if (dbufs_.Linked(victim)) dbufs_.Unlink(victim);
    records_.Erase(victim.record);
  }
}

void ZfsArc::HoldUncompressed(Entry& e) {
  dbufs_.PushHot(e);
  // dbuf_evict_one(): the least recently used go while over the target.
  while (uncompressed_bytes() > (capacity_bytes_ >> kDbufCacheShift) && !dbufs_.empty())
    dbufs_.Unlink(*dbufs_.Coldest());
}

void ZfsArc::Touch(uint64_t record) {
  Entry* entry = records_.Find(record);
  if (!entry) return;
  lru_.PushHot(*entry);
  if (dbufs_.Linked(*entry)) dbufs_.PushHot(*entry);
}

bool ZfsArc::Uncompressed(uint64_t record) const {
  const Entry* entry = records_.Find(record);
  return entry != nullptr && dbufs_.Linked(*entry);
}

void ZfsArc::Decompressed(uint64_t record) {
  if (Entry* entry = records_.Find(record)) HoldUncompressed(*entry);
}

void ZfsArc::Clear() {
  dbufs_.Clear();
  lru_.Clear();
  records_.Clear();
}

}  // namespace storlab
