#include "sim/engine.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>

namespace storlab {

Engine::EventId Engine::Reserve(Nanos t) {
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
    slot = slot_count_++;
    if ((slot >> kChunkBits) == chunks_.size())
      chunks_.push_back(std::make_unique<Slot[]>(size_t{1} << kChunkBits));
  }
  const uint64_t seq = next_seq_++;
  SlotAt(slot).seq = seq;
  queue_.Push({t.count(), seq, slot});
  ++live_;
  return {seq, slot};
}

bool Engine::Cancel(EventId id) {
  if (!id || id.slot >= slot_count_ || SlotAt(id.slot).seq != id.seq) return false;
  Slot& s = SlotAt(id.slot);
  s.seq = 0;
  s.fn.Reset();
  --live_;
  return true;  // the heap entry is dropped lazily; the slot is freed then
}

void Engine::PopCancelled() {
  while (!queue_.empty()) {
    const EventQueue::Entry& top = queue_.Top();
    if (SlotAt(top.slot).seq == top.seq) return;
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
  // The event runs in its slot: the slot is neither free nor cancellable
  // meanwhile (seq 0, not in free_slots_), and a Clear() from inside the
  // event (a power cut) leaves it alone.
  assert(running_ == kNoSlot);  // Step() is never called from inside an event
  Slot& s = SlotAt(e.slot);
  s.seq = 0;
  --live_;
  ++events_run_;
  running_ = e.slot;
  s.fn();
  running_ = kNoSlot;
  s.fn.Reset();
  free_slots_.push_back(e.slot);
  return true;
}

void Engine::AdvanceTo(Nanos t) {
  assert(t >= now_);
  assert(empty() || t <= next_time());
  if (t > now_) now_ = t;
}

void Engine::Clear() {
  queue_.Clear();
  // The callbacks are destroyed after the engine is consistent again (a
  // destructor may not re-enter the engine, but keeping the order simple
  // avoids surprises). The running event's slot (a Clear() from inside an
  // event: a power cut) is freed when that event returns.
  std::vector<Event> dropped;
  dropped.reserve(live_);
  free_slots_.clear();
  for (uint32_t i = slot_count_; i-- > 0;) {
    if (i == running_) continue;
    Slot& s = SlotAt(i);
    s.seq = 0;
    if (s.fn) dropped.push_back(std::move(s.fn));
    free_slots_.push_back(i);
  }
  live_ = 0;
}

}  // namespace storlab
