#include "sim/devices/hdd_mechanics.h"

#include <algorithm>
#include <cmath>

namespace storlab {

HddMechanics::Access HddMechanics::Plan(Nanos start, uint64_t lba, uint64_t sectors,
                                        bool write) const {
  Access a;
  a.start = start;
  const ZonedLayout::Position p = layout_.Locate(lba);
  // Reading or writing on from where the head is crosses tracks as a
  // continuous transfer does: the switch time is in the effective rate.
  const uint64_t cyl = lba == head_lba_ ? head_cyl_ : p.cylinder;
  a.distance = cyl > head_cyl_ ? cyl - head_cyl_ : head_cyl_ - cyl;
  a.seek = (write ? write_ : read_).Time(a.distance);
  a.rotate = layout_.WaitFor(start + a.seek + spindle_offset_, p.angle, layout_.HalfSectorNs(lba));
  a.transfer = layout_.TransferTime(lba, sectors);
  return a;
}

HddMechanics::Access HddMechanics::Jittered(const Access& planned, uint64_t lba,
                                            Nanos extra) const {
  Access a = planned;
  a.seek = Max(Nanos(0), a.seek + extra);
  a.rotate = layout_.WaitFor(a.start + a.seek + spindle_offset_, layout_.Locate(lba).angle,
                             layout_.HalfSectorNs(lba));
  return a;
}

void HddMechanics::SetStart(double angle, double head) {
  if (angle > 0) spindle_offset_ = Nanos(std::llround(angle * layout_.revolution_ns()));
  if (head > 0) {
    const auto n = static_cast<double>(layout_.sectors());
    MoveHead(std::min(layout_.sectors() - 1, static_cast<uint64_t>(head * n)));
  }
}

void HddMechanics::MoveHead(uint64_t next_lba) {
  head_lba_ = next_lba;
  const uint64_t last = next_lba == 0 ? 0 : next_lba - 1;
  head_cyl_ = layout_.Locate(std::min(last, layout_.sectors() - 1)).cylinder;
}

}  // namespace storlab
