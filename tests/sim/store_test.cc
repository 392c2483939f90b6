#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/state_coding.h"
#include "sim/store/file_store.h"
#include "sim/store/null_store.h"
#include "sim/store/overlay.h"
#include "sim/store/page_arena.h"
#include "sim/store/ram_store.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace store_test {

using testing::Pattern;

void CheckStore(Store& s) {
  auto a = Pattern(10000, 1);
  ASSERT_TRUE(s.Write(1000, a.size(), a.data()).ok());
  std::vector<uint8_t> r(12000);
  ASSERT_TRUE(s.Read(0, r.size(), r.data()).ok());
  EXPECT_TRUE(std::all_of(r.begin(), r.begin() + 1000, [](uint8_t b) { return b == 0; }));
  EXPECT_TRUE(std::equal(a.begin(), a.end(), r.begin() + 1000));
  EXPECT_TRUE(std::all_of(r.begin() + 11000, r.end(), [](uint8_t b) { return b == 0; }));
  ASSERT_TRUE(s.Zero(0, 8192).ok());
  ASSERT_TRUE(s.Read(0, r.size(), r.data()).ok());
  EXPECT_TRUE(std::all_of(r.begin(), r.begin() + 8192, [](uint8_t b) { return b == 0; }));
  EXPECT_TRUE(std::equal(a.begin() + 7192, a.end(), r.begin() + 8192));
}

TEST(StoreTest, RamStoreIsSparseAndCorrect) {
  RamStore s;
  CheckStore(s);
  RamStore big;
  auto a = Pattern(4096, 2);
  ASSERT_TRUE(big.Write(uint64_t{5} << 40, 4096, a.data()).ok());  // 5 TiB in
  EXPECT_EQ(big.allocated_bytes(), 4096u);
  std::vector<uint8_t> zeros(8192, 0);
  ASSERT_TRUE(big.Write(uint64_t{5} << 40, 8192, zeros.data()).ok());
  EXPECT_EQ(big.allocated_bytes(), 0u) << "all-zero pages are released";
}

TEST(StoreTest, RamStorePartialPagesZeroTheRestAndReleaseWhenZeroed) {
  RamStore s;
  auto a = Pattern(100, 3);
  ASSERT_TRUE(s.Write(4096 * 7 + 50, a.size(), a.data()).ok());  // inside one new page
  std::vector<uint8_t> r(4096);
  ASSERT_TRUE(s.Read(4096 * 7, r.size(), r.data()).ok());
  EXPECT_TRUE(std::all_of(r.begin(), r.begin() + 50, [](uint8_t b) { return b == 0; }));
  EXPECT_TRUE(std::equal(a.begin(), a.end(), r.begin() + 50));
  EXPECT_TRUE(std::all_of(r.begin() + 150, r.end(), [](uint8_t b) { return b == 0; }));
  EXPECT_EQ(s.allocated_bytes(), 4096u);
  ASSERT_TRUE(s.Zero(4096 * 7 + 40, 200).ok());  // a partial zero that clears the page
  EXPECT_EQ(s.allocated_bytes(), 0u);
  // Released entries are reused: many writes and trims of different pages.
  for (uint64_t i = 0; i < 5000; ++i) {
    ASSERT_TRUE(s.Write(i * 4096, a.size(), a.data()).ok());
    if (i % 2 == 0) {
      ASSERT_TRUE(s.Zero(i * 4096, 4096).ok());
    }
  }
  EXPECT_EQ(s.allocated_bytes(), 2500u * 4096u);
  ASSERT_TRUE(s.Read(4096, a.size(), r.data()).ok());
  EXPECT_TRUE(std::equal(a.begin(), a.end(), r.begin()));
  ASSERT_TRUE(s.Read(8192, a.size(), r.data()).ok());
  EXPECT_TRUE(std::all_of(r.begin(), r.begin() + 100, [](uint8_t b) { return b == 0; }));
}

