#include "sim/devices/hdd_write_cache.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace storlab {

bool HddWriteCache::HasRoom(uint64_t length) const {
  return dirty_bytes_ + reserved_bytes_ + length <= capacity_ &&
         dirty_.size() + reserved_writes_ + 1 <= max_extents_;
}

void HddWriteCache::Reserve(uint64_t length) {
  reserved_bytes_ += length;
  ++reserved_writes_;
}

void HddWriteCache::Put(uint64_t offset, uint64_t length, const uint8_t* data, bool zeros) {
  reserved_bytes_ -= std::min(reserved_bytes_, length);
  if (reserved_writes_ > 0) --reserved_writes_;
  if (zeros) {
    overlay_.PutZeros(offset, length);
  } else {
    overlay_.Put(offset, length, data);
  }
  // Merge with every extent that overlaps or touches [offset, end).
  uint64_t start = offset, end = offset + length;
  auto it = dirty_.upper_bound(start);
  if (it != dirty_.begin() && std::prev(it)->second >= start) --it;
  while (it != dirty_.end() && it->first <= end) {
    start = std::min(start, it->first);
    end = std::max(end, it->second);
    dirty_bytes_ -= it->second - it->first;
    it = dirty_.erase(it);
  }
  dirty_.emplace(start, end);
  dirty_bytes_ += end - start;
}

bool HddWriteCache::Covers(uint64_t offset, uint64_t length) const {
  auto it = dirty_.upper_bound(offset);
  if (it == dirty_.begin()) return false;
  --it;
  return it->first <= offset && it->second >= offset + length;
}

void HddWriteCache::Nearest(uint64_t near, size_t n, uint64_t max_length,
                            std::vector<Extent>* out) const {
  out->clear();
  auto right = dirty_.lower_bound(near);
  auto left = right;  // the extents before `right`, walked downwards
  auto piece = [&](const std::pair<uint64_t, uint64_t>& e) {  // start, end
    return Extent{e.first, std::min(max_length, e.second - e.first)};
  };
  while (out->size() < n && (right != dirty_.end() || left != dirty_.begin())) {
    const bool take_right =
        left == dirty_.begin() ||
        (right != dirty_.end() && right->first - near <= near - std::prev(left)->first);
    if (take_right) {
      out->push_back(piece(*right++));
    } else {
      out->push_back(piece(*--left));
    }
  }
}

void HddWriteCache::Remove(uint64_t offset, uint64_t length) {
  const uint64_t end = offset + length;
  auto it = dirty_.upper_bound(offset);
  if (it != dirty_.begin() && std::prev(it)->second > offset) --it;
  while (it != dirty_.end() && it->first < end) {
    const uint64_t s = it->first, e = it->second;
    dirty_bytes_ -= e - s;
    it = dirty_.erase(it);
    if (s < offset) {
      it = std::next(dirty_.emplace(s, offset).first);  // (an insert moves what follows)
      dirty_bytes_ += offset - s;
    }
    if (e > end) {
      it = dirty_.emplace(end, e).first;
      dirty_bytes_ += e - end;
      ++it;
    }
  }
}

Status HddWriteCache::Destage(uint64_t offset, uint64_t length, Store& store) {
  Remove(offset, length);
  return overlay_.DrainTo(store, offset, length);
}

void HddWriteCache::Discard(uint64_t offset, uint64_t length) {
  Remove(offset, length);
  overlay_.Erase(offset, length);
}

Result<uint64_t> HddWriteCache::LosePower(Store& store, PowerCutMode mode, uint32_t unit,
                                          Random& rng) {
  auto landed = storlab::LosePower(overlay_, store, mode, unit, rng);
  Clear();
  return landed;
}

void HddWriteCache::Clear() {
  overlay_.Clear();
  dirty_.clear();
  dirty_bytes_ = reserved_bytes_ = 0;
  reserved_writes_ = 0;
}

}  // namespace storlab
