#include "sim/engine.h"

#include <algorithm>
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
  HeapPush({t.count(), seq, slot});
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
  while (!heap_.empty() && slots_[heap_[0].slot].seq != heap_[0].seq) {
    free_slots_.push_back(heap_[0].slot);
    HeapPop();
  }
}

Nanos Engine::next_time() {
  PopCancelled();
  assert(!heap_.empty());
  return Nanos(heap_[0].t);
}

bool Engine::Step() {
  PopCancelled();
  if (heap_.empty()) return false;
  HeapEntry e = heap_[0];
  HeapPop();
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
  heap_.clear();
  // Destroy callbacks after the queue is empty: a destructor may not
  // re-enter the engine, but keeping the order simple avoids surprises.
  std::vector<Slot> old;
  old.swap(slots_);
  free_slots_.clear();
  live_ = 0;
}

// A four-ary heap written out (rather than std::push_heap): half the
// levels of a binary one, and a node's four children share one or two cache
// lines, so a pop — the simulator's hottest loop — compares more but waits
// on memory and mispredicts less. The order is the total order on
// (time, sequence), so any heap shape pops the same sequence of events.
void Engine::HeapPush(HeapEntry e) {
  size_t i = heap_.size();
  heap_.push_back(e);
  while (i > 0) {
    size_t parent = (i - 1) / kArity;
    if (!Before(e, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void Engine::HeapPop() {
  HeapEntry last = heap_.back();
  heap_.pop_back();
  size_t n = heap_.size();
  if (n == 0) return;
  size_t i = 0;
  for (;;) {
    size_t first = kArity * i + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t end = std::min(first + kArity, n);
    for (size_t c = first + 1; c < end; ++c) {
      if (Before(heap_[c], heap_[best])) best = c;
    }
    if (!Before(heap_[best], last)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = last;
}

}  // namespace storlab
