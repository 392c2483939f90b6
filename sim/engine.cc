#include "sim/engine.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>

namespace storlab {

Engine::EventId Engine::At(Nanos t, Event fn) {
  if (t < now_) {
    // A model bug, never user input: scheduling into the past would make
    // time go backwards.
    std::fprintf(stderr, "storlab: event scheduled at %lld ns, before now %lld ns\n",
                 static_cast<long long>(t.count()), static_cast<long long>(now_.count()));
    std::abort();
  }
  uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  uint64_t seq = next_seq_++;
  slots_[slot].fn = std::move(fn);
  slots_[slot].seq = seq;
  queue_.Push({t.count(), seq, slot});
  ++live_;
  return {seq, slot};
}

bool Engine::Cancel(EventId id) {
  if (!id || id.slot >= slots_.size() || slots_[id.slot].seq != id.seq) return false;
  slots_[id.slot].seq = 0;
  slots_[id.slot].fn.Reset();
  --live_;
  return true;  // the heap entry is dropped lazily; the slot is freed then
}

void Engine::PopCancelled() {
  while (!queue_.empty()) {
    const EventQueue::Entry& top = queue_.Top();
    if (slots_[top.slot].seq == top.seq) return;
    free_slots_.push_back(top.slot);
    queue_.Pop();
  }
}

Nanos Engine::next_time() {
  PopCancelled();
  assert(!queue_.empty());
  return Nanos(queue_.Top().t);
}

bool Engine::Step() {
  PopCancelled();
  if (queue_.empty()) return false;
  const EventQueue::Entry e = queue_.Top();
  queue_.Pop();
  assert(e.t >= now_.count());
  now_ = Nanos(e.t);  // the one place simulated time advances with an event
  Slot& s = slots_[e.slot];
  Event fn = std::move(s.fn);
  s.seq = 0;
  free_slots_.push_back(e.slot);
  --live_;
  ++events_run_;
  fn();
  return true;
}

void Engine::AdvanceTo(Nanos t) {
  assert(t >= now_);
  assert(empty() || t <= next_time());
  if (t > now_) now_ = t;
}

void Engine::Clear() {
  queue_.Clear();
  // Destroy callbacks after the queue is empty: a destructor may not
  // re-enter the engine, but keeping the order simple avoids surprises.
  std::vector<Slot> old;
  old.swap(slots_);
  free_slots_.clear();
  live_ = 0;
}

}  // namespace storlab
