// InlineMap<T>: an index from a 64-bit key to a small entry kept in the
// hash table's own slot — KeyMap's table (linear probing, Fibonacci hashing
// by runs of eight keys, power-of-two size, at most half full,
// backward-shift deletion; sim/key_map.h) without its second level: a
// lookup reads one slot, one cache line for an entry of up to 48 bytes
// (the slot adds its key and a flag), where KeyMap reads a slot and then
// the entry it points to. The price:
// an entry moves when the table grows or a neighbour is erased, so a
// pointer to one is good only until the next TryEmplace or Erase, and
// nothing may link entries by address (the page table's groups, whose LRU
// order is a log of keys: sim/layers/page_cache/page_table.h). `kAlign`:
// the slot's alignment — a cache line (64) for an entry that fills one, the
// slot's own size for a small one (the RAM store's page pointers: 24 bytes
// a slot, where a line each would triple the table). Not thread-safe.
#ifndef STORLAB_SIM_INLINE_MAP_H_
#define STORLAB_SIM_INLINE_MAP_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace storlab {

template <typename T, size_t kAlign = 64>
class InlineMap {
 public:
  InlineMap() { Rehash(kMinSlots); }
  InlineMap(const InlineMap&) = delete;
  InlineMap& operator=(const InlineMap&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // The entry for `key`, or nullptr; valid until the next TryEmplace or Erase.
  T* Find(uint64_t key) {
    for (size_t i = Home(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  const T* Find(uint64_t key) const { return const_cast<InlineMap*>(this)->Find(key); }

  // Starts fetching `key`'s home slot into the cache, without waiting
  // (KeyMap::Prefetch).
  void Prefetch(uint64_t key) const { __builtin_prefetch(&slots_[Home(key)]); }

  // The entry for `key`, default-constructed if new; `inserted` says which.
  std::pair<T*, bool> TryEmplace(uint64_t key) {
    if (T* v = Find(key)) return {v, false};
    if ((size_ + 1) * 2 > slots_.size()) Rehash(slots_.size() * 2);
    size_t i = Home(key);
    while (slots_[i].used) i = (i + 1) & mask_;
    slots_[i].key = key;
    slots_[i].used = true;
    slots_[i].value = T();
    ++size_;
    return {&slots_[i].value, true};
  }

  // Forgets `key`; the entries after it in its run may move.
  void Erase(uint64_t key) {
    size_t i = Home(key);
    while (slots_[i].used && slots_[i].key != key) i = (i + 1) & mask_;
    if (!slots_[i].used) return;
    --size_;
    // Backward-shift deletion: pull later members of the run into the hole.
    for (size_t j = (i + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
      const size_t home = Home(slots_[j].key);
      // Move slot j to the hole at i unless its home lies in (i, j].
      const bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
      if (stays) continue;
      slots_[i].key = slots_[j].key;
      slots_[i].value = std::move(slots_[j].value);
      i = j;
    }
    slots_[i].used = false;
    slots_[i].value = T();  // lets go of what it owned
  }

  // Calls fn(key, T&) for every entry, in slot order (no particular order).
  template <typename Fn>
  void ForEach(Fn&& fn) {
    for (Slot& s : slots_)
      if (s.used) fn(s.key, s.value);
  }
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (const Slot& s : slots_)
      if (s.used) fn(s.key, s.value);
  }

  void Clear() {
    if (size_ == 0 && slots_.size() == kMinSlots) return;  // (no pages written for nothing)
    slots_.clear();
    size_ = 0;
    Rehash(kMinSlots);
  }

 private:
  static constexpr size_t kMinSlots = 64;  // one page: a power cut's Clear() in a forked copy
  static constexpr unsigned kRunBits = 3;
  static constexpr uint64_t kRun = uint64_t{1} << kRunBits;
  // At the default kAlign, one cache line for the page table's groups (48
  // bytes) and their key.
  struct alignas(kAlign) Slot {
    uint64_t key = 0;
    bool used = false;
    T value;
  };

  // KeyMap's Home(): the run's slot group by Fibonacci hashing, then the
  // key's place in it.
  size_t Home(uint64_t key) const {
    const uint64_t run = (key >> kRunBits) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(run >> (shift_ + kRunBits)) << kRunBits |
           static_cast<size_t>(key & (kRun - 1));
  }
  void Rehash(size_t n) {
    // The new table first: if it cannot be had, the map is as it was.
    std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(n));
    mask_ = n - 1;
    shift_ = 64;
    for (size_t m = n; m > 1; m >>= 1) --shift_;
    for (Slot& s : old) {
      if (!s.used) continue;
      size_t i = Home(s.key);
      while (slots_[i].used) i = (i + 1) & mask_;
      slots_[i].key = s.key;
      slots_[i].used = true;
      slots_[i].value = std::move(s.value);
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  size_t size_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_INLINE_MAP_H_
