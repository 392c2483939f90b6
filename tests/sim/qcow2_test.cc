// The qcow2 image format (sim/layers/vm/qcow2_node.h): clusters allocated
// on first write at the end of the file with their COW, the metadata
// writes and flushes of a guest flush (refcounts before L2 unless
// lazy_refcounts), L2 cache misses, preallocation, discard, what a power
// cut keeps, and bad input naming key and file.
#include <gtest/gtest.h>

#include "sim/layers/page_cache/page_cache.h"
#include "sim/layers/vm/qcow2_node.h"
#include "sim/profile/loader.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace qcow2_test {

using testing::Pattern;
constexpr uint64_t kCluster = 65536;

// A bare qcow2 image over a RAM disk, with extra keys for the image.
std::string ImageText(const std::string& keys) {
  return "[node.img]\ntype = \"qcow2\"\nchild = \"disk\"\n" + keys +
         "[node.disk]\ntype = \"ram\"\ncapacity = \"64MiB\"\nlatency = \"100us\"\n";
}

struct Image {
  Engine e;
  LoadedStack s;
  explicit Image(const std::string& keys = "") : s(testing::MustLoadText(ImageText(keys), e)) {}
  Node& root() { return s.stack->root(); }
  Qcow2Node& img() { return *NodeAs<Qcow2Node>(&s.stack->root()); }
  Node& disk() { return *s.stack->Find("disk"); }
  uint64_t disk_ops(Op op) { return disk().stats().op(op).ops; }
};

// Writes Pattern(len, seed) at `off`.
Status Put(Image& im, uint64_t off, uint64_t len, uint64_t seed) {
  auto w = Pattern(len, seed);
  return testing::Write(im.e, im.root(), off, w).status;
}

TEST(Qcow2Test, FirstWritesAllocateAtTheEndOfTheFileInTheOrderWritten) {
  Image im;
  // A fresh image: header, refcount table, refcount block, L1 table.
  EXPECT_EQ(im.img().file_bytes(), 4 * kCluster);
  std::vector<std::vector<uint8_t>> w;
  const uint64_t guest[] = {10, 3, 7};
  for (uint64_t g : guest) {
    w.push_back(Pattern(4096, g));
    ASSERT_TRUE(testing::Write(im.e, im.root(), g * kCluster + 8192, w.back()).status.ok());
  }
  const auto& c = im.img().counters();
  EXPECT_EQ(c.allocated_clusters, 3u);
  EXPECT_EQ(c.l2_tables_allocated, 1u);
  // Each 4 KiB first write wrote its whole cluster (the COW of zeros).
  EXPECT_EQ(c.cow_bytes, 3 * (kCluster - 4096));
  // The L2 table, then the three clusters, appended.
  EXPECT_EQ(im.img().file_bytes(), 8 * kCluster);
  // l2_allocate wrote the refcount block, the new L2 table and the L1
  // entry (one logical block); the data, three clusters.
  const uint64_t lb = im.disk().geometry().logical_block;
  EXPECT_EQ(im.disk().stats().op(Op::kWrite).bytes, kCluster + kCluster + lb + 3 * kCluster);
  // Rewrites go in place: no allocation, no COW, 4 KiB each.
  const uint64_t bytes_before = im.disk().stats().op(Op::kWrite).bytes;
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(testing::Write(im.e, im.root(), guest[i] * kCluster + 8192, w[i]).status.ok());
  }
  EXPECT_EQ(c.allocated_clusters, 3u);
  EXPECT_EQ(im.disk().stats().op(Op::kWrite).bytes - bytes_before, 3 * 4096u);
  for (size_t i = 0; i < 3; ++i) {
    std::vector<uint8_t> r(4096);
    ASSERT_TRUE(testing::Read(im.e, im.root(), guest[i] * kCluster + 8192, r).status.ok());
    EXPECT_EQ(r, w[i]);
    // The COW'd rest of the cluster reads as zeros.
    ASSERT_TRUE(testing::Read(im.e, im.root(), guest[i] * kCluster, r).status.ok());
    EXPECT_EQ(r, std::vector<uint8_t>(4096, 0));
  }
}

