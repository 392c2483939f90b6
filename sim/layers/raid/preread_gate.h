// PrereadGate: md RAID5/6's delayed pre-reads, in batches.
//
// A stripe that needs pre-reads (read-modify-write or reconstruct-write)
// does not issue them at once: handle_stripe_dirtying() marks it
// STRIPE_DELAYED unless it is STRIPE_PREREAD_ACTIVE, and raid5d's
// raid5_activate_delayed() makes every delayed stripe active at once, but
// only while fewer than IO_THRESHOLD (1) stripes are pre-read-active
// (drivers/md/raid5.c). A stripe stays active until its writes are done
// (handle_stripe: STRIPE_PREREAD_ACTIVE cleared, preread_active_stripes
// decremented, raid5d woken at zero). So partial-stripe writes are worked in
// generations: every stripe that arrived while one generation read and
// wrote waits, and then all of them go together, giving full-stripe writes
// time to gather. A REQ_SYNC write (O_DIRECT, a WB_SYNC_ALL writeback, a
// FUA write: the kernel sends those REQ_SYNC too) is made active on arrival
// (make_stripe_request) and skips the wait.
//
// Counted per window of a request (ArrayOp: up to 16 MiB of whole stripes,
// its rows taken together), not per stripe_head. Not thread-safe; owned by
// a RaidArray.
#ifndef STORLAB_SIM_LAYERS_RAID_PREREAD_GATE_H_
#define STORLAB_SIM_LAYERS_RAID_PREREAD_GATE_H_

#include <cstdint>
#include <vector>

#include "sim/callback.h"
#include "sim/engine.h"

namespace storlab {

class PrereadGate {
 public:
  explicit PrereadGate(Engine& engine) : engine_(engine) {}

  // Runs `go` once the window may pre-read: with the next generation. The
  // caller calls Leave() once its writes are done. A sync window enters
  // active at once (and must Leave too).
  void Enter(bool sync, Callback<void()> go) {
    if (sync) {
      ++active_;
      return go();
    }
    delayed_.push_back(std::move(go));
    ++delayed_total_;
    if (active_ == 0) Wake();
  }
  void Leave() {
    if (active_ > 0) --active_;
    if (active_ == 0 && !delayed_.empty()) Wake();
  }
  // Forgets everything (a power cut).
  void Clear() {
    delayed_.clear();
    active_ = 0;
    ++epoch_;
    woken_ = false;
  }
  uint64_t generations() const { return generations_; }
  uint64_t delayed_total() const { return delayed_total_; }

 private:
  // raid5d runs soon: all windows delayed by then go together.
  void Wake() {
    if (woken_) return;
    woken_ = true;
    engine_.After(Nanos(0), [this, e = epoch_] {
      if (e != epoch_) return;
      woken_ = false;
      if (active_ != 0 || delayed_.empty()) return;
      std::vector<Callback<void()>> go;
      go.swap(delayed_);
      active_ += go.size();
      ++generations_;
      for (auto& fn : go) fn();
    });
  }

  Engine& engine_;
  std::vector<Callback<void()>> delayed_;
  uint64_t active_ = 0;
  uint64_t epoch_ = 0;
  uint64_t generations_ = 0, delayed_total_ = 0;
  bool woken_ = false;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_PREREAD_GATE_H_
