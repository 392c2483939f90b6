// SsdScaledFtl: the garbage collection and write amplification of a
// page-mapped FTL with greedy GC, simulated on a scaled-down copy of the
// drive.
//
// Why scaled. An exact page map of a 1 TB drive (2^28 pages of 4 KiB, plus
// the reverse map and per-block state) costs gigabytes of RAM, too much for a
// stack of four drives. The analytic models (Hu et al., SYSTOR 2009;
// Desnoyers, SYSTOR 2012: WA ≈ (1 + s)/(2s) for greedy GC at spare factor s)
// only give the steady state under uniform random writes; a drive that was
// filled sequentially, then written at random, then trimmed or left idle
// passes through states they do not describe — and those transients are the
// figures people measure (MX500: 99.7 MB/s after 30 min of random writes,
// back to ~460 after 30 min idle). So the model keeps a real FTL, scaled:
//
//  - The LBA space is cut into at most `max_units` units of unit_bytes =
//    4 KiB × k (k a power of two; k = 1, an exact page FTL, for drives up to
//    1 GiB at the default). The native NAND is cut into the same units,
//    grouped in blocks of `units_per_block`.
//  - Host writes are sampled: of the stream of 4-KiB pages written (counted
//    over all writes), every k-th is written to the small FTL as unit page/k.
//    For random writes the small FTL sees the same access pattern at 1/k of
//    the rate: the same utilisation, spare area and victim valid counts, so
//    the same write amplification. Sequential writes stay sequential.
//  - Trims unmap every unit they cover whole; the partly covered pages are
//    sampled like writes.
//  - Greedy GC: when free blocks fall to the low watermark, the full block
//    with the fewest valid units is cleaned (valid units copied to the GC
//    frontier, the block erased). Blocks sit in buckets by valid count, so
//    a victim is found in O(units_per_block) and every update is O(1).
//
// Cost: O(1) amortised per write (O(pages) only when k = 1), about 10 bytes
// of RAM per unit (≤ 3 MiB) — per unit of flash in use: the blocks no write
// has reached yet are only counted (a 1 TiB drive exported as 64 MiB has
// 2^28 units of 4 KiB, a GiB of reverse map it would never fill). Work is
// reported scaled back to the drive: each unit copied is unit_bytes copied.
// Not thread-safe.
#ifndef STORLAB_SIM_DEVICES_SSD_FTL_H_
#define STORLAB_SIM_DEVICES_SSD_FTL_H_

#include <cstdint>
#include <deque>
#include <vector>

#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class SsdScaledFtl {
 public:
  static constexpr uint64_t kPage = 4096;

  // NAND work a host operation or an idle step caused, in drive bytes.
  struct Work {
    uint64_t copied_bytes = 0;  // valid data moved (read + programmed again)
    uint64_t erased_bytes = 0;  // blocks erased
    Work& operator+=(const Work& o) {
      copied_bytes += o.copied_bytes;
      erased_bytes += o.erased_bytes;
      return *this;
    }
  };

  // REQUIRES: native_bytes > user_bytes > 0.
  SsdScaledFtl(uint64_t user_bytes, uint64_t native_bytes, uint32_t max_units = 1u << 18,
               uint32_t units_per_block = 64);
  SsdScaledFtl(const SsdScaledFtl&) = delete;
  SsdScaledFtl& operator=(const SsdScaledFtl&) = delete;

  // The host wrote [off, off+len): returns the GC work it forced.
  Work Write(uint64_t off, uint64_t len);
  // The host trimmed [off, off+len).
  void Trim(uint64_t off, uint64_t len);
  // Maps the first `fraction` of the LBA space as a sequential fill would
  // (a drive that arrives partly full). No work is reported.
  void Fill(double fraction);
  // One step of idle GC: cleans one victim if fewer than the target number
  // of blocks are free, the target being the low watermark plus
  // `target_fraction` of the rest of the blocks not needed for valid data.
  // Returns false when there is nothing (more) to do.
  bool Reclaim(double target_fraction, Work* work);
  // Whether Reclaim() would clean a block now.
  bool WouldReclaim(double target_fraction) const;

  // storlab sim --state (ssd_state.cc): the mapping, the blocks' valid counts and states, the free
  // pool, the frontiers and the sampling positions; read back into a fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  uint64_t unit_bytes() const { return unit_bytes_; }
  uint64_t user_bytes() const { return user_bytes_; }
  // Bytes of the LBA space holding data (mapped).
  uint64_t valid_bytes() const;
  uint64_t free_user_bytes() const { return user_bytes_ - valid_bytes(); }
  double free_block_fraction() const {
    return static_cast<double>(free_blocks()) / static_cast<double>(blocks_);
  }
  uint32_t blocks() const { return blocks_; }
  uint32_t free_blocks() const { return static_cast<uint32_t>(free_.size()) + blocks_ - fresh_; }
  // Blocks ever opened: the per-block arrays' length.
  uint32_t blocks_in_use() const { return fresh_; }
  uint32_t low_watermark() const { return low_; }
  // Units copied and blocks erased by GC since construction (small-FTL units).
  uint64_t gc_copies() const { return copies_; }
  uint64_t gc_erases() const { return erases_; }

 private:
  static constexpr uint32_t kNone = 0xffffffffu;
  enum class State : uint8_t { kFree, kOpen, kFull };
  struct Frontier {
    uint32_t block = kNone;
    uint32_t next = 0;
  };

  void WriteUnit(uint32_t lu, Work* work);
  void TrimUnit(uint32_t lu);
  void Invalidate(uint32_t pu);
  // Next free physical unit of `f`, opening a block from the free pool.
  // Returns kNone if the pool is empty.
  uint32_t Allocate(Frontier& f);
  // Takes the next free block: a fresh one while any is left (a new drive's
  // pool lists its blocks in order, the erased ones behind them), else the
  // oldest erased one. REQUIRES: free_blocks() > 0.
  uint32_t TakeFreeBlock();
  // Greedy: cleans the full block with the fewest valid units. False if no
  // full block has an invalid unit (or no block is free to copy into).
  bool CleanOne(Work* work);
  void BucketInsert(uint32_t block);
  void BucketRemove(uint32_t block);
  // Calls fn(page) for every k-th page of [first, first+count) in the
  // sampled stream kept in *pos.
  template <typename Fn>
  void Sample(uint64_t first, uint64_t count, uint64_t* pos, Fn&& fn);

  uint64_t user_bytes_;
  uint64_t unit_bytes_;
  uint64_t k_;  // 4-KiB pages per unit
  uint32_t logical_units_;
  uint32_t units_per_block_;
  uint32_t blocks_;
  uint32_t low_;
  std::vector<uint32_t> l2p_;
  // Per block (p2l_: per unit) of the blocks [0, fresh_); the blocks
  // [fresh_, blocks_) were never opened: free, erased, empty.
  std::vector<uint32_t> p2l_;
  std::vector<uint16_t> valid_;
  std::vector<State> state_;
  std::vector<uint32_t> bucket_head_;  // [valid count] -> first full block
  std::vector<uint32_t> next_, prev_;  // bucket lists
  uint32_t fresh_ = 0;                 // the first block never opened
  std::deque<uint32_t> free_;          // erased blocks, oldest first
  Frontier host_, gc_;
  uint64_t valid_units_ = 0;
  uint64_t write_pos_ = 0, trim_pos_ = 0;
  uint64_t copies_ = 0, erases_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_FTL_H_