TEST(StoreTest, PageArenaCarvesChunksAndReusesPagesGivenBack) {
  PageArena a;
  std::vector<uint8_t*> pages;
  for (size_t i = 0; i < PageArena::kChunkPages + 1; ++i) pages.push_back(a.New());
  EXPECT_EQ(a.in_use(), PageArena::kChunkPages + 1);
  // One chunk's pages are contiguous and distinct; the next starts a new chunk.
  for (size_t i = 1; i < PageArena::kChunkPages; ++i)
    EXPECT_EQ(pages[i], pages[i - 1] + PageArena::kPage);
  for (uint8_t* p : pages) std::memset(p, 0xab, PageArena::kPage);  // all writable
  a.Delete(pages[5]);
  a.Delete(pages[9]);
  EXPECT_EQ(a.in_use(), PageArena::kChunkPages - 1);
  EXPECT_EQ(a.New(), pages[9]);  // given back: reused before fresh ones
  EXPECT_EQ(a.New(), pages[5]);
  EXPECT_EQ(a.New(), pages.back() + PageArena::kPage);
  EXPECT_EQ(a.in_use(), PageArena::kChunkPages + 2);
}

// Huge mode: 2 MiB chunks on 2 MiB boundaries (what a transparent huge
// page needs), fresh pages zeros, and the same reuse and accounting.
TEST(StoreTest, PageArenaHugeModeCarvesAlignedTwoMiBChunks) {
  PageArena a(PageArena::Chunks::kHuge);
  EXPECT_EQ(PageArena().chunks(), PageArena::Chunks::kSmall);
  constexpr size_t kHuge = PageArena::kHugeChunkPages;
  std::vector<uint8_t*> pages;
  for (size_t i = 0; i < kHuge + 1; ++i) pages.push_back(a.New());
  EXPECT_EQ(a.in_use(), kHuge + 1);
  constexpr uintptr_t kTwoMiB = uintptr_t{2} << 20;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(pages[0]) % kTwoMiB, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(pages[kHuge]) % kTwoMiB, 0u) << "the next chunk";
  for (size_t i = 1; i < kHuge; ++i) ASSERT_EQ(pages[i], pages[i - 1] + PageArena::kPage);
  for (uint8_t* p : pages) {
    ASSERT_TRUE(std::all_of(p, p + PageArena::kPage, [](uint8_t b) { return b == 0; }));
    std::memset(p, 0xcd, PageArena::kPage);  // all writable
  }
  a.Delete(pages[7]);
  EXPECT_EQ(a.New(), pages[7]);
  EXPECT_EQ(a.New(), pages[kHuge] + PageArena::kPage);
  a.Clear();
  EXPECT_EQ(a.in_use(), 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.New()) % kTwoMiB, 0u) << "a fresh chunk after Clear";
}

// A store MakeStore() gives for `mode` passes CheckStore.
void CheckMadeStore(const DataMode& mode) {
  auto made = MakeStore(mode, "disk", uint64_t{1} << 30);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  CheckStore(**made);
}

// `s` holds what `plain` holds in its first 16 MiB, in as many pages.
void ExpectSameContents(const RamStore& s, const RamStore& plain) {
  EXPECT_EQ(s.allocated_bytes(), plain.allocated_bytes());
  std::vector<uint8_t> x(uint64_t{16} << 20), y(x.size());
  ASSERT_TRUE(s.Read(0, x.size(), x.data()).ok());
  ASSERT_TRUE(plain.Read(0, y.size(), y.data()).ok());
  EXPECT_TRUE(x == y);
}

TEST(StoreTest, RamStoreWithHugePagesIsTheSameStore) {
  RamStore checked(/*huge_pages=*/true);
  CheckStore(checked);
  DataMode mode;
  mode.huge_pages = true;
  CheckMadeStore(mode);
  // Many pages, trimmed and rewritten: the same contents as a plain store.
  RamStore s(/*huge_pages=*/true), plain;
  for (uint64_t i = 0; i < 3000; ++i) {
    auto a = Pattern(4096, i);
    const uint64_t off = (i * 7919 % 4096) * 4096;
    ASSERT_TRUE(s.Write(off, a.size(), a.data()).ok());
    ASSERT_TRUE(plain.Write(off, a.size(), a.data()).ok());
    if (i % 3 == 0) {
      ASSERT_TRUE(s.Zero(off, 4096).ok());
      ASSERT_TRUE(plain.Zero(off, 4096).ok());
    }
  }
  ExpectSameContents(s, plain);
}

