#include "sim/devices/ssd_config.h"

#include <algorithm>

namespace storlab {

uint64_t SsdConfig::raw_bytes() const {
  if (raw_capacity != 0) return raw_capacity;
  return static_cast<uint64_t>(static_cast<double>(capacity) * (1073741824.0 / 1e9));
}

uint64_t SsdConfig::slc_fold_limit() const {
  const SsdConfig& c = *this;
  // Die time per byte: host data programmed natively, in SLC mode (plus the
  // block's erase), and folded (read cell_bits SLC pages, program natively).
  const auto per_byte = [](Nanos t, uint64_t bytes) {
    return static_cast<double>(t.count()) / static_cast<double>(bytes);
  };
  const double native = per_byte(c.program_time, c.native_unit_bytes());
  const double slc = per_byte(c.slc_program_time, c.slc_unit_bytes()) +
                     per_byte(c.erase_time, c.slc_block_bytes());
  const double fold =
      per_byte(c.slc_read_time * c.cell_bits + c.program_time, c.native_unit_bytes());
  // A block of B bytes holding v valid: reclaiming it and writing B through
  // SLC costs B·slc + v·fold; writing B natively costs B·native.
  const double share = (native - slc) / fold;
  if (share <= 0) return 0;
  return static_cast<uint64_t>(std::min(1.0, share) * static_cast<double>(c.slc_block_bytes()));
}

}  // namespace storlab
