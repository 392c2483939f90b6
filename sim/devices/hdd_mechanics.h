// HddMechanics: the actuator and spindle of a disk — what it costs to bring
// the head over a sector and read or write a run of sectors, starting at a
// given time, from where the head is now.
//
// An access is: seek (the fitted curve over the cylinder distance; writes
// use their own, slower-settling curve), then rotational wait (from the
// spindle's angle when the seek ends to the first sector's angle), then the
// transfer (the sectors passing under the head at their zone's rate).
// Plan() only computes; MoveHead() records where the head ended up.
//
// Thread-compatible.
#ifndef STORLAB_SIM_DEVICES_HDD_MECHANICS_H_
#define STORLAB_SIM_DEVICES_HDD_MECHANICS_H_

#include <cstdint>
#include <utility>

#include "sim/devices/hdd_layout.h"
#include "sim/devices/hdd_seek.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

class HddMechanics {
 public:
  struct Access {
    Nanos start;            // the arm starts to move
    Nanos seek;             // arm travel and settle
    Nanos rotate;           // waiting for the first sector
    Nanos transfer;         // the sectors passing under the head
    uint64_t distance = 0;  // cylinders
    Nanos data_start() const { return start + seek + rotate; }
    Nanos end() const { return data_start() + transfer; }
  };

  HddMechanics(ZonedLayout layout, SeekCurve read_seek, SeekCurve write_seek)
      : layout_(std::move(layout)), read_(read_seek), write_(write_seek) {}

  // The access to `sectors` sectors from `lba` if the arm starts at `start`.
  // REQUIRES: sectors > 0, lba + sectors <= layout().sectors().
  Access Plan(Nanos start, uint64_t lba, uint64_t sectors, bool write) const;
  // `planned` (an access to `lba`) with a seek `extra` longer (or shorter):
  // the rotational wait follows, a revolution more if the sector is missed.
  Access Jittered(const Access& planned, uint64_t lba, Nanos extra) const;
  // The head is over the track holding sector next_lba − 1, and would read
  // next_lba next.
  void MoveHead(uint64_t next_lba);
  // The state at time 0 (--seed): the spindle's angle, in revolutions
  // [0, 1), and where the head rests, as a fraction [0, 1) of the sectors.
  // (0, 0): at angle 0 over sector 0, the default.
  void SetStart(double angle, double head);

  // storlab sim --state: where the head rests; read back into a fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  uint64_t head_lba() const { return head_lba_; }
  uint64_t head_cylinder() const { return head_cyl_; }
  const ZonedLayout& layout() const { return layout_; }
  const SeekCurve& read_seek() const { return read_; }
  const SeekCurve& write_seek() const { return write_; }

 private:
  ZonedLayout layout_;
  SeekCurve read_, write_;
  uint64_t head_lba_ = 0;
  uint64_t head_cyl_ = 0;
  Nanos spindle_offset_;  // the spindle is this far into a revolution at time 0
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_HDD_MECHANICS_H_
