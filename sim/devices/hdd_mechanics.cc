#include "sim/devices/hdd_mechanics.h"

#include <algorithm>

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
  a.rotate = layout_.WaitFor(start + a.seek, p.angle, layout_.HalfSectorNs(lba));
  a.transfer = layout_.TransferTime(lba, sectors);
  return a;
}

void HddMechanics::MoveHead(uint64_t next_lba) {
  head_lba_ = next_lba;
  const uint64_t last = next_lba == 0 ? 0 : next_lba - 1;
  head_cyl_ = layout_.Locate(std::min(last, layout_.sectors() - 1)).cylinder;
}

}  // namespace storlab
