#include "sim/store/page_arena.h"

namespace storlab {

uint8_t* PageArena::New() {
  if (!free_.empty()) {
    uint8_t* p = free_.back();
    free_.pop_back();
    return p;
  }
  if (unused_ == 0) {
    // Uninitialised: the kernel maps each page of the chunk on first touch.
    chunks_.emplace_back(new uint8_t[kChunkPages * kPage]);
    unused_ = kChunkPages;
  }
  return chunks_.back().get() + (kChunkPages - unused_--) * kPage;
}

}  // namespace storlab