// qcow2_write_caches: the L2 cache depends on the refcount cache, so a
// guest flush writes the refcount block, flushes, writes the L2 table and
// flushes the file; lazy_refcounts drops the middle flush. (After a COW
// the L2 writes wait for a flush either way: qcow2_cache_depends_on_flush;
// this write fills its cluster, so there is none.)
TEST(Qcow2Test, AGuestFlushWritesRefcountsThenL2WithAFlushBetween) {
  for (bool lazy : {false, true}) {
    Image im(lazy ? "lazy_refcounts = true\n" : "");
    // Allocate the L2 table first (l2_allocate's own flushes), then measure.
    ASSERT_TRUE(Put(im, 0, 4096, 1).ok());
    ASSERT_TRUE(testing::Flush(im.e, im.root()).status.ok());
    const uint64_t flushes = im.disk_ops(Op::kFlush);
    const uint64_t meta = im.img().counters().metadata_writes;
    ASSERT_TRUE(Put(im, 5 * kCluster, kCluster, 2).ok());
    EXPECT_EQ(im.disk_ops(Op::kFlush), flushes) << lazy;  // no flush on the write path
    ASSERT_TRUE(testing::Flush(im.e, im.root()).status.ok());
    EXPECT_EQ(im.img().counters().metadata_writes - meta, 2u) << lazy;  // refcount block + L2
    EXPECT_EQ(im.disk_ops(Op::kFlush) - flushes, lazy ? 1u : 2u) << lazy;
  }
}

TEST(Qcow2Test, AnL2MissReadsTheSliceBeforeTheData) {
  // Two 4 KiB slices of 512 entries: each covers 32 MiB of guest.
  Image im("l2_cache_size = \"8KiB\"\nl2_cache_entry_size = \"4KiB\"\nsize = \"48MiB\"\n");
  ASSERT_TRUE(Put(im, 0, 4096, 1).ok());
  ASSERT_TRUE(Put(im, 40 << 20, 4096, 2).ok());
  ASSERT_TRUE(testing::Flush(im.e, im.root()).status.ok());
  im.s.stack->PowerCut();  // the cache is empty after a restart
  const uint64_t reads = im.disk_ops(Op::kRead);
  const uint64_t misses = im.img().counters().l2_misses;
  std::vector<uint8_t> r(4096);
  auto first = testing::Read(im.e, im.root(), 0, r);
  ASSERT_TRUE(first.status.ok());
  EXPECT_EQ(r, Pattern(4096, 1));
  EXPECT_EQ(im.disk_ops(Op::kRead) - reads, 2u);  // the slice, then the data
  auto again = testing::Read(im.e, im.root(), 0, r);
  EXPECT_EQ(im.disk_ops(Op::kRead) - reads, 3u);  // a hit: the data only
  EXPECT_GT(first.latency, again.latency);
  EXPECT_EQ(im.img().counters().l2_misses - misses, 1u);
}

TEST(Qcow2Test, PreallocatedImagesWriteInPlaceFromTheStart) {
  for (const char* mode : {"metadata", "falloc", "full"}) {
    Image im(std::string("preallocation = \"") + mode + "\"\nsize = \"32MiB\"\n");
    ASSERT_TRUE(Put(im, 3 * kCluster, 4096, 3).ok());
    ASSERT_TRUE(testing::Flush(im.e, im.root()).status.ok());
    EXPECT_EQ(im.img().counters().allocated_clusters, 0u) << mode;
    EXPECT_EQ(im.img().counters().cow_bytes, 0u) << mode;
    EXPECT_EQ(im.img().counters().metadata_writes, 0u) << mode;
    EXPECT_EQ(im.disk().stats().op(Op::kWrite).bytes, 4096u) << mode;
  }
}

TEST(Qcow2Test, DiscardUnmapsWholeClustersAndPassesThemOn) {
  Image im;
  ASSERT_TRUE(Put(im, 0, 3 * kCluster, 4).ok());
  // From the middle of cluster 0 to the end of cluster 2: clusters 1 and 2.
  ASSERT_TRUE(
      testing::DoIo(im.e, im.root(), Op::kTrim, kCluster / 2, 2 * kCluster + kCluster / 2, nullptr)
          .status.ok());
  EXPECT_EQ(im.img().counters().discarded_clusters, 2u);
  EXPECT_EQ(im.disk_ops(Op::kTrim), 1u);
  std::vector<uint8_t> r(kCluster);
  ASSERT_TRUE(testing::Read(im.e, im.root(), kCluster, r).status.ok());
  EXPECT_EQ(r, std::vector<uint8_t>(kCluster, 0));
  ASSERT_TRUE(testing::Read(im.e, im.root(), 0, r).status.ok());
  const auto all = Pattern(3 * kCluster, 4);
  EXPECT_EQ(r, std::vector<uint8_t>(all.begin(), all.begin() + kCluster));
}

