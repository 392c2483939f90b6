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
#include <memory>
#include <type_traits>
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

  // Schedules `fn` (an Event, or a lambda: built straight into the event's
  // slot) to run at absolute time `t`. REQUIRES: t >= now().
  template <typename F>
  EventId At(Nanos t, F&& fn) {
    const EventId id = Reserve(t);
    Event& slot_fn = SlotAt(id.slot).fn;
    if constexpr (std::is_same_v<std::decay_t<F>, Event>) {
      slot_fn = std::forward<F>(fn);
    } else {
      slot_fn.Emplace(std::forward<F>(fn));
    }
    return id;
  }
  // Schedules `fn` to run `delay` after now(). REQUIRES: delay >= 0.
  template <typename F>
  EventId After(Nanos delay, F&& fn) {
    return At(now_ + delay, std::forward<F>(fn));
  }
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
    uint64_t seq = 0;  // 0 when free, cancelled or running
  };
  // Slots live in chunks that never move, so an event runs in its slot
  // (no move out first) while it schedules others.
  static constexpr unsigned kChunkBits = 10;
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  Slot& SlotAt(uint32_t i) {
    return chunks_[i >> kChunkBits][i & ((uint32_t{1} << kChunkBits) - 1)];
  }
  // A free slot for an event at `t`, queued; its callback is the caller's
  // to fill. Aborts if t < now() (a model bug).
  EventId Reserve(Nanos t);
  void PopCancelled();

  Nanos now_;
  uint64_t next_seq_ = 1;
  uint64_t events_run_ = 0;
  size_t live_ = 0;
  EventQueue queue_;  // by (t, seq); cancelled entries leave it lazily
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  uint32_t slot_count_ = 0;  // slots handed out of chunks_ so far
  std::vector<uint32_t> free_slots_;
  uint32_t running_ = kNoSlot;  // the slot whose event Step() is running
};

}  // namespace storlab

#endif  // STORLAB_SIM_ENGINE_H_