// Whole pages written with non-temporal stores (the service's stores): the
// same contents as ordinary copies, for whole pages, parts of pages, pages
// that become zeros and writes that span several pages at odd offsets.
TEST(StoreTest, RamStoreWithStreamedWritesIsTheSameStore) {
  RamStore checked(/*huge_pages=*/false, /*stream_writes=*/true);
  CheckStore(checked);
  DataMode mode;
  mode.stream_writes = true;
  CheckMadeStore(mode);
  RamStore s(/*huge_pages=*/true, /*stream_writes=*/true), plain;
  const std::vector<uint8_t> zeros(3 * 4096, 0);
  for (uint64_t i = 0; i < 3000; ++i) {
    const uint64_t len = i % 5 == 0 ? 3 * 4096 : i % 5 == 1 ? 100 + i % 4000 : 4096;
    const uint64_t off = (i * 7919 % 4000) * 4096 + (i % 5 == 2 ? 0 : i % 3 * 512);
    auto a = Pattern(len, i);
    const uint8_t* data = i % 7 == 0 ? zeros.data() : a.data();  // pages that become zeros
    ASSERT_TRUE(s.Write(off, len, data).ok());
    ASSERT_TRUE(plain.Write(off, len, data).ok());
  }
  ExpectSameContents(s, plain);
}

TEST(StoreTest, FileStoreIsCorrectAndKeepsDataAcrossReopen) {
  std::string path = std::filesystem::temp_directory_path() /
                     ("storlab-store-test-" + std::to_string(::getpid()) + ".img");
  {
    auto s = FileStore::Open(path, 1 << 20);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    CheckStore(**s);
  }
  {
    auto s = FileStore::Open(path, 1 << 20);
    ASSERT_TRUE(s.ok());
    std::vector<uint8_t> r(100);
    ASSERT_TRUE((*s)->Read(9000, 100, r.data()).ok());
    auto a = Pattern(10000, 1);
    EXPECT_TRUE(std::equal(r.begin(), r.end(), a.begin() + 8000));
  }
  std::filesystem::remove(path);
}

TEST(StoreTest, FileStoreReportsErrors) {
  auto s = FileStore::Open("/nonexistent-dir/x.img", 4096);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("/nonexistent-dir/x.img"), std::string::npos);
}

TEST(StoreTest, NullStoreKeepsNothing) {
  NullStore s;
  auto a = Pattern(4096, 1);
  ASSERT_TRUE(s.Write(0, 4096, a.data()).ok());
  std::vector<uint8_t> r(4096, 1);
  ASSERT_TRUE(s.Read(0, 4096, r.data()).ok());
  EXPECT_EQ(r, std::vector<uint8_t>(4096, 0));
}

TEST(OverlayTest, PatchesNewestBytesOverTheStore) {
  RamStore store;
  Overlay o(true);
  auto base = Pattern(16384, 1);
  ASSERT_TRUE(store.Write(0, base.size(), base.data()).ok());
  auto w = Pattern(1024, 2);
  o.Put(512, 1024, w.data());  // sectors 1-2 of page 0
  EXPECT_EQ(o.held_bytes(), 1024u);
  EXPECT_TRUE(o.Covers(512, 1024));
  EXPECT_FALSE(o.Covers(0, 1024));
  std::vector<uint8_t> r(16384);
  ASSERT_TRUE(store.Read(0, r.size(), r.data()).ok());
  o.Patch(0, r.size(), r.data());
  std::vector<uint8_t> expect = base;
  std::copy(w.begin(), w.end(), expect.begin() + 512);
  EXPECT_EQ(r, expect);
  auto runs = o.Runs(0, 16384);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0], std::make_pair(uint64_t{512}, uint64_t{1024}));
}

