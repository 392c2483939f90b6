// GroupSet: a set of page-group numbers in order — the groups where a file
// owns dirty or writeback pages — as a two-level bitmap over the range of
// groups the file has used: one bit per group, and a summary bit per 64-bit
// word that is not empty. Insert, erase and membership are a few bit
// operations; the next member at or after a group skips empty words through
// the summary. Where std::set<uint64_t> allocated a tree node per dirty
// group (and freed it when the group went clean), this allocates only when
// the range grows: one bit per group of 128 KiB, 1 MiB for a whole 1 TB
// device. The subset of std::set's interface the page table uses. Not
// thread-safe.
#ifndef STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_GROUP_SET_H_
#define STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_GROUP_SET_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

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

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  size_t count(uint64_t g) const {
    if (g < base_ || g - base_ >= words_.size() * 64) return 0;
    return (words_[(g - base_) / 64] >> ((g - base_) % 64)) & 1;
  }
  void insert(uint64_t g) {
    Cover(g);
    const uint64_t i = g - base_;
    uint64_t& w = words_[i / 64];
    const uint64_t bit = uint64_t{1} << (i % 64);
    if (w & bit) return;
    w |= bit;
    summary_[i / 4096] |= uint64_t{1} << (i / 64 % 64);
    ++size_;
  }
  void erase(uint64_t g) {
    if (!count(g)) return;
    const uint64_t i = g - base_;
    uint64_t& w = words_[i / 64];
    w &= ~(uint64_t{1} << (i % 64));
    if (w == 0) summary_[i / 4096] &= ~(uint64_t{1} << (i / 64 % 64));
    --size_;
  }
  // The smallest member >= g, or kEnd.
  uint64_t NextFrom(uint64_t g) const {
    if (g < base_) g = base_;
    uint64_t i = g - base_;
    if (i >= words_.size() * 64) return kEnd;
    // The rest of i's word.
    if (uint64_t w = words_[i / 64] & (~uint64_t{0} << (i % 64))) {
      return base_ + i / 64 * 64 + std::countr_zero(w);
    }
    // The next word that is not empty, through the summary.
    uint64_t next_word = i / 64 + 1;
    for (uint64_t sw = next_word / 64; sw < summary_.size(); ++sw) {
      uint64_t m = summary_[sw];
      if (sw == next_word / 64) m &= ~uint64_t{0} << (next_word % 64);
      if (!m) continue;
      const uint64_t word = sw * 64 + std::countr_zero(m);
      return base_ + word * 64 + std::countr_zero(words_[word]);
    }
    return kEnd;
  }

  Iterator begin() const { return {this, NextFrom(0)}; }
  Iterator end() const { return {this, kEnd}; }
  Iterator lower_bound(uint64_t g) const { return {this, NextFrom(g)}; }

 private:
  static constexpr uint64_t kSpan = 4096;  // groups per summary word

  // Grows the bitmap (in whole summary words) to cover group g.
  void Cover(uint64_t g) {
    if (words_.empty()) {
      base_ = g / kSpan * kSpan;
      words_.assign(kSpan / 64, 0);
      summary_.assign(1, 0);
      return;
    }
    if (g < base_) {
      // At least double the range, so that a file written backwards costs
      // O(n log n) copying, not O(n^2).
      const uint64_t spans = summary_.size();
      const uint64_t down = base_ / kSpan >= spans ? base_ - spans * kSpan : 0;
      const uint64_t nb = std::min(g / kSpan * kSpan, down);
      const uint64_t add = (base_ - nb) / kSpan;
      words_.insert(words_.begin(), add * (kSpan / 64), 0);
      summary_.insert(summary_.begin(), add, 0);
      base_ = nb;
    } else if (g - base_ >= words_.size() * 64) {
      const uint64_t spans = (g - base_) / kSpan + 1;
      words_.resize(spans * (kSpan / 64), 0);
      summary_.resize(spans, 0);
    }
  }

  uint64_t base_ = 0;              // first group covered, a multiple of kSpan
  std::vector<uint64_t> words_;    // bit g - base_
  std::vector<uint64_t> summary_;  // bit w: words_[w] != 0
  size_t size_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_GROUP_SET_H_
