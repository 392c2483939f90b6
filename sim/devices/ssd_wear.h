// SsdWear: what an SSD's SMART / NVMe health log counts about its own
// wear — host writes, NAND writes (their ratio is the write amplification),
// erases — and the NVMe "Percentage Used" estimate derived from them:
// NAND bytes written / (raw capacity × rated P/E cycles). Plain counters,
// not thread-safe.
#ifndef STORLAB_SIM_DEVICES_SSD_WEAR_H_
#define STORLAB_SIM_DEVICES_SSD_WEAR_H_

#include <cstdint>

namespace storlab {

struct SsdWear {
  uint64_t host_bytes_written = 0;  // write commands' payloads
  uint64_t nand_bytes_written = 0;  // every program: host data, padding, GC, folding, map
  uint64_t gc_copied_bytes = 0;
  uint64_t fold_bytes = 0;         // SLC data rewritten into native cells
  uint64_t map_bytes_written = 0;  // mapping-table pages (DRAM-less drives)
  uint64_t erased_bytes = 0;

  double write_amplification() const {
    return host_bytes_written
               ? static_cast<double>(nand_bytes_written) / static_cast<double>(host_bytes_written)
               : 0.0;
  }
  // NVMe Percentage Used, unrounded (it may exceed 100).
  double percentage_used(uint64_t raw_bytes, uint32_t rated_pe_cycles) const {
    return 100.0 * static_cast<double>(nand_bytes_written) /
           (static_cast<double>(raw_bytes) * rated_pe_cycles);
  }
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_WEAR_H_
