// PageTable: the state of every page a page cache holds, and the indexes
// its writeback and reclaim need.
//
// Pages are 4 KiB; their state is kept per group of 32 pages (128 KiB) as
// bit masks, so a 16 GiB cache costs 128 Ki small entries, not 4 Mi:
//   cached     the page holds valid data (clean, or dirty)
//   dirty      it must be written back (set again if rewritten while under
//              writeback, like PG_dirty)
//   writeback  it is in a writeback request in flight (PG_writeback)
//   reading    it is being read from the device and is not valid yet
// Dirty and writeback pages belong to a file (the file id of the last write
// that dirtied them); each file keeps the set of groups where it owns such
// pages, in offset order, for per-file writeback and fsync. Groups sit in
// one LRU order; reclaim takes clean pages from the cold end. Counters are
// exact at page granularity.
//
// The groups live in the hash table's slots (sim/inline_map.h): a write's
// lookup is one cache line, not a slot and then the group it points to
// (the two misses that were a fifth of a 4 KiB random-write run over a
// 4 GiB file). Groups move, so the LRU order is a log of (group, stamp)
// marks, oldest first, and a group's stamp names its one live mark: a
// touch appends a mark (the group's older one goes stale), an unlink
// clears the stamp. Walks skip stale marks; the log is rebuilt from the
// groups, by stamp, when it holds several times more marks than groups.
//
// No engine and no data: the PageCache drives it. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_TABLE_H_
#define STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_TABLE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "sim/inline_map.h"
#include "sim/layers/page_cache/page_group_set.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

class PageTable {
 public:
  static constexpr uint64_t kPageSize = 4096;
  static constexpr uint32_t kGroupPages = 32;
  using Mask = uint32_t;

  struct Group {
    Mask cached = 0;
    Mask dirty = 0;
    Mask writeback = 0;
    Mask reading = 0;
    uint32_t owner = 0;                  // of its dirty/writeback pages, unless `owners`
    std::unique_ptr<uint32_t[]> owners;  // per page, once two files share the group
    uint64_t index = 0;
    uint64_t lru = 0;  // the stamp of its live mark in the LRU log (0: none)
  };
  struct File {
    GroupSet groups;      // groups where it owns dirty or writeback pages
    Nanos dirtied_when;   // when it last went from clean to dirty
    uint64_t cursor = 0;  // page where its next writeback pass continues
  };
  // What a write did to the pages it covered.
  struct DirtyResult {
    uint64_t new_pages = 0;    // pages that were not cached before
    uint64_t newly_dirty = 0;  // pages that were not dirty before
    uint64_t rewritten = 0;    // pages that were already dirty
  };

  PageTable() = default;
  PageTable(const PageTable&) = delete;
  PageTable& operator=(const PageTable&) = delete;

  static uint64_t GroupOf(uint64_t page) { return page / kGroupPages; }
  // The bits of group `g` that fall in pages [first, last].
  static Mask SpanMask(uint64_t g, uint64_t first, uint64_t last);

  const Group* Find(uint64_t g) const;
  // The pages of `g` whose dirty/writeback data belongs to `file`.
  static Mask OwnedBy(const Group& grp, uint32_t file);
  // The file owning page `page` (0 if it is neither dirty nor under writeback).
  uint32_t OwnerOfPage(uint64_t page) const;

  // Marks pages [first, last] cached and dirty for `file` at `now`.
  DirtyResult MarkDirty(uint64_t first, uint64_t last, uint32_t file, Nanos now);
  // Marks the pages of [first, last] that are not cached as cached (clean);
  // returns how many.
  uint64_t MarkCached(uint64_t first, uint64_t last);
  void SetReading(uint64_t first, uint64_t last, bool on);
  // Moves dirty pages of [first, last] to writeback. REQUIRES: they are
  // dirty and not under writeback.
  void StartWriteback(uint64_t first, uint64_t last);
  // Ends writeback of [first, last]; pages rewritten meanwhile stay dirty.
  void EndWriteback(uint64_t first, uint64_t last);
  // Forgets pages [first, last] (cached, dirty) and returns how many were
  // cached. REQUIRES: none of them is under writeback.
  uint64_t Drop(uint64_t first, uint64_t last);
  // Evicts up to `pages` clean pages, coldest first, calling
  // on_evict(first_page, count) for each run; returns how many.
  uint64_t EvictClean(uint64_t pages, const std::function<void(uint64_t, uint64_t)>& on_evict);
  // Moves the groups of [first, last] to the hot end of the LRU list.
  void Touch(uint64_t first, uint64_t last);

