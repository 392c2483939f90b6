#include "sim/serve/vfs/rw_range_lock.h"

#include <utility>
#include <vector>

namespace storlab {

bool RwRangeLock::Conflict(const Held& a, const Held& b) {
  if (!a.exclusive && !b.exclusive) return false;
  return a.begin < b.end && b.begin < a.end;
}

bool RwRangeLock::CanGrant(const Held& w, std::list<Waiter>::const_iterator upto) const {
  for (const Held& h : held_)
    if (Conflict(w, h)) return false;
  for (auto it = waiting_.begin(); it != upto; ++it)
    if (Conflict(w, it->want)) return false;
  return true;
}

void RwRangeLock::Acquire(uint64_t begin, uint64_t end, bool exclusive,
                          Callback<void(Held), 64> granted) {
  Held h{begin, end, exclusive, 0};
  {
    std::lock_guard<std::mutex> l(mu_);
    h.id = next_id_++;
    if (!CanGrant(h, waiting_.end())) {
      waiting_.push_back(Waiter{h, std::move(granted)});
      return;
    }
    held_.push_back(h);
  }
  granted(h);
}

void RwRangeLock::Release(const Held& held) {
  std::vector<Waiter> ready;
  {
    std::lock_guard<std::mutex> l(mu_);
    for (auto it = held_.begin(); it != held_.end(); ++it) {
      if (it->id == held.id) {
        held_.erase(it);
        break;
      }
    }
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (CanGrant(it->want, it)) {
        held_.push_back(it->want);
        ready.push_back(std::move(*it));
        it = waiting_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (Waiter& w : ready) w.granted(w.want);
}

size_t RwRangeLock::held() const {
  std::lock_guard<std::mutex> l(mu_);
  return held_.size();
}

size_t RwRangeLock::waiting() const {
  std::lock_guard<std::mutex> l(mu_);
  return waiting_.size();
}

}  // namespace storlab
