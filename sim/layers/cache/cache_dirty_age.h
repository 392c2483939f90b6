// DirtyAgeIndex: the cache's dirty blocks in the order of their oldest
// undestaged write (flush and expiry order), keyed (write sequence, block),
// each with the time of that write. A block is in it at most once.
//
// The destager asks, after every request that ends, when the next dirty
// block expires: the first block in this order whose oldest write is not
// yet `expire` old, unless more than a limit have expired before it. A
// scan from the start answers in O(expired blocks), and a RAM cache that
// cannot destage as fast as it is written holds thousands of expired
// blocks, so that scan dominated such runs. Blocks turn dirty in write
// order and time never goes back, so the write times rise along the order
// and the expired blocks are its prefix: the index keeps where that prefix
// ends and how long it is, moves the end on as time passes, and counts the
// blocks removed before it — the same answer in amortised O(1). When an
// insertion breaks the rising order (a restored state), it falls back to
// the scan until the index is empty again.
//
// Kept as a log in key order, not a tree: a write's blocks take a sequence
// number above every earlier one, so an insertion appends; an erasure
// leaves a hole that a walk skips and a compaction removes once holes
// outnumber entries. Each block's position in the log is kept by the
// caller (a field of its cache entry, its "home"), which the index writes
// whenever the log moves: an erasure finds its slot without a lookup. A key inserted out
// of order (a restored state) is appended too and the log sorted before it
// is next read in order. Where std::map allocated and rebalanced a node per
// dirty block, a NAS server's cache turning millions of blocks dirty and
// clean spent a fifth of its run there. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_DIRTY_AGE_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_DIRTY_AGE_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include "sim/time.h"

namespace storlab {

class DirtyAgeIndex {
  struct Slot;

 public:
  using Key = std::pair<uint64_t, uint64_t>;  // (oldest write's sequence, block)
  using Entry = std::pair<Key, Nanos>;        // -> that write's time

  // The entries in key order, for a range-for; read only. Valid until the
  // next Insert, Erase or Clear.
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Entry;
    using difference_type = std::ptrdiff_t;
    using pointer = const Entry*;
    using reference = const Entry&;
    Iterator() = default;
    reference operator*() const;
    pointer operator->() const { return &**this; }
    Iterator& operator++();
    bool operator==(const Iterator& o) const { return i_ == o.i_; }

   private:
    friend class DirtyAgeIndex;
    Iterator(const std::vector<Slot>* log, size_t i) : log_(log), i_(i) {}
    const std::vector<Slot>* log_ = nullptr;
    size_t i_ = 0;
  };
  class Entries {
   public:
    Iterator begin() const { return x_->Begin(); }
    Iterator end() const { return Iterator(&x_->log_, x_->log_.size()); }
    bool empty() const { return x_->empty(); }

   private:
    friend class DirtyAgeIndex;
    explicit Entries(const DirtyAgeIndex* x) : x_(x) {}
    const DirtyAgeIndex* x_;
  };

  DirtyAgeIndex() = default;
  DirtyAgeIndex(const DirtyAgeIndex&) = delete;
  DirtyAgeIndex& operator=(const DirtyAgeIndex&) = delete;

  Entries entries() const { return Entries(this); }
  bool empty() const { return live_ == 0; }
  size_t size() const { return live_; }

  // A home not in the index.
  static constexpr size_t kNotIn = SIZE_MAX;

  // `home`: where the caller keeps the block's position, kNotIn while the
  // block is not in the index; at a stable address while it is, since the
  // index rewrites it when the log moves. REQUIRES: `block` is not in the
  // index under another sequence number (the same key again changes
  // nothing).
  void Insert(uint64_t seq, uint64_t block, Nanos since, size_t& home);
  // Removes (seq, block) if `home` holds it (else changes nothing); `home`
  // becomes kNotIn.
  void Erase(uint64_t seq, uint64_t block, size_t& home);
  // Forgets every entry; the caller forgets the homes.
  void Clear();

  struct Expiry {
    uint64_t expired = 0;       // blocks before `next` that have expired
    std::optional<Nanos> next;  // the write time of the first that has not
  };
  // At `now`, blocks whose oldest write is at or before now - expire have
  // expired. Counts them from the start of the order up to the first one
  // that has not expired; stops counting past `limit` (then `next` is
  // empty). REQUIRES: `now` does not go back between calls with the same
  // `expire` (else the index starts over, still exact).
  Expiry Scan(Nanos now, Nanos expire, uint64_t limit);

 private:
  struct Slot {
    Entry entry;
    size_t* home = nullptr;  // the block's position, kept by the caller
    bool live = false;
  };
  static bool Expired(Nanos since, Nanos now, Nanos expire) { return since + expire <= now; }
  Expiry ScanFromStart(Nanos now, Nanos expire, uint64_t limit) const;
  // The first live slot at or after i.
  size_t Live(size_t i) const {
    while (i < log_.size() && !log_[i].live) ++i;
    return i;
  }
  Iterator Begin() const;
  // Puts the log back in key order without holes (after an out-of-order
  // insertion; entries() and Scan() read it in order), or drops its holes
  // (Compact, once they outnumber the entries); the homes follow.
  void Sort() const;
  void Compact();
  void Reposition() const;
  // Empty again: the log restarts.
  void Reset();
  void ForgetPrefix() const {
    prefix_end_ = 0;
    prefix_len_ = 0;
  }

  // The log, and what indexes it, move when it is sorted, which a const
  // reader may ask for first.
  mutable std::vector<Slot> log_;
  mutable size_t head_ = 0;  // no live slot before it
  mutable bool sorted_ = true;
  size_t live_ = 0;
  Key last_key_{0, 0};  // the highest key appended since the log was empty
  Nanos last_since_;    // the latest write time appended since then
  bool rising_ = true;  // write times never fall along the key order
  // Slots before prefix_end_ hold expired blocks (prefix_len_ of them live).
  mutable size_t prefix_end_ = 0;
  mutable uint64_t prefix_len_ = 0;
  Nanos last_now_, last_expire_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_DIRTY_AGE_H_
