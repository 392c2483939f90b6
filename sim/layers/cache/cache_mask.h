// BlockMask: which sectors of one cache block are held (valid) or dirty.
//
// A cache block of N sectors (N = block size / the cache's sector size)
// keeps one bit per sector. Up to 64 sectors fit in one inline word (a
// 32 KiB block of 512-byte sectors); larger blocks use a heap array. The
// operations are the few the cache needs: set / clear / test a range, and
// walk the set runs in ascending order. Value type, not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_MASK_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_MASK_H_

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <memory>
#include <utility>

#include "sim/bit_count.h"

namespace storlab {

class BlockMask {
 public:
  BlockMask() = default;
  explicit BlockMask(uint32_t sectors);
  BlockMask(const BlockMask& o);
  BlockMask& operator=(const BlockMask& o);
  BlockMask(BlockMask&&) noexcept = default;
  BlockMask& operator=(BlockMask&&) noexcept = default;

  uint32_t size() const { return sectors_; }
  // REQUIRES for the range functions: first + count <= size(). A block of
  // at most 64 sectors (every page cache's, a 32 KiB cache block's) is one
  // word, handled inline; larger blocks take the out-of-line loops.
  void Set(uint32_t first, uint32_t count) {
    if (!heap_) {
      inline_ |= Span(first, count);
    } else {
      SetWords(first, count);
    }
  }
  void Clear(uint32_t first, uint32_t count) {
    if (!heap_) {
      inline_ &= ~Span(first, count);
    } else {
      ClearWords(first, count);
    }
  }
  void SetAll() { Set(0, sectors_); }
  void ClearAll() { Clear(0, sectors_); }
  bool AllSet(uint32_t first, uint32_t count) const {
    if (heap_) return AllSetWords(first, count);
    const uint64_t m = Span(first, count);
    return (inline_ & m) == m;
  }
  bool AnySet(uint32_t first, uint32_t count) const {
    return heap_ ? AnySetWords(first, count) : (inline_ & Span(first, count)) != 0;
  }
  bool all() const { return AllSet(0, sectors_); }
  bool any() const { return AnySet(0, sectors_); }
  uint32_t Count() const { return heap_ ? CountWords(0, sectors_) : BitCount(inline_); }
  uint32_t Count(uint32_t first, uint32_t count) const {
    return heap_ ? CountWords(first, count) : BitCount(inline_ & Span(first, count));
  }
  // this &= ~o. REQUIRES: o.size() == size().
  void ClearBits(const BlockMask& o);
  // (first, count) pairs; a few live inline (no allocation per destage).
  using RunList = boost::container::small_vector<std::pair<uint32_t, uint32_t>, 4>;
  // The runs of set (or, with set = false, clear) sectors within
  // [first, first + count), as (first, count) pairs in ascending order.
  RunList Runs(uint32_t first, uint32_t count, bool set = true) const;
  RunList Runs() const { return Runs(0, sectors_); }
  bool operator==(const BlockMask& o) const;

 private:
  uint64_t* words() { return heap_ ? heap_.get() : &inline_; }
  const uint64_t* words() const { return heap_ ? heap_.get() : &inline_; }
  uint32_t nwords() const { return (sectors_ + 63) / 64; }
  // Bits [first, first + count) of one word. REQUIRES: first + count <= 64
  // (an empty range may start at 64).
  static uint64_t Span(uint32_t first, uint32_t count) {
    if (count == 0) return 0;
    return count == 64 ? ~uint64_t{0} : ((uint64_t{1} << count) - 1) << first;
  }
  void SetWords(uint32_t first, uint32_t count);
  void ClearWords(uint32_t first, uint32_t count);
  bool AllSetWords(uint32_t first, uint32_t count) const;
  bool AnySetWords(uint32_t first, uint32_t count) const;
  uint32_t CountWords(uint32_t first, uint32_t count) const;
  // The first sector in [i, end) whose bit is `set`; `end` if none.
  uint32_t Next(uint32_t i, uint32_t end, bool set) const;
  template <typename Fn>  // Fn(word index, mask of bits in range)
  static void ForWords(uint32_t first, uint32_t count, Fn&& fn);

  uint32_t sectors_ = 0;
  uint64_t inline_ = 0;
  std::unique_ptr<uint64_t[]> heap_;  // when sectors_ > 64
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_MASK_H_
