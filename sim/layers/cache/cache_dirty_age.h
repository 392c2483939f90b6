// DirtyAgeIndex: the cache's dirty blocks in the order of their oldest
// undestaged write (flush and expiry order), keyed (write sequence, block),
// each with the time of that write.
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
// the scan until the index is empty again. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_DIRTY_AGE_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_DIRTY_AGE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "sim/time.h"

namespace storlab {

class DirtyAgeIndex {
 public:
  using Key = std::pair<uint64_t, uint64_t>;  // (oldest write's sequence, block)
  using Map = std::map<Key, Nanos>;           // -> that write's time

  const Map& entries() const { return by_seq_; }
  bool empty() const { return by_seq_.empty(); }

  void Insert(uint64_t seq, uint64_t block, Nanos since);
  void Erase(uint64_t seq, uint64_t block);
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
  static bool Expired(Nanos since, Nanos now, Nanos expire) { return since + expire <= now; }
  Expiry ScanFromStart(Nanos now, Nanos expire, uint64_t limit) const;
  void ForgetPrefix() {
    prefix_end_ = Key{0, 0};
    prefix_len_ = 0;
  }

  Map by_seq_;
  bool rising_ = true;    // write times never fall along by_seq_
  Key prefix_end_{0, 0};  // entries before this key have expired
  uint64_t prefix_len_ = 0;
  Nanos last_now_, last_expire_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_DIRTY_AGE_H_
