// RowsOp: the frame of a background operation on member rows [lo, hi)
// (Regenerate, Verify): the array, the rows, a read and a write phase, and
// the range lock taken before the subclass plans anything. The ticket is
// handed to the caller with the result. Not thread-safe; lives while
// callbacks hold it.
#ifndef STORLAB_SIM_LAYERS_RAID_ROWS_OP_H_
#define STORLAB_SIM_LAYERS_RAID_ROWS_OP_H_

#include <cstdint>
#include <memory>

#include "sim/layers/raid/raid_array.h"
#include "sim/layers/raid/sync_ops.h"

namespace storlab {

class RowsOp : public std::enable_shared_from_this<RowsOp> {
 public:
  RowsOp(RaidArray& a, uint64_t lo, uint64_t hi)
      : a_(a), lo_(lo), hi_(hi), reads_(a.size()), writes_(a.size()) {}
  virtual ~RowsOp() = default;
  RowsOp(const RowsOp&) = delete;
  RowsOp& operator=(const RowsOp&) = delete;

  // Takes the lock on the rows, then runs Plan(). REQUIRES: held by a
  // shared_ptr.
  void Start() {
    auto [l, h] = LockSpanOfRows(a_.layout(), lo_, hi_);
    auto me = shared_from_this();
    a_.lock().Acquire(l, h, [me](uint64_t ticket) {
      me->ticket_ = ticket;
      me->Plan();
    });
  }

 protected:
  virtual void Plan() = 0;

  RaidArray& a_;
  const uint64_t lo_, hi_;
  uint64_t ticket_ = 0;
  ExtentSet reads_, writes_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_ROWS_OP_H_