  bool AllCached(uint64_t first, uint64_t last) const;
  bool AnyReading(uint64_t first, uint64_t last) const {
    return AnyBit(first, last, &Group::reading);
  }
  bool AnyWriteback(uint64_t first, uint64_t last) const {
    return AnyBit(first, last, &Group::writeback);
  }
  // Runs (first, count) of pages in [first, last] neither cached nor reading.
  std::vector<std::pair<uint64_t, uint64_t>> MissingRuns(uint64_t first, uint64_t last) const;
  // The first run of pages >= `from` that are dirty, not under writeback
  // and owned by `file`, at most `max_pages` long. Returns {first, count};
  // count 0 when there is none.
  std::pair<uint64_t, uint64_t> NextDirtyRun(uint32_t file, uint64_t from,
                                             uint64_t max_pages) const;

  const std::map<uint32_t, File>& files() const { return files_; }
  File* FindFile(uint32_t file);
  // Files that own dirty or writeback pages, oldest dirtied first.
  std::vector<uint32_t> DirtyFilesByAge() const;

  uint64_t cached_pages() const { return cached_; }
  uint64_t dirty_pages() const { return dirty_; }
  uint64_t writeback_pages() const { return writeback_; }
  // Pages dirty or under writeback (each counted once).
  uint64_t dirty_or_writeback_pages() const { return dirty_or_wb_; }

  // Forgets everything (a power cut).
  void Clear();

  // storlab sim --state: the cached pages, group by group in LRU order
  // (coldest first), and the files' writeback cursors; read back into an
  // empty table. REQUIRES (save): no page dirty, under writeback or being
  // read — the cache is idle.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  Group& Get(uint64_t g);
  bool AnyBit(uint64_t first, uint64_t last, Mask Group::*bits) const;
  static uint32_t OwnerOf(const Group& grp, unsigned bit);
  void SetOwner(Group& grp, Mask m, uint32_t file);
  // The files owning dirty or writeback pages of `m` in `grp`.
  static std::set<uint32_t> OwnersIn(const Group& grp, Mask m);
  // Brings files_[file].groups up to date for group `grp`.
  void Reindex(const Group& grp, uint32_t file);
  void AdjustCounts(Mask cached0, Mask dirty0, Mask wb0, const Group& grp);
  // Drops per-page owners when no page is dirty or under writeback, and
  // the group itself when it holds nothing.
  void Normalize(Group& grp);
  // The LRU order (the class comment).
  struct LruMark {
    uint64_t group;
    uint64_t stamp;
  };
  // Makes `grp` the hottest (nothing if it is already).
  void PushHot(Group& grp);
  // The first live mark at or after `from`; lru_log_.size() if none.
  size_t NextLive(size_t from) const;
  // Rebuilds the log from the groups when stale marks outnumber live ones
  // several times. Never during a walk (EvictClean, SaveState).
  void MaybeCompactLru();
  InlineMap<Group> groups_;
  std::map<uint32_t, File> files_;
  std::vector<LruMark> lru_log_;      // oldest first, from lru_head_ on
  size_t lru_head_ = 0;               // marks before it are stale
  uint64_t lru_stamp_ = 0;            // the newest mark's stamp
  std::vector<LruMark> lru_scratch_;  // MaybeCompactLru's
  uint64_t cached_ = 0, dirty_ = 0, writeback_ = 0, dirty_or_wb_ = 0;
};

// The page size, for the page cache's files.
inline constexpr uint64_t kPage = PageTable::kPageSize;

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_PAGE_CACHE_PAGE_TABLE_H_
