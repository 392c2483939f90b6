// ZonedLayout: where each sector of a disk is — cylinder and angle — and how
// fast the platter carries it under the head.
//
// Zoned bit recording: tracks further out are longer and hold more sectors
// at the same linear density, so the outer zones transfer faster. The
// layout has `zones` bands of equal cylinder count from the outer edge
// (LBA 0) inwards; sectors per track fall linearly with the radius from the
// outer zone's (outer_rate × revolution / 512) to inner_fraction of it
// (published: the inner zone runs at ~0.47× the outer — Seagate
// Constellation ES.3). Sectors per track are the effective figure that the
// sustained rate implies (head and cylinder switches included), so reading
// on from one track to the next costs no extra rotation. Within a cylinder
// the heads are used in turn; a track's first sector is at angle 0.
//
// The spindle turns at a constant rate from time 0: its angle at time t is
// (t mod revolution) / revolution.
//
// Value type; thread-compatible.
#ifndef STORLAB_SIM_DEVICES_HDD_LAYOUT_H_
#define STORLAB_SIM_DEVICES_HDD_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class ZonedLayout {
 public:
  static constexpr uint64_t kSector = 512;

  struct Config {
    uint64_t capacity = 0;      // bytes, a multiple of kSector
    uint32_t heads = 1;         // recording surfaces
    uint32_t zones = 1;         // recording zones, outer to inner
    double outer_rate = 0;      // bytes/s in the outermost zone
    double inner_fraction = 1;  // innermost zone's rate / outermost's
    uint32_t rpm = 7200;
  };
  struct Zone {
    uint64_t first_lba = 0;
    uint64_t sectors = 0;
    uint64_t first_cylinder = 0;
    uint64_t cylinders = 0;
    uint32_t sectors_per_track = 0;
  };
  struct Position {
    uint64_t cylinder = 0;
    double angle = 0;  // [0, 1)
  };

  // Fails with a message naming the figure that makes no layout.
  static Result<ZonedLayout> Make(const Config& c);

  uint64_t sectors() const { return sectors_; }
  uint64_t cylinders() const { return cylinders_; }
  const std::vector<Zone>& zones() const { return zones_; }
  double revolution_ns() const { return rev_ns_; }

  // REQUIRES: lba < sectors().
  Position Locate(uint64_t lba) const;
  const Zone& ZoneOf(uint64_t lba) const;
  // Media rate (bytes/s) at `lba`.
  double RateAt(uint64_t lba) const;
  // Time for `sectors` sectors from `lba` to pass under the head.
  Nanos TransferTime(uint64_t lba, uint64_t sectors) const;
  // Sectors from `lba` that pass under the head in `t` (never past the end).
  uint64_t SectorsIn(uint64_t lba, Nanos t) const;

  // The spindle's angle at `t`, in [0, 1).
  double AngleAt(Nanos t) const;
  // From `t` until the sector at `angle` comes under the head, in
  // (−on_time_ns, rev − on_time_ns]. Time is whole nanoseconds and transfers
  // round, so a head that reaches a sector up to `on_time_ns` after its start
  // is on time rather than a revolution late: the wait is then ≤ 0 and the
  // transfer ends where an exact clock would have ended it.
  Nanos WaitFor(Nanos t, double angle, double on_time_ns) const;
  // Half a sector's time in the zone of `lba`: the tolerance for WaitFor.
  double HalfSectorNs(uint64_t lba) const { return SectorNs(ZoneOf(lba)) / 2; }

 private:
  ZonedLayout() = default;
  double SectorNs(const Zone& z) const { return rev_ns_ / z.sectors_per_track; }

  std::vector<Zone> zones_;
  uint64_t sectors_ = 0;
  uint64_t cylinders_ = 0;
  uint32_t heads_ = 1;
  double rev_ns_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_HDD_LAYOUT_H_
