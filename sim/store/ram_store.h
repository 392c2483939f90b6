// RamStore: a sparse in-memory store, allocated page by page on first write.
//
// Pages are 4 KiB, indexed by a PageIndex (a table of leaves of 64 page
// addresses: no table to rebuild as the store grows, page_index.h), their
// bytes from a PageArena (no system call per new page). A page that becomes all zeros is released,
// so write-zeroes and trim give memory back to the store. Not thread-safe.
#ifndef STORLAB_SIM_STORE_RAM_STORE_H_
#define STORLAB_SIM_STORE_RAM_STORE_H_

#include "sim/store/page_arena.h"
#include "sim/store/page_index.h"
#include "sim/store/store.h"

namespace storlab {

class RamStore : public Store {
 public:
  static constexpr uint64_t kPage = PageArena::kPage;

  RamStore() = default;
  // `huge_pages`: the pages come from 2 MiB chunks where the host gives
  // those cheaper (PageArena's cheaper mode: only for a process that never
  // forks a copy of the store). `stream_writes`: whole pages are written
  // with non-temporal stores (sim/store/stream_copy.h), for the real-time
  // service's stores, whose pages are rarely in the cache when written.
  // `prefetch`: with `huge_pages`, chunks made ahead once it is true
  // (DataMode::prefetch).
  explicit RamStore(bool huge_pages, bool stream_writes = false,
                    const std::atomic<bool>* prefetch = nullptr)
      : stream_writes_(stream_writes),
        arena_(huge_pages ? PageArena::Chunks::kCheaper : PageArena::Chunks::kSmall, prefetch) {}
  RamStore(const RamStore&) = delete;
  RamStore& operator=(const RamStore&) = delete;

  bool keeps_data() const override { return true; }
  Status Read(uint64_t off, uint64_t len, uint8_t* out) const override;
  Status Write(uint64_t off, uint64_t len, const uint8_t* in) override;
  Status Zero(uint64_t off, uint64_t len) override;
  uint64_t allocated_bytes() const override { return pages_.size() * kPage; }
  // allocated_bytes, the arena's mapped bytes (pages held for reuse too),
  // its chunks of each kind, and in the cheaper mode what each kind last
  // cost a page (where measured).
  void AppendStats(std::vector<StatValue>& out) const override;
  // The pages in ascending order: index, then 4 KiB.
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;

 private:
  // A new page for index `idx`, its bytes uninitialised.
  uint8_t* Add(uint64_t idx);
  // Starts fetching pages [begin, end) into the cache (a large Read).
  void Prefetch(uint64_t begin, uint64_t end) const;
  // Releases page `idx` (held): its bytes to the arena, its index entry.
  void Release(uint64_t idx);
  // Copies `n` bytes of `in` to `page` at `in_page`: streamed when they are
  // the whole page and stream_writes_ (then Write ends with StreamFence()).
  void CopyIn(uint8_t* page, uint64_t in_page, const uint8_t* in, uint64_t n);
  const bool stream_writes_ = false;
  PageArena arena_;  // before pages_: outlives the pointers in it
  PageIndex pages_;  // page number -> its 4 KiB in arena_
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_RAM_STORE_H_
