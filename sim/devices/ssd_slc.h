// SsdSlcCache: the part of the NAND written one bit per cell, as a fast
// write cache in front of the native (TLC/QLC) cells.
//
// Size. A static part is always there; a dynamic part borrows free user
// space, which costs cell_bits native bytes per SLC byte, so it shrinks as
// the drive fills (Samsung's Intelligent TurboWrite: 6 GB + up to 36 GB on a
// 1 TB 970 EVO Plus).
//
// Blocks. The cache is used a block at a time: a native erase block run in
// SLC mode holds block_size / cell_bits. Host programs fill the open block;
// when it is full the next one opens, while the cache has room for it. The
// cache knows which logical data each block holds, so data the host
// rewrites or trims while it sits in SLC stops being valid there: a block
// keeps less and less valid data while the host rewrites a hot set.
//
// Reclaim. To free a block its valid data is folded into native cells (read
// in SLC mode, programmed natively) and the block is erased. The block with
// the least valid data is the cheapest (greedy). The drive decides (Ssd) when
// that is worth doing while the host writes; in idle time it folds it all.
//
// Granularity. The logical space is tracked in units of track_bytes: 4 KiB
// doubled until there are at most 2^24 units (16 KiB on a 250 GB drive,
// 64 KiB on 1 TB). A write that covers part of a unit moves the whole unit,
// an approximation for writes smaller than a unit. The unit-to-block table
// is allocated in chunks as the logical space is written: at most 4 bytes
// per unit, 64 MiB for a 1 TB drive written all over, and only what was
// touched otherwise.
// Not thread-safe.
#ifndef STORLAB_SIM_DEVICES_SSD_SLC_H_
#define STORLAB_SIM_DEVICES_SSD_SLC_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class SsdSlcCache {
 public:
  // `block_bytes`: one SLC block; `lba_bytes`: the logical space tracked.
  SsdSlcCache(uint64_t static_bytes, uint64_t dynamic_bytes, uint32_t cell_bits,
              uint64_t block_bytes, uint64_t lba_bytes);
  SsdSlcCache(const SsdSlcCache&) = delete;
  SsdSlcCache& operator=(const SsdSlcCache&) = delete;

  // The cache's size when `free_user_bytes` of the user space hold no data.
  uint64_t capacity(uint64_t free_user_bytes) const;
  uint64_t block_bytes() const { return block_bytes_; }
  uint64_t track_bytes() const { return uint64_t{1} << track_shift_; }

  // --- Space ---------------------------------------------------------------
  // Whether the open block takes a program of `bytes` more.
  bool OpenHasRoom(uint64_t bytes) const {
    return open_ != kNone && blocks_[open_].filled + bytes <= block_bytes_;
  }
  // Whether another block may be opened: fewer blocks in use than fit.
  bool CanOpen(uint64_t free_user_bytes) const {
    return in_use_ < capacity(free_user_bytes) / block_bytes_;
  }
  // Puts a program of `bytes` into the open block, opening a new block first
  // if there is none. REQUIRES: OpenHasRoom(bytes), or CanOpen() and bytes
  // <= block_bytes().
  void Program(uint64_t bytes);
  // Closes the open block, so that it can be reclaimed.
  void CloseOpen();

  // --- What the blocks hold -------------------------------------------------
  // The host's data for [off, off+len) is now in the open block (`slc`) or
  // in native cells: any copy in an SLC block stops being valid.
  // REQUIRES (slc): OpenHasRoom(0).
  void Write(uint64_t off, uint64_t len, bool slc);
  // Units that [off, off+len) covers whole are no longer valid anywhere.
  void Trim(uint64_t off, uint64_t len);
  // Whether the data at `off` is in SLC.
  bool Holds(uint64_t off) const { return Get(off >> track_shift_) != 0; }

  // --- Reclaim ---------------------------------------------------------------
  // A closed block with the least valid data; false if none is closed.
  bool Cheapest(uint32_t* block, uint64_t* valid_bytes) const;
  // Empties closed `block` for reuse; returns the valid bytes it held, which
  // the caller folds into native cells.
  uint64_t Reclaim(uint32_t block);

  // --- Figures ---------------------------------------------------------------
  // Bytes of SLC programmed into blocks not yet reclaimed.
  // storlab sim --state (ssd_state.cc): the SLC table, its blocks and free slots; read back into a
  // fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  uint64_t used() const { return used_; }
  // Of which, data still valid (in tracking units).
  uint64_t valid_bytes() const { return valid_units_ << track_shift_; }
  uint32_t blocks_in_use() const { return in_use_; }
  // Blocks emptied for reuse so far.
  uint64_t reclaimed_blocks() const { return reclaimed_; }

 private:
  static constexpr uint32_t kNone = 0xffffffffu;
  static constexpr uint32_t kChunkShift = 12;  // table entries per chunk: 4096
  struct Block {
    uint64_t filled = 0;          // bytes programmed
    uint32_t valid = 0;           // units whose newest data is here
    bool closed = false;          // full, or closed for idle folding
    uint32_t prev = kNone;        // closed blocks: the bucket list of
    uint32_t next = kNone;        //   blocks with the same valid count
    std::vector<uint32_t> units;  // every unit written here (may repeat)
  };

  // Table entry of unit `u`: 0, or 1 + the block holding its newest data.
  uint32_t Get(uint64_t u) const {
    const auto& chunk = table_[u >> kChunkShift];
    return chunk ? chunk[u & ((1u << kChunkShift) - 1)] : 0;
  }
  void Set(uint64_t u, uint32_t v);
  // Unit `u` leaves the block that holds it, if any.
  void Drop(uint64_t u);
  // Closed blocks sit in buckets by valid count, so that the cheapest is
  // found without a scan over all blocks.
  void BucketInsert(uint32_t block);
  void BucketRemove(uint32_t block);
  // The bytes of valid data `b` holds: never more than was programmed
  // (units written in part count whole).
  uint64_t ValidBytes(const Block& b) const {
    return std::min(uint64_t{b.valid} << track_shift_, b.filled);
  }

  uint64_t static_;
  uint64_t dynamic_;
  uint32_t cell_bits_;
  uint64_t block_bytes_;
  uint32_t track_shift_;
  uint64_t units_;
  std::vector<std::unique_ptr<uint32_t[]>> table_;
  std::vector<Block> blocks_;
  std::vector<uint32_t> free_;      // erased block slots, for reuse
  std::vector<uint32_t> bucket_;    // [valid count] -> first closed block
  mutable uint32_t min_valid_ = 0;  // no closed block has fewer valid units
  uint32_t open_ = kNone;
  uint32_t in_use_ = 0;
  uint64_t used_ = 0;
  uint64_t valid_units_ = 0;
  uint64_t reclaimed_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_SLC_H_
