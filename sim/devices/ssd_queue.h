// SsdCommandQueue: the commands a drive has accepted — at most
// `queue_depth` at work (NCQ's 32 tags, an NVMe queue's entries), the rest
// waiting in arrival order — kept in a slot table (SlotPool, sim/slot_pool.h)
// so that an engine event refers to a command by a small index instead of
// carrying the request.
//
// With `flush_drains` (SATA: FLUSH CACHE is not an NCQ command) a FLUSH
// starts only when nothing else is at work, and nothing starts while it
// runs. Commands never overtake each other in the waiting line.
// Not thread-safe.
#ifndef STORLAB_SIM_DEVICES_SSD_QUEUE_H_
#define STORLAB_SIM_DEVICES_SSD_QUEUE_H_

#include <cstdint>
#include <deque>

#include "sim/request.h"
#include "sim/slot_pool.h"
#include "sim/time.h"

namespace storlab {

struct SsdCommand {
  Request req;
  Nanos ready;            // model scratch: when the controller has acted on it
  uint64_t target = 0;    // model scratch: the program a FLUSH / FUA write waits for
  uint64_t admitted = 0;  // model scratch: bytes of a write taken into the buffer
};

class SsdCommandQueue {
 public:
  SsdCommandQueue(uint32_t depth, bool flush_drains) : depth_(depth), flush_drains_(flush_drains) {}
  SsdCommandQueue(const SsdCommandQueue&) = delete;
  SsdCommandQueue& operator=(const SsdCommandQueue&) = delete;

  // Accepts `req`. Returns true, with its slot in *slot, if it may start
  // now; otherwise it waits.
  bool Arrive(Request req, uint32_t* slot);
  SsdCommand& at(uint32_t slot) { return slots_[slot]; }
  // Ends the command in `slot` and returns its request (for its completion).
  Request Finish(uint32_t slot);
  // The next waiting command that may start now, if any (call after Finish
  // until it returns false).
  bool NextStartable(uint32_t* slot);

  uint32_t active() const { return active_; }
  bool idle() const { return active_ == 0 && waiting_.empty(); }
  // A power cut: every command is dropped without completing.
  void Clear();

 private:
  bool CanStart(const Request& r) const;
  uint32_t Take(Request req);

  uint32_t depth_;
  bool flush_drains_;
  uint32_t active_ = 0;
  bool barrier_ = false;  // a draining FLUSH is at work
  SlotPool<SsdCommand> slots_;
  std::deque<Request> waiting_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_QUEUE_H_
