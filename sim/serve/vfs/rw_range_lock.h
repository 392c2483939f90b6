// RwRangeLock: shared and exclusive locks on byte ranges of a device, granted
// through callbacks, so that a writer that must read-modify-write a partial
// block never blocks a thread: it is called back when its range is free.
//
// A read-modify-write (exclusive) must not overlap any other write in
// flight, or it would write back stale bytes next to its own; plain aligned
// writes (shared) may overlap each other freely — the order of concurrent
// overlapping writes is the client's business, as on a disk. Waiters are
// granted in arrival order among those that overlap, so an exclusive
// waiter is not starved by a stream of shared ones.
//
// Thread-safe. A grant callback runs on the thread that made the range free
// (Acquire's caller when it is free at once, else a Release caller), never
// under the lock. (sim/layers/range_lock.h's RangeLock is the models':
// exclusive only, on the engine's thread.)
#ifndef STORLAB_SIM_SERVE_VFS_RW_RANGE_LOCK_H_
#define STORLAB_SIM_SERVE_VFS_RW_RANGE_LOCK_H_

#include <cstdint>
#include <list>
#include <mutex>

#include "sim/callback.h"

namespace storlab {

class RwRangeLock {
 public:
  using Grant = Callback<void(), 64>;
  // Identifies a held lock, for Release.
  struct Held {
    uint64_t begin = 0, end = 0;
    bool exclusive = false;
    uint64_t id = 0;
  };

  RwRangeLock() = default;
  RwRangeLock(const RwRangeLock&) = delete;
  RwRangeLock& operator=(const RwRangeLock&) = delete;

  // Locks [begin, end) and runs `granted(held)` once it holds it.
  // REQUIRES: begin < end.
  void Acquire(uint64_t begin, uint64_t end, bool exclusive, Callback<void(Held), 64> granted);
  // Releases a lock that Acquire granted; runs the grants it makes possible.
  void Release(const Held& held);

  // Locks held and waiting (for tests).
  size_t held() const;
  size_t waiting() const;

 private:
  struct Waiter {
    Held want;
    Callback<void(Held), 64> granted;
  };
  static bool Conflict(const Held& a, const Held& b);
  // REQUIRES: mu_ held. Whether `w` may be granted now: no conflict with a
  // held lock nor with an earlier waiter.
  bool CanGrant(const Held& w, std::list<Waiter>::const_iterator upto) const;

  mutable std::mutex mu_;
  std::list<Held> held_;
  std::list<Waiter> waiting_;
  uint64_t next_id_ = 1;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_VFS_RW_RANGE_LOCK_H_
