#include "sim/layers/raid/extent_set.h"

#include <algorithm>
#include <cassert>

namespace storlab {

void ExtentSet::Add(int member, uint64_t off, uint64_t len) {
  assert(!finalized_ && len > 0);
  ranges_[static_cast<size_t>(member)].emplace_back(off, off + len);
}

void ExtentSet::Finalize(bool with_data) {
  assert(!finalized_);
  finalized_ = true;
  for (size_t m = 0; m < ranges_.size(); ++m) {
    auto& r = ranges_[m];
    std::sort(r.begin(), r.end());
    size_t first = extents_.size();
    for (const auto& [lo, hi] : r) {
      if (extents_.size() > first && extents_.back().offset + extents_.back().length >= lo) {
        Extent& e = extents_.back();
        e.length = std::max(e.offset + e.length, hi) - e.offset;
        continue;
      }
      Extent e;
      e.member = static_cast<int>(m);
      e.offset = lo;
      e.length = hi - lo;
      extents_.push_back(std::move(e));
    }
  }
  if (with_data) {
    for (auto& e : extents_) e.data.reset(new uint8_t[e.length]);
  }
}

void ExtentSet::Reset() {
  for (auto& r : ranges_) r.clear();
  extents_.clear();
  finalized_ = false;
}

const ExtentSet::Extent* ExtentSet::Find(int member, uint64_t off) const {
  // Extents are sorted by (member, offset): binary search.
  auto it =
      std::upper_bound(extents_.begin(), extents_.end(), std::make_pair(member, off),
                       [](const std::pair<int, uint64_t>& k, const Extent& e) {
                         return k.first < e.member || (k.first == e.member && k.second < e.offset);
                       });
  if (it == extents_.begin()) return nullptr;
  --it;
  if (it->member != member || off >= it->offset + it->length) return nullptr;
  return &*it;
}

uint8_t* ExtentSet::At(int member, uint64_t off) {
  const Extent* e = Find(member, off);
  assert(e != nullptr);
  if (e == nullptr || !e->data) return nullptr;
  return e->data.get() + (off - e->offset);
}

bool ExtentSet::Failed(int member, uint64_t off) const {
  const Extent* e = Find(member, off);
  return e != nullptr && e->failed;
}

uint64_t ExtentSet::bytes() const {
  uint64_t b = 0;
  for (const auto& e : extents_) b += e.length;
  return b;
}

}  // namespace storlab
