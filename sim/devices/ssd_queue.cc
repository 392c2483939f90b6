#include "sim/devices/ssd_queue.h"

namespace storlab {

bool SsdCommandQueue::CanStart(const Request& r) const {
  if (barrier_ || active_ >= depth_) return false;
  return !(flush_drains_ && r.op == Op::kFlush && active_ > 0);
}

uint32_t SsdCommandQueue::Take(Request req) {
  const uint32_t slot = slots_.Acquire();
  if (flush_drains_ && req.op == Op::kFlush) barrier_ = true;
  SsdCommand& c = slots_[slot];
  c.req = std::move(req);
  c.ready = Nanos(0);
  c.target = 0;
  c.admitted = 0;
  ++active_;
  return slot;
}

bool SsdCommandQueue::Arrive(Request req, uint32_t* slot) {
  if (waiting_.empty() && CanStart(req)) {
    *slot = Take(std::move(req));
    return true;
  }
  waiting_.push_back(std::move(req));
  return false;
}

Request SsdCommandQueue::Finish(uint32_t slot) {
  Request r = std::move(slots_[slot].req);
  if (flush_drains_ && r.op == Op::kFlush) barrier_ = false;
  slots_.Release(slot);
  --active_;
  return r;
}

bool SsdCommandQueue::NextStartable(uint32_t* slot) {
  if (waiting_.empty() || !CanStart(waiting_.front())) return false;
  Request r = std::move(waiting_.front());
  waiting_.pop_front();
  *slot = Take(std::move(r));
  return true;
}

void SsdCommandQueue::Clear() {
  slots_.Clear();
  waiting_.clear();
  active_ = 0;
  barrier_ = false;
}

}  // namespace storlab
