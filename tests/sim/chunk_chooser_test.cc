#include "sim/store/chunk_chooser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/store/page_arena.h"

namespace storlab {
namespace {

// Takes `n` chunks, each costing what `cost(huge)` says; returns how many
// were huge.
template <typename Cost>
int Take(ChunkChooser& c, int n, Cost cost) {
  int huge = 0;
  for (int i = 0; i < n; ++i) {
    const bool h = c.NextHuge();
    huge += h ? 1 : 0;
    c.Record(h, cost(h));
  }
  return huge;
}

TEST(ChunkChooserTest, MeasuresEachKindOnceHugeFirst) {
  ChunkChooser c;
  EXPECT_TRUE(c.NextHuge());
  c.Record(true, 9000);
  EXPECT_FALSE(c.NextHuge()) << "the small kind is measured next";
  c.Record(false, 1200);
  EXPECT_DOUBLE_EQ(c.cost_ns(true), 9000);
  EXPECT_DOUBLE_EQ(c.cost_ns(false), 1200);
}

// Huge chunks the host no longer backs (9 us a page) against scattered
// small pages it does (1.2 us): small ones, with a huge probe every
// kProbeEvery chunks.
TEST(ChunkChooserTest, TakesSmallChunksWhileHugeOnesCostMoreThanTwice) {
  ChunkChooser c;
  const int n = 2 + 10 * static_cast<int>(ChunkChooser::kProbeEvery + 1);
  const int huge = Take(c, n, [](bool h) { return h ? 9000.0 : 1200.0; });
  EXPECT_EQ(huge, 1 + 10) << "the first, then one probe a round";
}

TEST(ChunkChooserTest, PrefersHugeChunksUpToTwiceTheCost) {
  ChunkChooser c;
  const int n = 2 + 10 * static_cast<int>(ChunkChooser::kProbeEvery + 1);
  EXPECT_EQ(Take(c, n, [](bool h) { return h ? 2000.0 : 1000.0; }), n - 1 - 10)
      << "all huge but the first small one and one probe a round";
  ChunkChooser shadowed;  // a first user write costs an exit a 4 KiB page
  EXPECT_EQ(Take(shadowed, n, [](bool h) { return h ? 600.0 : 6000.0; }), n - 1 - 10);
}

// When the cheap small pages run out (they cost as much as huge ones then),
// the chooser goes back to huge chunks at the next probe.
TEST(ChunkChooserTest, FollowsTheHostWhenCostsChange) {
  ChunkChooser c;
  const int round = static_cast<int>(ChunkChooser::kProbeEvery + 1);
  Take(c, 2 + round, [](bool h) { return h ? 9000.0 : 1200.0; });
  EXPECT_FALSE(c.NextHuge());
  const int huge = Take(c, 3 * round, [](bool h) { return h ? 9000.0 : 10000.0; });
  // The first small chunk at the new cost tips the estimate; then one
  // small probe a round.
  EXPECT_EQ(huge, 3 * round - 4);
  EXPECT_TRUE(c.NextHuge());
}

// The cheaper mode hands out the same pages (zeros when fresh, writable,
// reused when given back) whichever kind of chunk they come from, and
// records what each kind cost.
TEST(ChunkChooserTest, ArenaInCheaperModeIsAnArena) {
  PageArena a(PageArena::Chunks::kCheaper);
  const size_t n = PageArena::kHugeChunkPages + 3 * PageArena::kChunkPages + 5;
  std::vector<uint8_t*> pages;
  for (size_t i = 0; i < n; ++i) pages.push_back(a.New());
  EXPECT_EQ(a.in_use(), n);
  EXPECT_GT(a.chooser().cost_ns(true), 0) << "the first chunk was huge";
  EXPECT_GT(a.chooser().cost_ns(false), 0) << "the second small";
  const size_t huge = a.chunk_count(true), small = a.chunk_count(false);
  EXPECT_GE(huge, 1u);
  EXPECT_GE(small, 1u);
  EXPECT_EQ(a.mapped(), huge * PageArena::kHugeChunkPages + small * PageArena::kChunkPages);
  EXPECT_GE(a.mapped(), n);
  std::vector<uint8_t*> sorted = pages;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 1; i < n; ++i) ASSERT_GE(sorted[i], sorted[i - 1] + PageArena::kPage);
  for (uint8_t* p : pages) {
    ASSERT_TRUE(std::all_of(p, p + PageArena::kPage, [](uint8_t b) { return b == 0; }));
    std::memset(p, 0x5a, PageArena::kPage);
  }
  a.Delete(pages[3]);
  EXPECT_EQ(a.in_use(), n - 1);
  EXPECT_EQ(a.New(), pages[3]);
  a.Clear();
  EXPECT_EQ(a.in_use(), 0u);
  EXPECT_EQ(a.mapped(), 0u);
  EXPECT_EQ(a.chunk_count(true) + a.chunk_count(false), 0u);
}

}  // namespace
}  // namespace storlab
