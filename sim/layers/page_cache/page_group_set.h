// GroupSet: a set of page-group numbers in order — the groups where a file
// owns dirty or writeback pages, a cache's dirty blocks — as bitmaps of
// 4096 groups ("chunks", one bit per group and a summary bit per 64-bit
// word that is not empty), kept in a map by chunk, only while they hold a
// member. Insert, erase and membership are a few bit operations in the
// chunk of the last group touched (neighbours share one), else a map
// lookup; the next member at or after a group skips empty words through
// the summary and empty chunks through the map. Where std::set<uint64_t>
// allocated a tree node per dirty group (and freed it when the group went
// clean), this allocates one chunk per 4096 groups in use. Memory follows
// the members, not their range: a flat bitmap over the range (the first
// version) took 550 MB for a cache of 4 KiB blocks dirtied at both ends of
// an 18 TB array. The subset of std::set's interface the page table uses.
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_GROUP_SET_H_
#define STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_GROUP_SET_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>

namespace storlab {

class GroupSet {
 public:
  static constexpr uint64_t kEnd = UINT64_MAX;

  class Iterator {
   public:
    Iterator(const GroupSet* s, uint64_t g) : s_(s), g_(g) {}
    uint64_t operator*() const { return g_; }
    Iterator& operator++() {
      g_ = s_->NextFrom(g_ + 1);
      return *this;
    }
    bool operator==(const Iterator& o) const { return g_ == o.g_; }
    bool operator!=(const Iterator& o) const { return g_ != o.g_; }

   private:
    const GroupSet* s_;
    uint64_t g_;
  };

  GroupSet() = default;
  GroupSet(GroupSet&& o) noexcept { *this = std::move(o); }
  GroupSet& operator=(GroupSet&& o) noexcept {
    chunks_ = std::move(o.chunks_);
    size_ = o.size_;
    o.chunks_.clear();
    o.size_ = 0;
    last_ = chunks_.end();
    o.last_ = o.chunks_.end();
    return *this;
  }
  GroupSet(const GroupSet&) = delete;
  GroupSet& operator=(const GroupSet&) = delete;

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // Bitmaps of 4096 groups held (each ~530 bytes): for tests.
  size_t chunks() const { return chunks_.size(); }
  size_t count(uint64_t g) const {
    const Chunk* c = Find(g / kSpan);
    return c != nullptr ? (c->words[g % kSpan / 64] >> (g % 64)) & 1 : 0;
  }
  void insert(uint64_t g) {
    Chunk& c = Get(g / kSpan);
    const uint64_t i = g % kSpan;
    uint64_t& w = c.words[i / 64];
    const uint64_t bit = uint64_t{1} << (i % 64);
    if (w & bit) return;
    w |= bit;
    c.summary |= uint64_t{1} << (i / 64);
    ++c.count;
    ++size_;
  }
  void erase(uint64_t g) {
    auto it = Lookup(g / kSpan);
    if (it == chunks_.end()) return;
    Chunk& c = it->second;
    const uint64_t i = g % kSpan;
    uint64_t& w = c.words[i / 64];
    const uint64_t bit = uint64_t{1} << (i % 64);
    if (!(w & bit)) return;
    w &= ~bit;
    if (w == 0) c.summary &= ~(uint64_t{1} << (i / 64));
    --size_;
    if (--c.count == 0) {
      if (last_ == it) last_ = chunks_.end();
      chunks_.erase(it);
    }
  }
  // The smallest member >= g, or kEnd.
  uint64_t NextFrom(uint64_t g) const {
    if (g == kEnd) return kEnd;
    for (auto it = chunks_.lower_bound(g / kSpan); it != chunks_.end(); ++it) {
      // From g's bit in its own chunk, from the first bit in a later one.
      const uint64_t from = it->first == g / kSpan ? g % kSpan : 0;
      const Chunk& c = it->second;
      if (uint64_t w = c.words[from / 64] & (~uint64_t{0} << (from % 64))) {
        return it->first * kSpan + from / 64 * 64 + std::countr_zero(w);
      }
      const uint64_t next_word = from / 64 + 1;
      if (next_word == 64) continue;
      if (uint64_t m = c.summary & (~uint64_t{0} << next_word)) {
        const uint64_t word = std::countr_zero(m);
        return it->first * kSpan + word * 64 + std::countr_zero(c.words[word]);
      }
    }
    return kEnd;
  }

  Iterator begin() const { return {this, NextFrom(0)}; }
  Iterator end() const { return {this, kEnd}; }
  Iterator lower_bound(uint64_t g) const { return {this, NextFrom(g)}; }

 private:
  static constexpr uint64_t kSpan = 4096;  // groups per chunk

  struct Chunk {
    uint64_t summary = 0;  // bit w: words[w] != 0
    uint32_t count = 0;    // members
    std::array<uint64_t, kSpan / 64> words{};
  };
  using Map = std::map<uint64_t, Chunk>;

  // The chunk of span `span`, or end(): the last one touched first.
  Map::iterator Lookup(uint64_t span) {
    if (last_ != chunks_.end() && last_->first == span) return last_;
    auto it = chunks_.find(span);
    if (it != chunks_.end()) last_ = it;
    return it;
  }
  const Chunk* Find(uint64_t span) const {
    if (last_ != chunks_.end() && last_->first == span) return &last_->second;
    auto it = chunks_.find(span);
    return it != chunks_.end() ? &it->second : nullptr;
  }
  Chunk& Get(uint64_t span) {
    auto it = Lookup(span);
    if (it == chunks_.end()) last_ = it = chunks_.try_emplace(span).first;
    return it->second;
  }

  Map chunks_;  // only chunks with members
  size_t size_ = 0;
  Map::iterator last_ = chunks_.end();  // the chunk last looked up, or end()
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_GROUP_SET_H_
