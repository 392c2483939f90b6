#include "sim/store/chunk_prefetcher.h"

#include <algorithm>
#include <new>
#include <utility>

namespace storlab {

ChunkPrefetcher::ChunkPrefetcher(Make make, Drop drop, size_t depth)
    : make_(std::move(make)), drop_(std::move(drop)), depth_(depth) {
  thread_ = std::thread([this] { Loop(); });
}

ChunkPrefetcher::~ChunkPrefetcher() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  for (const Chunk& c : ready_) drop_(c);
}

size_t ChunkPrefetcher::ReadyOf(bool huge) const {
  return static_cast<size_t>(
      std::count_if(ready_.begin(), ready_.end(), [&](const Chunk& c) { return c.huge == huge; }));
}

std::optional<ChunkPrefetcher::Chunk> ChunkPrefetcher::Take(bool huge) {
  std::optional<Chunk> out;
  {
    std::lock_guard<std::mutex> l(mu_);
    asked_ = true;
    want_huge_ = huge;
    auto it =
        std::find_if(ready_.begin(), ready_.end(), [&](const Chunk& c) { return c.huge == huge; });
    if (it != ready_.end()) {
      out = *it;
      ready_.erase(it);
      ++taken_;
    } else {
      ++missed_;
    }
  }
  cv_.notify_one();
  return out;
}

uint64_t ChunkPrefetcher::taken() const {
  std::lock_guard<std::mutex> l(mu_);
  return taken_;
}

uint64_t ChunkPrefetcher::missed() const {
  std::lock_guard<std::mutex> l(mu_);
  return missed_;
}

uint64_t ChunkPrefetcher::made() const {
  std::lock_guard<std::mutex> l(mu_);
  return made_;
}

void ChunkPrefetcher::Loop() {
  std::unique_lock<std::mutex> l(mu_);
  for (;;) {
    cv_.wait(l, [&] { return stop_ || (asked_ && !failed_ && ReadyOf(want_huge_) < depth_); });
    if (stop_) return;
    const bool huge = want_huge_;
    l.unlock();  // the arena's owner takes ready chunks meanwhile
    std::optional<Chunk> made;
    try {
      made = make_(huge);
    } catch (const std::bad_alloc&) {
      // Out of memory: the arena's owner maps its own chunks (and meets the
      // same error there, on its own thread, where it is handled).
    }
    l.lock();
    if (made) {
      ready_.push_back(*made);
      ++made_;
    } else {
      failed_ = true;
    }
  }
}

}  // namespace storlab
