// SsdConfig: every parameter of the SSD model, with defaults from one real
// drive, and the parser that reads them from a stack file.
//
// One model covers SATA and NVMe drives: `interface` picks the command
// protocol (SATA: half-duplex link, NCQ, FLUSH waits for the queue to drain;
// NVMe: full-duplex link, deep queue, FLUSH queued like any command) and the
// rest of the figures give the drive its character. The defaults describe a
// Samsung 970 EVO Plus 1 TB (PCIe 3.0 x4, 32 dies of 256 Gb V5 TLC, 1 GB
// DRAM, no power-loss protection); the catalog files repeat every figure with
// its source beside it. Plain value type; the parser is thread-compatible.
#ifndef STORLAB_SIM_DEVICES_SSD_CONFIG_H_
#define STORLAB_SIM_DEVICES_SSD_CONFIG_H_

#include <cstdint>

#include "sim/status.h"
#include "sim/store/power_loss.h"
#include "sim/time.h"

namespace storlab {

struct SsdConfig {
  enum class Interface : uint8_t { kSata, kNvme };

  // --- Capacity -----------------------------------------------------------
  uint64_t capacity = 1'000'000'000'000;  // user bytes (970 EVO Plus 1 TB)
  // NAND bytes behind them; 0: capacity × 2^30/10^9 (a drive sold as N GB
  // carries N GiB of NAND: 32 dies × 256 Gb = 1024 GiB for 1 TB).
  uint64_t raw_capacity = 0;
  uint32_t logical_block = 512;
  uint32_t physical_block = 4096;

  // --- Host interface -----------------------------------------------------
  Interface interface = Interface::kNvme;
  uint32_t queue_depth = 1024;               // NVMe I/O queue (Linux nvme default)
  double link_bytes_per_s = 3.6e9;           // PCIe 3.0 x4 payload after 128b/130b + TLP headers
  Nanos link_command_overhead = Nanos(100);  // SQE fetch, CQE, doorbell, interrupt
  Nanos read_command_time = Nanos(2'000);    // controller: parse, L2P lookup, ECC setup
  Nanos write_command_time = Nanos(15'000);  // controller: allocate, buffer, map update
  double max_read_iops = 620e3;              // controller ceiling (Samsung: up to 620K read)
  double max_write_iops = 560e3;             // (Samsung: up to 560K write)
  double write_bytes_per_s = 3.3e9;          // controller write path (Samsung: 3300 MB/s)

  // --- Flash array --------------------------------------------------------
  uint32_t channels = 8;          // Phoenix: 8 channels
  uint32_t dies_per_channel = 4;  // 32 dies of 256 Gb
  uint32_t planes = 2;            // independent read units per die
  uint64_t page_size = 16384;
  uint32_t cell_bits = 3;              // TLC
  double channel_bytes_per_s = 1.4e9;  // Toggle DDR 4.0
  Nanos read_time = Nanos(50'000);     // V5: 50 µs read response
  Nanos slc_read_time = Nanos(30'000);
  // One native program stores page_size × planes × cell_bits on a die.
  Nanos program_time = Nanos(1'850'000);
  // One SLC-mode program stores page_size × planes.
  Nanos slc_program_time = Nanos(114'000);
  Nanos erase_time = Nanos(3'500'000);
  uint64_t block_size = uint64_t{24} << 20;  // erased at once on one die

  // --- SLC cache ----------------------------------------------------------
  uint64_t slc_static = 6'000'000'000;    // TurboWrite: 6 GB fixed
  uint64_t slc_dynamic = 36'000'000'000;  // + up to 36 GB from free space

  // --- FTL, garbage collection, background work ---------------------------
  Nanos idle_delay = Nanos(500'000'000);  // quiet time before folding / idle GC
  double gc_idle_target = 0.5;            // idle GC frees this fraction of the reclaimable space
  double prefill = 0;                     // fraction of the LBA space mapped at power-on
  // With a --seed other than 1, each program takes up to this fraction of
  // its time longer or shorter (Jitter): assumed — NAND program times vary
  // from page to page with the ISPP loops a page needs (datasheets give a
  // typical and a maximum tPROG).
  double program_jitter = 0.10;
  // Not profile keys: the run's --seed, and where the controller's write
  // stripe stands at the start as a fraction of the dies (the die the first
  // program goes to; Random::InitialOffset, 0: die 0).
  uint64_t seed = 1;
  double stripe_start = 0;

  // --- Mapping table ------------------------------------------------------
  // Bytes of the L2P table the controller holds (SRAM or HMB); 0: all of it
  // in DRAM (4 bytes per 4 KiB: 1 GB DRAM per TB).
  uint64_t map_cache = 0;

  // --- Write buffer and durability ----------------------------------------
  uint64_t write_buffer = uint64_t{16} << 20;     // DRAM holding acknowledged writes
  Nanos write_buffer_timeout = Nanos(1'000'000);  // a partial program waits at most this
  bool plp = false;                               // power-loss protection
  // A drive with PLP that still programs its buffer and commits on every
  // FLUSH, and so advertises a volatile cache (Micron 5100: 288 IOPS with an
  // fsync per write, 18,000 once Linux is told the cache is write-through).
  bool flush_despite_plp = false;
  Nanos flush_commit_time = Nanos(1'450'000);  // journal commit after a FLUSH / FUA
  // What a power cut leaves of the buffer without PLP (sim/store/power_loss.h):
  // not a datasheet figure, a choice of what to test.
  PowerCutMode power_cut = PowerCutMode::kDrop;

  // --- Wear ---------------------------------------------------------------
  uint32_t rated_pe_cycles = 3000;

  // Derived figures.
  uint64_t raw_bytes() const;
  uint32_t dies() const { return channels * dies_per_channel; }
  uint64_t slc_unit_bytes() const { return page_size * planes; }
  uint64_t native_unit_bytes() const { return page_size * planes * cell_bits; }
  // One erase block run in SLC mode, in whole SLC programs (at least one).
  uint64_t slc_block_bytes() const {
    const uint64_t unit = slc_unit_bytes();
    const uint64_t n = block_size / cell_bits / unit;
    return (n ? n : 1) * unit;
  }
  // The most valid data an SLC block may hold for the drive to reclaim it
  // (fold that data into native cells, erase the block) while the host
  // writes, rather than write the host's data natively: below it, writing
  // through SLC and folding costs less die time.
  uint64_t slc_fold_limit() const;
  // Whether FLUSH and FUA wait for programs (else the buffer counts as durable).
  bool flush_programs() const { return !plp || flush_despite_plp; }
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_CONFIG_H_
