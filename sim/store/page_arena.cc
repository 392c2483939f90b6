#include "sim/store/page_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "sim/clock.h"

namespace storlab {

void PageArena::Unmap::operator()(uint8_t* p) const { ::munmap(p, bytes); }

uint8_t* PageArena::MapChunk(bool huge) {
  const size_t bytes = ChunkBytes(huge);
  if (!huge) {
    // Mapped and populated at once: one system call faults in the 64 pages
    // the next fresh pages will use, where touching each first in a write
    // cost a page fault each (with the engine held: FUSE 4K random writes
    // on `ram` 52-63k -> 88-89k IOPS here, CPU per write 21 -> 13 us).
    void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    return static_cast<uint8_t*>(m);
  }
  // Twice the size, then the unaligned head and tail given back: a huge
  // page needs a 2 MiB-aligned 2 MiB range (mm/huge_memory.c
  // thp_vma_suitable_order). Then faulted in at once (MADV_POPULATE_WRITE,
  // Linux 5.14): one huge page (do_huge_pmd_anonymous_page), or, where the
  // kernel gives none (THP off), its 512 pages in one call, as
  // MAP_POPULATE does for the small chunks.
  void* m = ::mmap(nullptr, 2 * bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  auto* raw = static_cast<uint8_t*>(m);
  const auto addr = reinterpret_cast<uintptr_t>(raw);
  const size_t head = ((addr + bytes - 1) & ~(uintptr_t{bytes} - 1)) - addr;
  if (head > 0) ::munmap(raw, head);
  ::munmap(raw + head + bytes, bytes - head);  // head < bytes
  uint8_t* chunk = raw + head;
  ::madvise(chunk, bytes, MADV_HUGEPAGE);  // advice: without THP, 4 KiB pages
#ifdef MADV_POPULATE_WRITE
  ::madvise(chunk, bytes, MADV_POPULATE_WRITE);  // older kernels: faulted on first touch
#endif
  return chunk;
}

ChunkPrefetcher::Chunk PageArena::MakeChunk(bool huge) {
  const size_t pages = ChunkBytes(huge) / kPage;
  // What the chunk costs in all: mapping and faulting it in, and a first
  // user write to each page (an exit each where the hypervisor shadows the
  // page tables, paid here rather than in the store's first copy).
  const int64_t t0 = Clock::Real()->NowNanos();
  uint8_t* bytes = MapChunk(huge);
  for (size_t i = 0; i < pages; ++i) *static_cast<volatile uint8_t*>(bytes + i * kPage) = 0;
  return {bytes, huge, static_cast<double>(Clock::Real()->NowNanos() - t0) / pages};
}

void PageArena::AddChunk() {
  bool huge = chunks_mode_ == Chunks::kHuge;
  uint8_t* bytes = nullptr;
  if (chunks_mode_ != Chunks::kCheaper) {
    bytes = MapChunk(huge);
  } else {
    huge = chooser_.NextHuge();
    if (!prefetcher_ && chunks_.size() >= kPrefetchAfter && prefetch_ != nullptr &&
        prefetch_->load(std::memory_order_acquire)) {
      prefetcher_ = std::make_unique<ChunkPrefetcher>(
          MakeChunk, [](const ChunkPrefetcher::Chunk& c) { Unmap{ChunkBytes(c.huge)}(c.bytes); },
          kPrefetchDepth);
    }
    std::optional<ChunkPrefetcher::Chunk> made;
    if (prefetcher_) made = prefetcher_->Take(huge);
    if (!made) made = MakeChunk(huge);
    chooser_.Record(huge, made->ns_per_page);
    bytes = made->bytes;
  }
  std::unique_ptr<uint8_t, Unmap> chunk(bytes, Unmap{ChunkBytes(huge)});
  chunks_.push_back(std::move(chunk));  // if it cannot grow, `chunk` unmaps
  mapped_ += ChunkBytes(huge) / kPage;
  unused_ = ChunkBytes(huge) / kPage;
}

size_t PageArena::chunk_count(bool huge) const {
  const size_t bytes = ChunkBytes(huge);
  return static_cast<size_t>(std::count_if(chunks_.begin(), chunks_.end(), [&](const auto& c) {
    return c.get_deleter().bytes == bytes;
  }));
}

uint8_t* PageArena::New() {
  if (!free_.empty()) {
    uint8_t* p = free_.back();
    free_.pop_back();
    return p;
  }
  if (unused_ == 0) AddChunk();
  const size_t last_pages = chunks_.back().get_deleter().bytes / kPage;
  return chunks_.back().get() + (last_pages - unused_--) * kPage;
}

}  // namespace storlab
