// KeyMap<T>: an index from a 64-bit key to an entry (the ZFS ARC's
// records, the oracle's blocks; sim/inline_map.h keeps small entries in
// the slots instead, as the RAM store's pages) as an open-addressing hash
// table (linear probing, Fibonacci hashing, power-of-two size, at most half
// full, backward-shift deletion) over entries allocated in chunks (64,
// doubling to 4096 entries), so their addresses stay put while they live
// (an LRU list links them), entries made together sit together, and freed
// entries are reused. A lookup is a multiply, a shift and usually one
// probe, where std::unordered_map pays a 64-bit division and a pointer
// chase; an insert allocates once per chunk, not once per entry. Keys are
// hashed by runs of kRun: the eight keys of an aligned run have eight
// neighbouring home slots (two cache lines), so a request that spans
// consecutive keys (a 1 MiB read is 256 oracle groups) misses the cache
// once per run, not once per key. Not thread-safe.
#ifndef STORLAB_SIM_KEY_MAP_H_
#define STORLAB_SIM_KEY_MAP_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace storlab {

template <typename T>
class KeyMap {
 public:
  KeyMap() { Rehash(kMinSlots); }
  KeyMap(const KeyMap&) = delete;
  KeyMap& operator=(const KeyMap&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  T* Find(uint64_t key) const {
    for (size_t i = Home(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (!s.value) return nullptr;
      if (s.key == key) return s.value;
    }
  }

  // Starts fetching `key`'s home slot into the cache, without waiting: a
  // walk over many keys whose slots are cold prefetches them all first, so
  // that their misses overlap instead of following one another.
  void Prefetch(uint64_t key) const { __builtin_prefetch(&slots_[Home(key)]); }

  // The entry for `key`, default-constructed if new; `inserted` says which.
  std::pair<T*, bool> TryEmplace(uint64_t key) {
    if (T* v = Find(key)) return {v, false};
    if ((size_ + 1) * 2 > slots_.size()) Rehash(slots_.size() * 2);
    T* v = Allocate();
    Place(key, v);
    ++size_;
    return {v, true};
  }

  // Forgets `key` (its entry goes back to the pool).
  void Erase(uint64_t key) {
    size_t i = Home(key);
    while (slots_[i].value && slots_[i].key != key) i = (i + 1) & mask_;
    if (!slots_[i].value) return;
    free_.push_back(slots_[i].value);
    --size_;
    // Backward-shift deletion: pull later members of the run into the hole.
    for (size_t j = (i + 1) & mask_; slots_[j].value; j = (j + 1) & mask_) {
      const size_t home = Home(slots_[j].key);
      // Move slot j to the hole at i unless its home lies in (i, j].
      const bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = Slot();
  }

  // Calls fn(key, const T&) for every entry, in no particular order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (const Slot& s : slots_)
      if (s.value) fn(s.key, *s.value);
  }

  void Clear() {
    slots_.clear();
    chunks_.clear();
    chunk_used_ = chunk_size_ = 0;
    free_.clear();
    size_ = 0;
    Rehash(kMinSlots);
  }

 private:
  static constexpr size_t kMinSlots = 1024;
  static constexpr unsigned kRunBits = 3;
  static constexpr uint64_t kRun = uint64_t{1} << kRunBits;
  static constexpr size_t kFirstChunk = 64, kMaxChunk = 4096;
  struct Slot {
    uint64_t key = 0;
    T* value = nullptr;  // nullptr: empty
  };

  // The run's slot group by Fibonacci hashing, then the key's place in it.
  size_t Home(uint64_t key) const {
    const uint64_t run = (key >> kRunBits) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(run >> (shift_ + kRunBits)) << kRunBits |
           static_cast<size_t>(key & (kRun - 1));
  }
  void Place(uint64_t key, T* v) {
    size_t i = Home(key);
    while (slots_[i].value) i = (i + 1) & mask_;
    slots_[i] = Slot{key, v};
  }
  // A fresh entry: a freed one, or the next of the newest chunk.
  T* Allocate() {
    if (!free_.empty()) {
      T* v = free_.back();
      free_.pop_back();
      // A fresh entry in the old one's place (no assignment asked of T).
      std::destroy_at(v);
      ::new (static_cast<void*>(v)) T();
      return v;
    }
    if (chunk_used_ == chunk_size_) {
      chunk_size_ = chunk_size_ == 0 ? kFirstChunk : std::min(chunk_size_ * 2, kMaxChunk);
      chunks_.push_back(std::make_unique<T[]>(chunk_size_));
      chunk_used_ = 0;
    }
    return &chunks_.back()[chunk_used_++];
  }
  void Rehash(size_t n) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(n, Slot());
    mask_ = n - 1;
    shift_ = 64;
    for (size_t m = n; m > 1; m >>= 1) --shift_;
    for (const Slot& s : old) {
      if (s.value) Place(s.key, s.value);
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  size_t size_ = 0;
  std::vector<std::unique_ptr<T[]>> chunks_;  // every entry, live or free
  size_t chunk_used_ = 0, chunk_size_ = 0;    // entries handed out of the newest chunk
  std::vector<T*> free_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_KEY_MAP_H_