// A new cluster's L2 entry is durable only after a flush: a power cut
// before it loses the write (the guest reads zeros), after it keeps it.
TEST(Qcow2Test, APowerCutKeepsOnlyFlushedMappings) {
  Image im;
  ASSERT_TRUE(Put(im, 0, 4096, 5).ok());
  ASSERT_TRUE(testing::Flush(im.e, im.root()).status.ok());
  ASSERT_TRUE(Put(im, 2 * kCluster, 4096, 6).ok());
  im.s.stack->PowerCut();
  std::vector<uint8_t> r(4096);
  ASSERT_TRUE(testing::Read(im.e, im.root(), 0, r).status.ok());
  EXPECT_EQ(r, Pattern(4096, 5));
  ASSERT_TRUE(testing::Read(im.e, im.root(), 2 * kCluster, r).status.ok());
  EXPECT_EQ(r, std::vector<uint8_t>(4096, 0));
}

std::string LoadError(const std::string& text) {
  Engine e;
  auto s = LoadStackText(text, "img.toml", ".", e, BuildOptions{});
  EXPECT_FALSE(s.ok());
  return s.ok() ? "" : std::string(s.status().message());
}

TEST(Qcow2Test, BadInputNamesKeyAndFile) {
  std::string msg = LoadError(ImageText("cluster_size = \"48KiB\"\n"));
  EXPECT_NE(msg.find("img.toml"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cluster_size"), std::string::npos) << msg;
  EXPECT_NE(msg.find("power of two"), std::string::npos) << msg;
  msg = LoadError(ImageText("preallocation = \"sparse\"\n"));
  EXPECT_NE(msg.find("img.toml"), std::string::npos) << msg;
  EXPECT_NE(msg.find("preallocation"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sparse"), std::string::npos) << msg;
  msg = LoadError("[node.img]\ntype = \"qcow2\"\n");
  EXPECT_NE(msg.find("img.toml"), std::string::npos) << msg;
  EXPECT_NE(msg.find("child"), std::string::npos) << msg;
  msg = LoadError(ImageText("preallocation = \"full\"\nsize = \"1GiB\"\n"));
  EXPECT_NE(msg.find("preallocation"), std::string::npos) << msg;
}

// Under cache=none the image is opened O_DIRECT: qcow2's metadata I/O
// bypasses the host page cache as the data does (kDirect from the guest's
// requests); under writeback both land in it.
uint64_t HostCachedBytes(const std::string& cache) {
  Engine e;
  auto s = testing::MustLoadText(
      "[node.vm]\ntype = \"vm\"\nchild = \"img\"\ncache = \"" + cache +
          "\"\n[node.img]\ntype = \"qcow2\"\nchild = \"pc\"\n"
          "[node.pc]\ntype = \"page_cache\"\nchild = \"disk\"\nmem = \"256MiB\"\n"
          "[node.disk]\ntype = \"ram\"\ncapacity = \"64MiB\"\n",
      e);
  Node& vm = s.stack->root();
  for (uint64_t g : {0, 4}) {
    auto w = Pattern(4096, g + 1);
    EXPECT_TRUE(testing::Write(e, vm, g * kCluster, w, kDirect).status.ok());
    EXPECT_TRUE(testing::Flush(e, vm).status.ok());
  }
  EXPECT_GT(NodeAs<Qcow2Node>(s.stack->Find("img"))->counters().metadata_writes, 0u);
  return NodeAs<PageCache>(s.stack->Find("pc"))->cached_bytes();
}

TEST(Qcow2Test, MetadataBypassesTheHostPageCacheUnderCacheNone) {
  EXPECT_EQ(HostCachedBytes("none"), 0u);
  EXPECT_GT(HostCachedBytes("writeback"), 0u);
}

}  // namespace qcow2_test
}  // namespace storlab
