// Engine: the event queue and the simulated clock.
//
// Events are ordered by (time, sequence number), so events due at the same
// time run first-in first-out and every run repeats exactly. Step() is the one
// place where simulated time advances (as in ns-3's DefaultSimulatorImpl);
// AdvanceTo() lets the real-time driver move the clock to the wall time at
// which an outside request arrived. Models never know which driver runs them.
//
// Not thread-safe: one thread (a driver's) owns the engine. Events may
// schedule and cancel other events.
#ifndef STORLAB_SIM_ENGINE_H_
#define STORLAB_SIM_ENGINE_H_

#include <cstdint>
#include <vector>

#include "sim/callback.h"
#include "sim/event_queue.h"
#include "sim/time.h"

namespace storlab {

class Engine {
 public:
  // Room for a Request (96 bytes) and two more words — the layers' `[this,
  // r = std::move(req)]` and `[this, since, r]` — without a heap
  // allocation on every I/O (tests/sim/engine_test.cc checks it).
  using Event = Callback<void(), 112>;
  struct EventId {
    uint64_t seq = 0;  // 0: no event
    uint32_t slot = 0;
    explicit operator bool() const { return seq != 0; }
  };

  Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Nanos now() const { return now_; }

  // Schedules `fn` to run at absolute time `t`. REQUIRES: t >= now().
  EventId At(Nanos t, Event fn);
  // Schedules `fn` to run `delay` after now(). REQUIRES: delay >= 0.
  EventId After(Nanos delay, Event fn) { return At(now_ + delay, std::move(fn)); }
  // Cancels a pending event. Returns false if it already ran or was cancelled.
  bool Cancel(EventId id);

  // True when no live event is pending.
  bool empty() const { return live_ == 0; }
  size_t pending() const { return live_; }
  // Time of the next live event. REQUIRES: !empty().
  Nanos next_time();

  // Advances the clock to the next event and runs it. Returns false (and does
  // nothing) when the queue is empty.
  bool Step();
  // Moves the clock forward to `t` without running anything.
  // REQUIRES: t >= now() and (empty() or t <= next_time()).
  void AdvanceTo(Nanos t);
  // Drops every pending event without running it (a power cut). The clock
  // keeps its value.
  void Clear();

  uint64_t events_run() const { return events_run_; }

 private:
  struct Slot {
    Event fn;
    uint64_t seq = 0;  // 0 when free or cancelled
  };
  void PopCancelled();

  Nanos now_;
  uint64_t next_seq_ = 1;
  uint64_t events_run_ = 0;
  size_t live_ = 0;
  EventQueue queue_;  // by (t, seq); cancelled entries leave it lazily
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_ENGINE_H_
