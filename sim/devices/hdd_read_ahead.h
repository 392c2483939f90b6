// HddReadAhead: the drive's look-ahead (prefetch) buffer.
//
// After a read, an idle drive keeps the head on the track and goes on
// reading the sectors that follow into its buffer (HGST/Hitachi OEM
// specifications: "Buffering operation — read ahead"), until the buffer
// window is full or the actuator is wanted elsewhere. A sequential reader
// whose next command arrives a little late thus finds its data in the
// buffer, or just ahead of the head, instead of waiting a whole revolution
// for a sector that has just passed.
//
// The stream is passive state — where and when it started — so it costs no
// events: the sectors read by time t follow from the zone rates. Data is not
// copied: reads served from the buffer take their bytes from the platters'
// store and the write cache at completion, which is what a coherent buffer
// would return.
//
// Not thread-safe.
#ifndef STORLAB_SIM_DEVICES_HDD_READ_AHEAD_H_
#define STORLAB_SIM_DEVICES_HDD_READ_AHEAD_H_

#include <cstdint>
#include <optional>

#include "sim/devices/hdd_layout.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

class HddReadAhead {
 public:
  // `window_sectors` = 0 disables read-ahead.
  HddReadAhead(const ZonedLayout* layout, uint64_t window_sectors)
      : layout_(layout), window_(window_sectors) {}

  // A read ended before sector `next_lba` at time `t` and the head is free:
  // read on from there.
  void Start(uint64_t next_lba, Nanos t);
  // True while the head is still reading ahead at `t`.
  bool streaming(Nanos t) const { return streaming_ && Pos(t) < limit_; }
  // True from Start() until Stop(): the head is on the stream's track.
  bool active() const { return streaming_; }
  // The head leaves at `t`; returns the sector it would have read next. The
  // buffered sectors stay valid.
  uint64_t Stop(Nanos t);
  // When the stream reaches the end of its window and stops reading.
  Nanos window_full_at() const;

  // True if all of [lba, lba+n) is in the buffer at `t`.
  bool Holds(uint64_t lba, uint64_t n, Nanos t) const;
  // While streaming: whether [lba, lba+n) starts within the buffer or ahead
  // of the head inside the window, so that reading on reaches it.
  bool CanFollow(uint64_t lba, uint64_t n, Nanos t) const;
  // REQUIRES: CanFollow(lba, n, t). The time the stream reads the last
  // sector of the range; the window moves on past it.
  Nanos Follow(uint64_t lba, uint64_t n, Nanos t);

  // storlab sim --state: the stream and the buffer it left; read back into a fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  void Clear() { streaming_ = valid_ = false; }

 private:
  // The sector the head reads next at `t` while streaming.
  uint64_t Pos(Nanos t) const;
  // The buffered range is [Low(hi), hi).
  uint64_t Low(uint64_t hi) const { return hi > lba0_ + window_ ? hi - window_ : lba0_; }

  const ZonedLayout* layout_;
  uint64_t window_;
  bool streaming_ = false;
  bool valid_ = false;  // the buffer holds [Low(stop_), stop_) after Stop()
  uint64_t lba0_ = 0;   // first sector read ahead
  Nanos t0_;            // when the head was at lba0_
  uint64_t limit_ = 0;  // the stream stops before this sector
  uint64_t stop_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_HDD_READ_AHEAD_H_
