#include "sim/port.h"

#include <utility>

#include "sim/stack.h"

namespace storlab {

Port::Port(Stack& stack, Node& entry) : stack_(stack), entry_(entry) { stack_.AddPort(this); }

Port::~Port() { stack_.RemovePort(this); }

void Port::Submit(Request req) {
  const uint32_t slot = slots_.Acquire();
  Slot& s = slots_[slot];
  s.done = std::move(req.done);
  s.busy = true;
  ++in_flight_;
  req.done = [this, slot, gen = s.generation](Status st) { Finish(slot, gen, std::move(st)); };
  entry_.Submit(std::move(req));
}

void Port::Finish(uint32_t slot, uint32_t generation, Status st) {
  Slot& s = slots_[slot];
  if (!s.busy || s.generation != generation) return;  // already answered
  Completion done = std::move(s.done);
  s.busy = false;
  ++s.generation;
  slots_.Release(slot);
  --in_flight_;
  done(std::move(st));
}

size_t Port::AbortAll(const Status& st) {
  size_t n = 0;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (!s.busy) continue;
    s.busy = false;
    ++s.generation;
    slots_.Release(i);
    --in_flight_;
    ++n;
    entry_.engine().After(Nanos(0), [done = std::move(s.done), st]() mutable { done(st); });
  }
  return n;
}

}  // namespace storlab
