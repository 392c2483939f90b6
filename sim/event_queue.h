// EventQueue: the engine's pending events in (time, sequence) order, as a
// radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for the
// shortest path problem", J. ACM 1990).
//
// A discrete-event simulation pops its keys in rising order and never
// schedules below the last one popped — a monotone priority queue. A radix
// heap keeps each entry in the bucket of the highest bit in which its key
// differs from the last key popped; a push is an append, and a pop, when
// its bucket is empty, moves the lowest non-empty bucket down around that
// bucket's minimum. Each entry moves down a few times in its life instead
// of climbing and sinking through a binary heap's levels on every push and
// pop (where a storage stack with hundreds of pending events spent a fifth
// of its run). Keys are unique (the sequence), so the order is total and
// exactly the binary heap's. Not thread-safe.
#ifndef STORLAB_SIM_EVENT_QUEUE_H_
#define STORLAB_SIM_EVENT_QUEUE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace storlab {

class EventQueue {
 public:
  struct Entry {
    int64_t t;     // never negative
    uint64_t seq;  // unique, rising
    uint32_t slot;
  };

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  // REQUIRES: e's (t, seq) is above that of every entry popped so far.
  void Push(const Entry& e) {
    const Key k = KeyOf(e);
    if (k < last_) Rebase(k);
    Put(e);
  }
  // The entry with the least (t, seq). REQUIRES: !empty().
  const Entry& Top() {
    if (buckets_[0].empty()) Refill();
    return buckets_[0].back();
  }
  void Pop() {
    (void)Top();
    buckets_[0].pop_back();
    if (buckets_[0].empty()) nonempty_[0] &= ~uint64_t{1};
    --size_;
  }
  // Forgets every entry; pushes may start from any key again.
  void Clear();

 private:
  using Key = unsigned __int128;
  static constexpr unsigned kBuckets = 129;  // 0: equal to last_; b: differs first at bit b-1
  static Key KeyOf(const Entry& e) { return Key{static_cast<uint64_t>(e.t)} << 64 | e.seq; }
  unsigned BucketOf(Key k) const;
  void Put(const Entry& e) {
    const unsigned b = BucketOf(KeyOf(e));
    buckets_[b].push_back(e);
    nonempty_[b / 64] |= uint64_t{1} << (b % 64);
    ++size_;
  }
  // Bucket 0 is empty: the lowest non-empty bucket's minimum becomes last_
  // and its entries move to the buckets they fall in around it.
  void Refill();
  // A push below last_, which a Top() (a peek: the real-time driver's
  // next_time() before it sleeps) set to the least key still queued, not
  // to one popped. Centres the buckets on `k` instead: every entry whose
  // highest bit differing from last_ is below the one in which k differs
  // from last_ now differs from k first there, so those buckets (last_'s
  // own included) merge into that one; the higher ones stay.
  void Rebase(Key k);

  std::array<std::vector<Entry>, kBuckets> buckets_;
  std::array<uint64_t, 3> nonempty_{};  // bit b: buckets_[b] holds entries
  Key last_ = 0;                        // no entry's key is below it
  size_t size_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_EVENT_QUEUE_H_
