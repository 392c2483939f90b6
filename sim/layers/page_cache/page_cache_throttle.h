// DirtyThrottle: the page cache's dirty limits and balance_dirty_pages()
// (Linux mm/page-writeback.c), reduced to what decides timing.
//
// Limits come from the host: dirtyable = mem - used_mem;
//   background = dirty_background_ratio × dirtyable   (flusher starts)
//   limit      = dirty_ratio × dirtyable              (writers stop)
//   freerun    = (background + limit) / 2             (throttling starts)
//   setpoint   = (freerun + limit) / 2                (where it settles)
// Above freerun, writers together may dirty new pages at
//   write_bw × pos_ratio,  pos_ratio = 1 + ((setpoint - dirty) / (limit - setpoint))^3
// (the kernel's global control line, clamped to [0, 2]), where write_bw is
// the measured writeback bandwidth (wb_update_write_bandwidth: a 200 ms
// sampling interval, smoothed over a ~3 s period, 100 MiB/s before the
// first sample). The throttle is a shared timeline: each write that dirtied
// `n` new bytes may complete n / rate after the previous throttled one,
// pausing at most 200 ms (MAX_PAUSE) per write. Deterministic; not
// thread-safe.
#ifndef STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_CACHE_THROTTLE_H_
#define STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_CACHE_THROTTLE_H_

#include <cstdint>

#include "sim/host_spec.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

struct DirtyLimits {
  uint64_t dirtyable = 0;
  uint64_t background = 0;
  uint64_t limit = 0;
  uint64_t freerun = 0;
  uint64_t setpoint = 0;
};

class DirtyThrottle {
 public:
  static constexpr double kInitialBandwidth = 100.0 * 1024 * 1024;  // INIT_BW
  static constexpr Nanos kMaxPause = Nanos(200'000'000);            // MAX_PAUSE = HZ/5
  static constexpr Nanos kBandwidthInterval = Nanos(200'000'000);   // BANDWIDTH_INTERVAL
  static constexpr Nanos kBandwidthPeriod = Nanos(4'096'000'000);   // roundup_pow_of_two(3 s)

  explicit DirtyThrottle(const HostSpec& host);

  // Memory locked by processes (mlock(2)): neither free nor page cache, so
  // not dirtyable (mm/page-writeback.c global_dirtyable_memory()); the
  // limits follow.
  void SetLocked(uint64_t bytes);

  const DirtyLimits& limits() const { return limits_; }
  // The kernel's pos_ratio at `dirty` bytes (dirty + writeback), in [0, 2].
  double PosRatio(uint64_t dirty) const;

  // A write has just dirtied `new_bytes` more at `now`, leaving `dirty`
  // bytes dirty or under writeback. Returns when it may be acknowledged
  // (now when no throttling applies).
  Nanos Pause(Nanos now, uint64_t dirty, uint64_t new_bytes);

  // Writeback accounting: a request started, `bytes` finished, or the last
  // request in flight finished, at `now`. Idle time longer than the
  // sampling interval is not counted as bandwidth.
  void OnWritebackStart(Nanos now);
  void OnWrittenBack(Nanos now, uint64_t bytes);
  void OnWritebackIdle(Nanos now);
  // Bytes per second the throttle assumes the device writes back.
  double write_bandwidth() const { return avg_bw_; }

  // storlab sim --state: the bandwidth estimate and the throttle timeline; read back into a fresh
  // one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  void Reset();  // a power cut

 private:
  DirtyLimits limits_;
  HostSpec host_;
  double bw_ = kInitialBandwidth;      // write_bandwidth
  double avg_bw_ = kInitialBandwidth;  // avg_write_bandwidth
  Nanos stamp_;                        // start of the current sample
  uint64_t written_ = 0;               // bytes since stamp_
  bool sampling_ = false;
  bool idle_ = true;
  Nanos idle_since_;
  Nanos next_free_;  // throttle timeline
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_CACHE_THROTTLE_H_
