// ChunkPrefetcher: nothing made before it is asked, `depth` chunks of the
// kind last asked for kept ready, the other kind kept for its next Take,
// the untaken dropped, and a failing Make ends the prefetching without
// losing a chunk. And a PageArena in its cheaper mode asks it once for
// every chunk after its first kPrefetchAfter.
#include "sim/store/chunk_prefetcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

#include "sim/store/page_arena.h"

namespace storlab {
namespace chunk_prefetcher_test {

// Fake chunks: one heap byte each, counted when made and when dropped.
struct Counts {
  std::atomic<int> tries{0}, made{0}, dropped{0};
  std::atomic<bool> fail{false};
};

ChunkPrefetcher::Make Maker(Counts& n) {
  return [&n](bool huge) {
    ++n.tries;
    if (n.fail.load()) throw std::bad_alloc();
    ++n.made;
    return ChunkPrefetcher::Chunk{new uint8_t[1], huge, 1.0};
  };
}

ChunkPrefetcher::Drop Dropper(Counts& n) {
  return [&n](const ChunkPrefetcher::Chunk& c) {
    ++n.dropped;
    delete[] c.bytes;
  };
}

// Waits (up to 10 s) until `pred` holds.
template <typename Pred>
bool Eventually(Pred pred) {
  for (int i = 0; i < 10000; ++i) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return pred();
}

TEST(ChunkPrefetcherTest, MakesNothingBeforeAsked) {
  Counts n;
  {
    ChunkPrefetcher p(Maker(n), Dropper(n), 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(n.made.load(), 0);
  }
  EXPECT_EQ(n.dropped.load(), 0);
}

TEST(ChunkPrefetcherTest, KeepsDepthReadyOfTheKindAsked) {
  Counts n;
  {
    ChunkPrefetcher p(Maker(n), Dropper(n), 2);
    EXPECT_FALSE(p.Take(true));  // nothing ready yet: the caller makes one
    EXPECT_EQ(p.missed(), 1u);
    ASSERT_TRUE(Eventually([&] { return p.made() == 2; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(p.made(), 2u);  // no more than `depth` ahead
    auto c = p.Take(true);
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->huge);
    EXPECT_EQ(c->ns_per_page, 1.0);
    delete[] c->bytes;
    EXPECT_EQ(p.taken(), 1u);
    ASSERT_TRUE(Eventually([&] { return p.made() == 3; }));  // refilled
  }
  EXPECT_EQ(n.made.load(), 3);
  EXPECT_EQ(n.dropped.load(), 2);  // the two never taken
}

TEST(ChunkPrefetcherTest, SwitchesKindAndKeepsTheOther) {
  Counts n;
  {
    ChunkPrefetcher p(Maker(n), Dropper(n), 1);
    p.Take(true);
    ASSERT_TRUE(Eventually([&] { return p.made() == 1; }));
    EXPECT_FALSE(p.Take(false));  // only a huge one is ready
    ASSERT_TRUE(Eventually([&] { return p.made() == 2; }));
    auto small = p.Take(false);
    ASSERT_TRUE(small);
    EXPECT_FALSE(small->huge);
    delete[] small->bytes;
    auto huge = p.Take(true);  // made before the switch, kept
    ASSERT_TRUE(huge);
    EXPECT_TRUE(huge->huge);
    delete[] huge->bytes;
    ASSERT_TRUE(Eventually([&] { return p.made() >= 3; }));
  }
  EXPECT_EQ(n.dropped.load(), n.made.load() - 2);
}

TEST(ChunkPrefetcherTest, OutOfMemoryEndsPrefetching) {
  Counts n;
  n.fail = true;
  {
    ChunkPrefetcher p(Maker(n), Dropper(n), 2);
    EXPECT_FALSE(p.Take(true));
    ASSERT_TRUE(Eventually([&] { return n.tries.load() == 1; }));
    n.fail = false;  // the thread does not try again
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(p.Take(true));
    EXPECT_EQ(p.made(), 0u);
  }
  EXPECT_EQ(n.tries.load(), 1);
  EXPECT_EQ(n.made.load(), 0);
  EXPECT_EQ(n.dropped.load(), 0);
}

// The arena's chunks made ahead are as good as its own: fresh (zeros),
// distinct, writable; every chunk after the first kPrefetchAfter asked of
// the prefetcher exactly once.
TEST(ChunkPrefetcherTest, CheaperArenaUsesIt) {
  const std::atomic<bool> allowed{true};
  PageArena a(PageArena::Chunks::kCheaper, &allowed);
  const size_t n = 2 * PageArena::kHugeChunkPages + 8 * PageArena::kChunkPages;
  std::vector<uint8_t*> pages;
  for (size_t i = 0; i < n; ++i) {
    uint8_t* p = a.New();
    ASSERT_TRUE(std::all_of(p, p + PageArena::kPage, [](uint8_t b) { return b == 0; }));
    std::memset(p, 0x77, PageArena::kPage);
    pages.push_back(p);
  }
  std::sort(pages.begin(), pages.end());
  for (size_t i = 1; i < n; ++i) ASSERT_GE(pages[i], pages[i - 1] + PageArena::kPage);
  const size_t chunks = a.chunk_count(true) + a.chunk_count(false);
  ASSERT_GT(chunks, PageArena::kPrefetchAfter);
  EXPECT_EQ(a.prefetched() + a.prefetch_missed(), chunks - PageArena::kPrefetchAfter);
}

// Not before it is allowed (the service allows it after forking), and
// from then on.
TEST(ChunkPrefetcherTest, CheaperArenaWaitsUntilAllowed) {
  std::atomic<bool> allowed{false};
  PageArena a(PageArena::Chunks::kCheaper, &allowed);
  for (size_t i = 0; i < 4 * PageArena::kHugeChunkPages; ++i) a.New();
  EXPECT_EQ(a.prefetched() + a.prefetch_missed(), 0u);
  allowed = true;
  const size_t before = a.chunk_count(true) + a.chunk_count(false);
  for (size_t i = 0; i < 2 * PageArena::kHugeChunkPages; ++i) a.New();
  EXPECT_EQ(a.prefetched() + a.prefetch_missed(),
            a.chunk_count(true) + a.chunk_count(false) - before);
  EXPECT_GT(a.prefetched() + a.prefetch_missed(), 0u);
}

}  // namespace chunk_prefetcher_test
}  // namespace storlab
