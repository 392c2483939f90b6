// Overlay: volatile data a node holds above a durable store.
//
// A write-back cache, a drive's write cache, an NFS server's RAM: each keeps
// the data it has acknowledged but not yet made durable in an Overlay, until
// the model destages it, in simulated time, to the store or the child below.
// Reads patch the overlay's newer bytes over what is below. A power cut
// Clear()s every overlay at once, so exactly what the model had not made
// durable is lost.
//
// Granularity: 512-byte sectors, kept in 4 KiB pages with a per-page mask of
// the sectors held. An overlay created without data (timing-only runs)
// ignores everything and holds nothing. Not thread-safe.
#ifndef STORLAB_SIM_STORE_OVERLAY_H_
#define STORLAB_SIM_STORE_OVERLAY_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/key_map.h"
#include "sim/status.h"
#include "sim/store/page_arena.h"
#include "sim/store/store.h"

namespace storlab {

class StateReader;
class StateWriter;

class Overlay {
 public:
  static constexpr uint64_t kSector = 512;
  static constexpr uint64_t kPage = 4096;

  explicit Overlay(bool keeps_data) : keeps_data_(keeps_data) {}
  Overlay(const Overlay&) = delete;
  Overlay& operator=(const Overlay&) = delete;

  bool keeps_data() const { return keeps_data_; }

  // Holds `data` for [off, off+len), replacing older bytes. data == nullptr
  // is a timing-only write and holds nothing.
  // REQUIRES: off and len are multiples of kSector.
  void Put(uint64_t off, uint64_t len, const uint8_t* data);
  // Holds zeros for [off, off+len) (write-zeroes into a volatile cache).
  void PutZeros(uint64_t off, uint64_t len);
  // Copies the bytes the overlay holds of [off, off+len) over `buf`.
  void Patch(uint64_t off, uint64_t len, uint8_t* buf) const;
  // True if every sector of [off, off+len) is held.
  bool Covers(uint64_t off, uint64_t len) const;
  // The held runs within [off, off+len), in ascending order, merged.
  std::vector<std::pair<uint64_t, uint64_t>> Runs(uint64_t off, uint64_t len) const;
  // Writes what the overlay holds of [off, off+len) into `store` and forgets it.
  Status DrainTo(Store& store, uint64_t off, uint64_t len);
  // Writes everything held into `store` and forgets it.
  Status DrainAllTo(Store& store);
  // Forgets [off, off+len) without storing it.
  void Erase(uint64_t off, uint64_t len);
  // Forgets everything: a power cut.
  void Clear() {
    pages_.Clear();
    arena_.Clear();
    held_sectors_ = 0;
  }

  // The indexes of the pages holding any sector, ascending (a power cut
  // that lets some of them reach the media walks them: power_loss.h).
  std::vector<uint64_t> HeldPages() const;

  // storlab sim --state: the held pages in ascending order (index, mask,
  // the held sectors' bytes), read back into an empty overlay.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

  uint64_t held_bytes() const { return held_sectors_ * kSector; }
  bool empty() const { return pages_.empty(); }

 private:
  struct Page {
    uint8_t mask = 0;         // bit i: sector i of the page is held
    uint8_t* data = nullptr;  // kPage bytes from arena_
  };
  template <typename Fn>  // Fn(page_index, first_sector, sector_count, offset_in_range)
  static void ForEachPageSpan(uint64_t off, uint64_t len, Fn&& fn);
  // Fn(page_index, page, first_sector, sector_count, offset_in_range), for
  // each held page that intersects the range, in ascending order.
  template <typename Fn>
  void ForEachHeldSpan(uint64_t off, uint64_t len, Fn&& fn) const;
  static uint8_t SpanMask(unsigned first, unsigned count) {
    return static_cast<uint8_t>(((1u << count) - 1u) << first);
  }

  bool keeps_data_;
  uint64_t held_sectors_ = 0;
  KeyMap<Page> pages_;
  PageArena arena_;  // the pages' bytes
  static_assert(kPage == PageArena::kPage);
  // A held page, made if new.
  Page& Hold(uint64_t idx);
  void Forget(uint64_t idx, Page& p);
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_OVERLAY_H_
