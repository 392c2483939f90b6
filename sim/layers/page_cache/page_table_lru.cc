// PageTable's LRU order: the log of (group, stamp) marks (page_table.h).
#include <algorithm>
#include <cstddef>
#include <vector>

#include "sim/layers/page_cache/page_table.h"

namespace storlab {

void PageTable::PushHot(Group& grp) {
  if (grp.lru != 0 && grp.lru == lru_stamp_) return;  // the newest mark is its own
  grp.lru = ++lru_stamp_;
  lru_log_.push_back({grp.index, grp.lru});
}

size_t PageTable::NextLive(size_t from) const {
  for (; from < lru_log_.size(); ++from) {
    const LruMark& m = lru_log_[from];
    const Group* grp = groups_.Find(m.group);
    if (grp && grp->lru == m.stamp) return from;
  }
  return from;
}

void PageTable::MaybeCompactLru() {
  // Every group in the table has a live mark (Get makes one, Normalize
  // forgets the group with it). Rebuilding from the table (a sequential
  // scan and a sort) rather than by looking each mark up costs a few
  // nanoseconds per touch at this threshold.
  const size_t marks = lru_log_.size() - lru_head_;
  if (marks <= 8 * groups_.size() + 4096) {
    // Reclaim moves the head past the marks it used up: drop them once they
    // outnumber the rest.
    if (lru_head_ > 4096 && lru_head_ > marks) {
      lru_log_.erase(lru_log_.begin(), lru_log_.begin() + static_cast<std::ptrdiff_t>(lru_head_));
      lru_head_ = 0;
    }
    return;
  }
  // Both vectors keep their capacity: no regrowing (fresh pages) each time.
  lru_scratch_.clear();
  groups_.ForEach([&](uint64_t g, const Group& grp) { lru_scratch_.push_back({g, grp.lru}); });
  std::sort(lru_scratch_.begin(), lru_scratch_.end(),
            [](const LruMark& a, const LruMark& b) { return a.stamp < b.stamp; });
  lru_log_.assign(lru_scratch_.begin(), lru_scratch_.end());
  lru_head_ = 0;
}

}  // namespace storlab
