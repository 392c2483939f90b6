#include "sim/store/page_index.h"

#include <memory>
#include <utility>

namespace storlab {

uint8_t* PageIndex::Put(uint64_t idx, uint8_t* bytes) {
  const uint64_t key = idx >> kLeafBits;
  Leaf* leaf = nullptr;
  if (std::unique_ptr<Leaf>* held = leaves_.Find(key)) {
    leaf = held->get();
  } else {
    // Made before its entry, so that running out of memory leaves no entry
    // without a leaf.
    auto made = std::make_unique<Leaf>();
    leaf = made.get();
    *leaves_.TryEmplace(key).first = std::move(made);
  }
  uint8_t*& slot = leaf->pages[idx & (kLeafPages - 1)];
  uint8_t* before = slot;
  slot = bytes;
  if (before == nullptr) {
    ++leaf->used;
    ++size_;
  }
  return before;
}

uint8_t* PageIndex::Erase(uint64_t idx) {
  std::unique_ptr<Leaf>* leaf = leaves_.Find(idx >> kLeafBits);
  if (leaf == nullptr) return nullptr;
  uint8_t*& slot = (*leaf)->pages[idx & (kLeafPages - 1)];
  uint8_t* before = slot;
  if (before == nullptr) return nullptr;
  slot = nullptr;
  --size_;
  if (--(*leaf)->used == 0) leaves_.Erase(idx >> kLeafBits);
  return before;
}

}  // namespace storlab
