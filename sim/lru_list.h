// LruList<T, &T::hook>: the one least-recently-used order of storlab, an
// intrusive doubly linked list (the Linux kernel's list_head, nbdkit's
// filters/cache/lru.c idea without its bitmaps).
//
// Each entry embeds an LruHook<T> and is linked into at most one list
// through it; the list never allocates, every operation is O(1) (size()
// included) except the walk. The list does not own its entries: the owner
// keeps them where their addresses stay put while linked (the nodes of a
// std::unordered_map or GroupMap, a std::vector sized once) and finds them
// by key there. So an LRU of N keys costs one allocation per key (the
// owner's), not two (a std::list node and a map entry pointing at it).
//
// The order runs from the cold end (least recently used, the next victim)
// to the hot end (most recently used). PushHot() of a linked entry moves it
// to the hot end (a hit, a "touch"); PushCold() makes it the next victim (a
// temporary promotion, an entry moved down a level). Colder()/Warmer() step
// along; begin()/end() walk from cold to hot. Unlinking an entry while
// walking is allowed if the walk saved its next step first.
//
// Used by the block cache's LRU policy (sim/layers/cache/cache_lru.h) and
// smq's levels (cache_levels.h), the ZFS ARC (sim/layers/zfs/zfs_arc.h) and
// the SSD's map-segment cache (sim/devices/ssd_map_cache.h). (The page
// cache's groups move inside their hash table, so their order is a log of
// marks instead: sim/layers/page_cache/page_table.h.) Not thread-safe.
#ifndef STORLAB_SIM_LRU_LIST_H_
#define STORLAB_SIM_LRU_LIST_H_

#include <cstddef>
#include <iterator>

namespace storlab {

// The links an entry embeds. An entry is linked when `linked` is set; a
// default hook is unlinked.
template <typename T>
struct LruHook {
  T* colder = nullptr;
  T* warmer = nullptr;
  bool linked = false;
};

template <typename T, LruHook<T> T::*kHook>
class LruList {
 public:
  LruList() = default;
  LruList(const LruList&) = delete;
  LruList& operator=(const LruList&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  static bool Linked(const T& e) { return (e.*kHook).linked; }

  // The next victim / the most recently used entry; null when empty.
  T* Coldest() const { return cold_; }
  T* Hottest() const { return hot_; }
  // The neighbours of a linked entry; null at the ends.
  static T* Colder(const T& e) { return (e.*kHook).colder; }
  static T* Warmer(const T& e) { return (e.*kHook).warmer; }

  // Links `e` at the hot end, unlinking it first if it is in this list.
  // REQUIRES: `e` is in no other list.
  void PushHot(T& e) {
    if (hot_ == &e) return;
    if (Linked(e)) Unlink(e);
    LruHook<T>& h = e.*kHook;
    h = LruHook<T>{hot_, nullptr, true};
    (hot_ ? (hot_->*kHook).warmer : cold_) = &e;
    hot_ = &e;
    ++size_;
  }
  // Links `e` at the cold end, unlinking it first if it is in this list.
  // REQUIRES: `e` is in no other list.
  void PushCold(T& e) {
    if (cold_ == &e) return;
    if (Linked(e)) Unlink(e);
    LruHook<T>& h = e.*kHook;
    h = LruHook<T>{nullptr, cold_, true};
    (cold_ ? (cold_->*kHook).colder : hot_) = &e;
    cold_ = &e;
    ++size_;
  }
  // REQUIRES: `e` is in this list.
  void Unlink(T& e) {
    LruHook<T>& h = e.*kHook;
    (h.colder ? (h.colder->*kHook).warmer : cold_) = h.warmer;
    (h.warmer ? (h.warmer->*kHook).colder : hot_) = h.colder;
    h = LruHook<T>{};
    --size_;
  }
  // Forgets every entry without touching them (their owner is dropping
  // them too, e.g. at a power cut).
  void Clear() {
    cold_ = hot_ = nullptr;
    size_ = 0;
  }

  // Walks from the cold end to the hot end.
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = T*;
    using reference = T&;
    explicit Iterator(T* e = nullptr) : e_(e) {}
    T& operator*() const { return *e_; }
    T* operator->() const { return e_; }
    Iterator& operator++() {
      e_ = Warmer(*e_);
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const Iterator& o) const { return e_ == o.e_; }

   private:
    T* e_;
  };
  Iterator begin() const { return Iterator(cold_); }
  Iterator end() const { return Iterator(); }

 private:
  T* cold_ = nullptr;
  T* hot_ = nullptr;
  size_t size_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LRU_LIST_H_
