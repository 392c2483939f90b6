// HddWriteCache: a disk's volatile on-drive write cache.
//
// A write the drive acknowledges before it is on the platters lives here:
// its data in an Overlay (lost at a power cut), its range in a map of dirty
// extents that the destager works through. Adjacent and overlapping writes
// coalesce into one extent, so a sequential stream destages as long runs.
// The cache is bounded in bytes (the datasheet's cache size) and in extents
// (the number of separate segments the firmware tracks); a write that does
// not fit waits until destaging frees room.
//
// Offsets and lengths are bytes, multiples of 512. Not thread-safe.
#ifndef STORLAB_SIM_DEVICES_HDD_WRITE_CACHE_H_
#define STORLAB_SIM_DEVICES_HDD_WRITE_CACHE_H_

#include <boost/container/flat_map.hpp>
#include <cstdint>
#include <vector>

#include "sim/random.h"
#include "sim/status.h"
#include "sim/store/overlay.h"
#include "sim/store/power_loss.h"
#include "sim/store/store.h"

namespace storlab {

class StateReader;
class StateWriter;

class HddWriteCache {
 public:
  struct Extent {
    uint64_t offset = 0;
    uint64_t length = 0;
  };

  HddWriteCache(uint64_t capacity_bytes, uint32_t max_extents, bool keeps_data)
      : capacity_(capacity_bytes), max_extents_(max_extents), overlay_(keeps_data) {}
  HddWriteCache(const HddWriteCache&) = delete;
  HddWriteCache& operator=(const HddWriteCache&) = delete;

  // Whether a write of `length` bytes fits now, counting the writes accepted
  // but not yet acknowledged (Reserve) as if each were a new extent.
  bool HasRoom(uint64_t length) const;
  // A write of `length` bytes was accepted; its data is on its way.
  void Reserve(uint64_t length);
  // The write is acknowledged: hold `data` (nullptr: timing only; `zeros`:
  // write-zeroes) for [offset, offset+length). Releases its reservation.
  void Put(uint64_t offset, uint64_t length, const uint8_t* data, bool zeros);

  // True if every byte of the range is dirty here (a read hit).
  bool Covers(uint64_t offset, uint64_t length) const;
  // Copies the cached bytes of the range over `buf` (newest wins).
  void Patch(uint64_t offset, uint64_t length, uint8_t* buf) const {
    overlay_.Patch(offset, length, buf);
  }

  // Up to `n` dirty pieces whose starts are nearest `near`, each at most
  // `max_length` bytes from the start of its extent, nearest first.
  void Nearest(uint64_t near, size_t n, uint64_t max_length, std::vector<Extent>* out) const;
  // The range was written to the platters: its data moves to `store`.
  Status Destage(uint64_t offset, uint64_t length, Store& store);
  // Newer data for the range went to the platters directly (FUA or a
  // write-through write): forget the older cached data.
  void Discard(uint64_t offset, uint64_t length);
  // Power cut: everything held is lost.
  void Clear();
  // Power cut with a mode other than drop: part of what is held reaches
  // `store` (sim/store/power_loss.h), the rest is lost. Returns the bytes
  // that landed.
  Result<uint64_t> LosePower(Store& store, PowerCutMode mode, uint32_t unit, Random& rng);

  // storlab sim --state: the dirty extents and their data (REQUIRES: no reservation); read back
  // into a fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  bool empty() const { return dirty_.empty(); }
  uint64_t dirty_bytes() const { return dirty_bytes_; }
  size_t extents() const { return dirty_.size(); }
  uint64_t capacity() const { return capacity_; }

 private:
  void Remove(uint64_t offset, uint64_t length);

  uint64_t capacity_;
  uint32_t max_extents_;
  Overlay overlay_;
  // start → end, disjoint, not adjacent; at most max_extents_ (a few
  // hundred): one sorted array, so a power cut's Clear() frees one block,
  // not a node per extent (in the fork(2)ed copy that checks the cut, each
  // free wrote to a page the copy then had to copy).
  boost::container::flat_map<uint64_t, uint64_t> dirty_;
  uint64_t dirty_bytes_ = 0;
  uint64_t reserved_bytes_ = 0;
  uint32_t reserved_writes_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_HDD_WRITE_CACHE_H_
