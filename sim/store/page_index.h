// PageIndex: the RAM store's index from a page number to its 4 KiB, in two
// levels — a leaf of 64 page addresses for each 256 KiB of the device that
// holds any, found through an InlineMap keyed by the leaf's number — so the
// hash table holds one entry per 64 pages.
//
// Why not one InlineMap entry per page (stop 61's RamStore): that table
// grows by doubling, and each doubling moves every entry into a new table
// whose pages are all fresh — with the engine held, in the real-time
// service. Timed through the FUSE mount (4K random writes over fresh space,
// stop 62): the doubling to 1M slots held every request back 79 ms, to 2M
// it would be twice that, and a run of 6 s spent 156 ms in them; a client
// saw them as its latency's tail. Here the table holds one entry for up
// to 64 pages (an 8 GiB device, written anywhere: at most 32k entries, 3
// MiB of slots; its last doubling about 5 ms, as the per-page table's to
// 64k slots took), and a leaf is made in one allocation as its first page
// arrives. The cost: a leaf's 520 bytes for as little as one page (14 % of
// the page at worst, one page written in every 256 KiB), where every page
// written costs 0.2 % (against 1.2-2.3 % for the per-page table's slot
// at a quarter to half load). A cold lookup reads the table's slot and
// then the leaf, where the per-page table read one slot: the table is
// 1/64 the size, so its slots stay in the cache far more often. Not
// thread-safe.
#ifndef STORLAB_SIM_STORE_PAGE_INDEX_H_
#define STORLAB_SIM_STORE_PAGE_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "sim/inline_map.h"

namespace storlab {

class PageIndex {
 public:
  static constexpr unsigned kLeafBits = 6;
  static constexpr uint64_t kLeafPages = uint64_t{1} << kLeafBits;

  PageIndex() = default;
  PageIndex(const PageIndex&) = delete;
  PageIndex& operator=(const PageIndex&) = delete;

  // Pages held.
  size_t size() const { return size_; }

  // Page `idx`'s bytes, or nullptr.
  uint8_t* Find(uint64_t idx) const {
    const std::unique_ptr<Leaf>* leaf = leaves_.Find(idx >> kLeafBits);
    return leaf == nullptr ? nullptr : (*leaf)->pages[idx & (kLeafPages - 1)];
  }
  // Sets page `idx` to `bytes` (not nullptr); returns what it held before
  // (nullptr: a new page).
  uint8_t* Put(uint64_t idx, uint8_t* bytes);
  // Forgets page `idx`; returns its bytes (nullptr: it held none). A leaf
  // left empty is freed.
  uint8_t* Erase(uint64_t idx);
  // Starts fetching the table slot of page `idx`'s leaf into the cache.
  void PrefetchLeaf(uint64_t idx) const { leaves_.Prefetch(idx >> kLeafBits); }

  // Calls fn(idx, bytes) for every page (no particular order).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    leaves_.ForEach([&](uint64_t key, const std::unique_ptr<Leaf>& leaf) {
      for (uint64_t i = 0; i < kLeafPages; ++i) {
        if (leaf->pages[i] != nullptr) fn(key << kLeafBits | i, leaf->pages[i]);
      }
    });
  }

 private:
  struct Leaf {
    uint8_t* pages[kLeafPages] = {};
    uint32_t used = 0;  // pages[] that are not nullptr
  };
  // Leaf number -> leaf (24 bytes a slot).
  InlineMap<std::unique_ptr<Leaf>, alignof(uint64_t)> leaves_;
  size_t size_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_PAGE_INDEX_H_