TEST(OverlayTest, DrainMakesDataDurableAndClearLosesIt) {
  RamStore store;
  Overlay o(true);
  auto a = Pattern(8192, 3), b = Pattern(4096, 4);
  o.Put(0, 8192, a.data());
  o.Put(1 << 20, 4096, b.data());
  ASSERT_TRUE(o.DrainTo(store, 0, 8192).ok());
  EXPECT_EQ(o.held_bytes(), 4096u);
  o.Clear();  // a power cut
  EXPECT_TRUE(o.empty());
  std::vector<uint8_t> r(8192);
  ASSERT_TRUE(store.Read(0, 8192, r.data()).ok());
  EXPECT_EQ(r, a);
  std::vector<uint8_t> r2(4096);
  ASSERT_TRUE(store.Read(1 << 20, 4096, r2.data()).ok());
  EXPECT_EQ(r2, std::vector<uint8_t>(4096, 0)) << "undrained data must be lost";
}

TEST(OverlayTest, EraseAndHugeRangesAreCheap) {
  Overlay o(true);
  auto a = Pattern(4096, 5);
  o.Put(uint64_t{3} << 40, 4096, a.data());
  o.PutZeros(8192, 1024);
  EXPECT_EQ(o.held_bytes(), 5120u);
  o.Erase(0, uint64_t{4} << 40);  // a trim of 4 TiB walks the map, not the range
  EXPECT_TRUE(o.empty());
  EXPECT_EQ(o.held_bytes(), 0u);
}

TEST(OverlayTest, TimingOnlyOverlayHoldsNothing) {
  Overlay o(false);
  auto a = Pattern(4096, 5);
  o.Put(0, 4096, a.data());
  EXPECT_TRUE(o.empty());
  EXPECT_FALSE(o.Covers(0, 4096));
}

// Pages come from a PageArena: erased ones are reused, Clear gives back all;
// what the overlay holds is unchanged by where its bytes live.
TEST(OverlayTest, PagesAreReusedAfterEraseAndClear) {
  Overlay o(true);
  auto a = Pattern(64 * 4096, 6), b = Pattern(4096, 7);
  o.Put(0, a.size(), a.data());
  o.Erase(4096, 8192);
  o.Put(1 << 20, b.size(), b.data());  // takes an erased page
  std::vector<uint8_t> got(a.size());
  o.Patch(0, got.size(), got.data());
  EXPECT_TRUE(std::equal(a.begin(), a.begin() + 4096, got.begin()));
  EXPECT_TRUE(std::equal(a.begin() + 12288, a.end(), got.begin() + 12288));
  std::vector<uint8_t> one(4096);
  o.Patch(1 << 20, 4096, one.data());
  EXPECT_EQ(one, b);
  EXPECT_EQ(o.held_bytes(), a.size() - 8192 + 4096);
  o.Clear();
  EXPECT_TRUE(o.empty());
  o.Put(0, b.size(), b.data());  // usable again after a cut
  std::fill(one.begin(), one.end(), 0);
  o.Patch(0, 4096, one.data());
  EXPECT_EQ(one, b);
}

TEST(OverlayTest, StateRoundTripsAndAPageListedTwiceIsRefused) {
  Overlay o(true);
  auto a = Pattern(4096, 8);
  o.Put(8192, 4096, a.data());
  o.Put(1 << 30, 512, a.data());
  StateWriter w;
  o.SaveState(w);
  Overlay back(true);
  StateReader r(w.data(), "test");
  ASSERT_TRUE(back.RestoreState(r).ok());
  EXPECT_EQ(back.held_bytes(), o.held_bytes());
  std::vector<uint8_t> got(4096);
  back.Patch(8192, 4096, got.data());
  EXPECT_EQ(got, a);

  StateWriter twice;  // two pages, both index 2
  twice.U64(2);
  for (int i = 0; i < 2; ++i) {
    twice.U64(2);
    twice.U64(0xff);
    twice.Raw(a.data(), 4096);
  }
  Overlay bad(true);
  StateReader rb(twice.data(), "twice.state");
  Status st = bad.RestoreState(rb);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("listed twice"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("twice.state"), std::string::npos) << st.message();
}

}  // namespace store_test
}  // namespace storlab
