// PageArena: 4 KiB pages for a RAM store or an Overlay, carved from 256 KiB
// chunks (2 MiB in huge mode, below) and kept on a free list when given back.
//
// A malloc of 4 KiB per page cost a system call per page on the transport
// threads that run the engine: glibc grows a thread's (non-main) malloc
// arena by exactly what an allocation needs (sysmalloc -> grow_heap, one
// mprotect each), so a store filling with fresh pages made one mprotect per
// page written, each taking the process's mmap lock. A chunk of 64 pages is
// one mmap, populated at once (MAP_POPULATE: the kernel allocates and zeroes
// its pages in one call instead of one page fault each on first touch).
// Pages given back are reused by the store before a new chunk is taken;
// their memory returns to the system when the arena is cleared or
// destroyed: a few munmaps, where freeing each page wrote the allocator's
// bookkeeping into it — in the fork(2)ed copy that checks a power cut
// (PowerCuts::RunChild), a copied page each (an Overlay's Clear).
//
// Huge mode: chunks of 2 MiB, aligned and advised MADV_HUGEPAGE, so that
// the kernel maps each with one transparent huge page where it can. On a
// machine whose hypervisor shadows the guest's page tables (stop 48's VM),
// the first touch of each 4 KiB page by user code costs a hypervisor exit
// even after MAP_POPULATE (5.3-6.2 us a page there, measured by writing
// each page of a populated chunk once), and a 2 MiB mapping costs one: FUSE
// 4K random writes on `ram` over fresh space, three alternated runs,
// 35-38k -> 52-62k IOPS. (A helper thread faulting the next chunks in
// ahead of the writer measured the same then; the cheaper mode's
// ChunkPrefetcher, below, also makes each page's first user write.) Not
// for stores a power-cut check forks (PowerCuts::RunChild): the original's
// next write to a huge page shared with the copy splits it again.
//
// Cheaper mode (the stores of the real-time service, whose process never
// forks): each chunk huge or small as a ChunkChooser picks from what the
// last ones of each kind cost, timed here (sim/store/chunk_chooser.h): on a
// guest that hands free memory back to its host a huge chunk may cost
// eight times a small one, on one that shadows its page tables a tenth.
// Once allowed (the constructor's `prefetch`) and past its first
// kPrefetchAfter chunks (a store that fills), a ChunkPrefetcher's thread
// makes the next ones ahead, so that the thread holding the engine no
// longer pays for fresh memory (sim/store/chunk_prefetcher.h).
//
// Not thread-safe (the store's owner serialises it).
#ifndef STORLAB_SIM_STORE_PAGE_ARENA_H_
#define STORLAB_SIM_STORE_PAGE_ARENA_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/store/chunk_chooser.h"
#include "sim/store/chunk_prefetcher.h"

namespace storlab {

class PageArena {
 public:
  static constexpr size_t kPage = 4096;
  static constexpr size_t kChunkPages = 64;
  static constexpr size_t kHugeChunkPages = 512;  // 2 MiB, one x86-64 huge page

  enum class Chunks { kSmall, kHuge, kCheaper };
  PageArena() = default;
  // `prefetch` (cheaper mode): the next chunks are made ahead once it is
  // true (DataMode::prefetch); null: never.
  explicit PageArena(Chunks chunks, const std::atomic<bool>* prefetch = nullptr)
      : chunks_mode_(chunks), prefetch_(prefetch) {}
  // Cheaper mode: chunks made before the prefetching starts, and how many
  // it keeps ready.
  static constexpr size_t kPrefetchAfter = 2;
  static constexpr size_t kPrefetchDepth = 2;

  PageArena(const PageArena&) = delete;
  PageArena& operator=(const PageArena&) = delete;

  // A page, its bytes unspecified (zeros if fresh, old bytes if reused).
  uint8_t* New();
  // Gives back a page from New().
  void Delete(uint8_t* page) { free_.push_back(page); }
  // Gives back every page at once. REQUIRES: none is used any more.
  void Clear() {
    chunks_.clear();
    free_.clear();
    unused_ = mapped_ = 0;
  }

  // Pages handed out and not given back.
  size_t in_use() const { return mapped_ - free_.size() - unused_; }
  // Pages in all chunks, in use or not.
  size_t mapped() const { return mapped_; }
  // Chunks taken so far of each kind (2 MiB ones: `huge`; counted, for
  // the stats).
  size_t chunk_count(bool huge) const;
  Chunks chunks() const { return chunks_mode_; }
  // The cheaper mode's choices: what each kind of chunk last cost.
  const ChunkChooser& chooser() const { return chooser_; }
  // The cheaper mode's prefetching: chunks taken made ahead, and taken
  // when none was ready (0 and 0 before it starts).
  uint64_t prefetched() const { return prefetcher_ ? prefetcher_->taken() : 0; }
  uint64_t prefetch_missed() const { return prefetcher_ ? prefetcher_->missed() : 0; }

 private:
  static constexpr size_t ChunkBytes(bool huge) {
    return (huge ? kHugeChunkPages : kChunkPages) * kPage;
  }
  struct Unmap {
    size_t bytes = kChunkPages * kPage;
    void operator()(uint8_t* p) const;
  };
  // A new chunk, populated: 64 pages, or 2 MiB aligned and advised
  // MADV_HUGEPAGE (`huge`).
  static uint8_t* MapChunk(bool huge);
  // Cheaper mode: maps a chunk and writes each page once, timed.
  static ChunkPrefetcher::Chunk MakeChunk(bool huge);
  // Maps the next chunk (of the kind the mode says) as chunks_.back().
  void AddChunk();
  Chunks chunks_mode_ = Chunks::kSmall;
  ChunkChooser chooser_;  // kCheaper only
  std::vector<std::unique_ptr<uint8_t, Unmap>> chunks_;
  std::vector<uint8_t*> free_;  // given back, reused first
  size_t mapped_ = 0;           // pages in all chunks
  size_t unused_ = 0;           // pages at the end of the last chunk never handed out
  const std::atomic<bool>* prefetch_ = nullptr;
  std::unique_ptr<ChunkPrefetcher> prefetcher_;  // cheaper mode, once filling
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_PAGE_ARENA_H_
