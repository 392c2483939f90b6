// TreeFs: the FUSE tree mode's name space and block map, without a kernel.
#include "sim/fs/tree_fs.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>

namespace storlab {
namespace tree_fs_test {

constexpr uint64_t kR = TreeFs::kRoot;

uint64_t Make(TreeFs& fs, uint64_t parent, const char* name, uint32_t mode = S_IFREG | 0644) {
  auto a = fs.Make(parent, name, mode, 0, 0);
  EXPECT_TRUE(a.ok()) << a.status().ToString();
  return a.ok() ? a->st_ino : 0;
}

TEST(TreeFs, NamesAndErrors) {
  TreeFs fs(1 << 20, 4096, 0, 0);
  const uint64_t d = Make(fs, kR, "d", S_IFDIR | 0755);
  const uint64_t f = Make(fs, d, "f");
  EXPECT_GE(d, 16u);  // 2-15 are the user's
  EXPECT_EQ(fs.Lookup(d, "f")->st_ino, f);
  EXPECT_EQ(fs.GetAttr(kR)->st_nlink, 3u);
  EXPECT_EQ(fs.Make(d, "f", S_IFREG, 0, 0).status().code(), Status::Code::kExists);
  EXPECT_EQ(fs.Make(f, "x", S_IFREG, 0, 0).status().code(), Status::Code::kNotDirectory);
  EXPECT_EQ(fs.Make(d, std::string(256, 'n'), S_IFREG, 0, 0).status().code(),
            Status::Code::kNameTooLong);
  EXPECT_EQ(fs.Make(d, "a/b", S_IFREG, 0, 0).status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(fs.Make(d, "", S_IFREG, 0, 0).status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(fs.Make(d, std::string("a\0b", 3), S_IFREG, 0, 0).status().code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(fs.Make(d, "b", S_IFBLK, 0, 0).status().code(), Status::Code::kNotPermitted);
  EXPECT_EQ(fs.Lookup(999, "f").status().code(), Status::Code::kNotFound);
  EXPECT_EQ(fs.Rmdir(kR, "d").code(), Status::Code::kNotEmpty);
  EXPECT_EQ(fs.Unlink(kR, "d").code(), Status::Code::kIsDirectory);
  EXPECT_EQ(fs.Rmdir(d, "f").code(), Status::Code::kNotDirectory);
  EXPECT_EQ(fs.Link(d, kR, "dl").status().code(), Status::Code::kNotPermitted);
}

TEST(TreeFs, RenameFlags) {
  TreeFs fs(1 << 20, 4096, 0, 0);
  const uint64_t a = Make(fs, kR, "a"), b = Make(fs, kR, "b");
  const uint64_t d = Make(fs, kR, "d", S_IFDIR | 0755);
  const uint64_t e = Make(fs, d, "e", S_IFDIR | 0755);
  EXPECT_EQ(fs.Rename(kR, "a", kR, "b", RENAME_NOREPLACE).code(), Status::Code::kExists);
  EXPECT_TRUE(fs.Rename(kR, "a", kR, "b", RENAME_EXCHANGE).ok());
  EXPECT_EQ(fs.Lookup(kR, "a")->st_ino, b);
  EXPECT_EQ(fs.Lookup(kR, "b")->st_ino, a);
  EXPECT_EQ(fs.Rename(kR, "a", kR, "zz", RENAME_EXCHANGE).code(), Status::Code::kNotFound);
  EXPECT_EQ(fs.Rename(kR, "a", kR, "zz", RENAME_WHITEOUT).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(fs.Rename(kR, "d", e, "x", 0).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(fs.Rename(kR, "a", kR, "d", 0).code(), Status::Code::kIsDirectory);
  EXPECT_EQ(fs.Rename(kR, "d", kR, "a", 0).code(), Status::Code::kNotDirectory);
  // A directory moved up: both parents' link counts follow.
  EXPECT_TRUE(fs.Rename(d, "e", kR, "e", 0).ok());
  EXPECT_EQ(fs.GetAttr(d)->st_nlink, 2u);
  EXPECT_EQ(fs.GetAttr(kR)->st_nlink, 4u);
  // Over an empty directory; the replaced one is gone once forgotten.
  const size_t before = fs.inodes();
  EXPECT_TRUE(fs.Rename(kR, "e", kR, "d", 0).ok());
  fs.Forget(d, 1);
  EXPECT_EQ(fs.inodes(), before - 1);
  EXPECT_EQ(fs.GetAttr(kR)->st_nlink, 3u);
}

TEST(TreeFs, UnlinkedOpenFileLivesUntilForgotten) {
  TreeFs fs(1 << 20, 4096, 0, 0);
  const uint64_t f = Make(fs, kR, "f");
  ASSERT_TRUE(fs.PlanWrite(f, 0, 8192).ok());
  const uint64_t free_before = fs.free_bytes();
  ASSERT_TRUE(fs.Unlink(kR, "f").ok());
  EXPECT_TRUE(fs.GetAttr(f).ok());  // still referenced by the kernel
  EXPECT_EQ(fs.free_bytes(), free_before);
  fs.Forget(f, 1);
  EXPECT_EQ(fs.GetAttr(f).status().code(), Status::Code::kNotFound);
  EXPECT_EQ(fs.free_bytes(), free_before + 8192);
}

TEST(TreeFs, HolesFreshBlocksAndEnospc) {
  TreeFs fs(64 << 10, 4096, 0, 0);  // 16 blocks
  const uint64_t f = Make(fs, kR, "f");
  auto w = fs.PlanWrite(f, 5000, 100);  // inside block 1, fresh
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(w->size(), 1u);
  EXPECT_TRUE((*w)[0].fresh);
  EXPECT_EQ(fs.GetAttr(f)->st_size, 5100);
  auto r = fs.PlanRead(f, 0, 1 << 20);  // clipped at the size; block 0 a hole
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_TRUE((*r)[0].hole());
  EXPECT_EQ((*r)[0].length, 4096u);
  EXPECT_EQ((*r)[1].length, 1004u);
  auto again = fs.PlanWrite(f, 5100, 100);  // the same block, now allocated
  EXPECT_FALSE((*again)[0].fresh);
  // ENOSPC takes nothing.
  const uint64_t free_before = fs.free_bytes();
  EXPECT_EQ(fs.PlanWrite(f, 1 << 20, 1 << 20).status().code(), Status::Code::kNoSpace);
  EXPECT_EQ(fs.free_bytes(), free_before);
  EXPECT_EQ(fs.GetAttr(f)->st_size, 5200);
}

TEST(TreeFs, TruncateZeroesTheCutBlocksTail) {
  TreeFs fs(1 << 20, 4096, 0, 0);
  const uint64_t f = Make(fs, kR, "f");
  auto w = fs.PlanWrite(f, 0, 3 * 4096);
  ASSERT_TRUE(w.ok());
  auto p = fs.Truncate(f, 5000);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->zero_length, 8192u - 5000u);
  EXPECT_EQ(p->zero_offset, (*w)[0].device_offset + 5000);
  EXPECT_EQ(fs.GetAttr(f)->st_blocks, 2 * 4096 / 512);
  EXPECT_EQ(fs.Truncate(f, 8192)->zero_length, 0u);  // growing cuts nothing
}

TEST(TreeFs, FallocatedBlocksReadAsZerosUntilWritten) {
  TreeFs fs(1 << 20, 4096, 0, 0);
  const uint64_t f = Make(fs, kR, "f");
  ASSERT_TRUE(fs.Allocate(f, 0, 4 * 4096, false).ok());
  EXPECT_EQ(fs.GetAttr(f)->st_size, 4 * 4096);
  auto r = fs.PlanRead(f, 0, 4 * 4096);
  ASSERT_EQ(r->size(), 1u);
  EXPECT_TRUE((*r)[0].hole());  // no device I/O
  auto w = fs.PlanWrite(f, 4096 + 10, 20);
  ASSERT_EQ(w->size(), 1u);
  EXPECT_TRUE((*w)[0].fresh);  // padded with zeros, not read
  r = fs.PlanRead(f, 0, 4 * 4096);
  ASSERT_EQ(r->size(), 3u);
  EXPECT_TRUE((*r)[0].hole());
  EXPECT_FALSE((*r)[1].hole());
  EXPECT_EQ((*r)[1].length, 4096u);
  EXPECT_TRUE((*r)[2].hole());
  EXPECT_EQ(fs.Allocate(f, 0, 1 << 30, true).code(), Status::Code::kNoSpace);
}

TEST(TreeFs, PunchHoleFreesWholeBlocksAndZeroesPartialEnds) {
  TreeFs fs(1 << 20, 4096, 0, 0);
  const uint64_t f = Make(fs, kR, "f");
  auto w = fs.PlanWrite(f, 0, 4 * 4096);
  ASSERT_TRUE(w.ok());
  const uint64_t dev = (*w)[0].device_offset, free0 = fs.free_bytes();
  // [100, 3*4096 + 50): block 0's tail and block 3's head are zeroed in
  // place; blocks 1 and 2 go back to the free space.
  auto p = fs.PunchHole(f, 100, 3 * 4096 - 50);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->zero.size(), 2u);
  EXPECT_EQ(p->zero[0], std::make_pair(dev + 100, uint64_t{4096 - 100}));
  EXPECT_EQ(p->zero[1], std::make_pair(dev + 3 * 4096, uint64_t{50}));
  EXPECT_EQ(fs.free_bytes(), free0 + 2 * 4096);
  EXPECT_EQ(fs.GetAttr(f)->st_size, 4 * 4096);  // the size stays
  EXPECT_EQ(fs.GetAttr(f)->st_blocks, 2 * 4096 / 512);
  auto r = fs.PlanRead(f, 0, 4 * 4096);
  ASSERT_EQ(r->size(), 3u);
  EXPECT_TRUE((*r)[1].hole());  // no device I/O for the freed blocks
  EXPECT_EQ((*r)[1].length, 2 * 4096u);
  // A write into the hole takes fresh blocks (padded, never read).
  auto w2 = fs.PlanWrite(f, 4096 + 10, 10);
  ASSERT_EQ(w2->size(), 1u);
  EXPECT_TRUE((*w2)[0].fresh);
  // Past the size nothing happens; a zero length is refused.
  EXPECT_TRUE(fs.PunchHole(f, 1 << 19, 4096)->zero.empty());
  EXPECT_EQ(fs.PunchHole(f, 0, 0).status().code(), Status::Code::kInvalidArgument);
  // Inside one block: only that part is zeroed, nothing freed.
  const uint64_t free1 = fs.free_bytes();
  p = fs.PunchHole(f, 3 * 4096 + 100, 200);
  ASSERT_EQ(p->zero.size(), 1u);
  EXPECT_EQ(p->zero[0], std::make_pair(dev + 3 * 4096 + 100, uint64_t{200}));
  EXPECT_EQ(fs.free_bytes(), free1);
}

TEST(TreeFs, ZeroRangeTurnsWholeBlocksUnwrittenAndAllocatesHoles) {
  TreeFs fs(1 << 20, 4096, 0, 0);
  const uint64_t f = Make(fs, kR, "f");
  auto w = fs.PlanWrite(f, 0, 2 * 4096);
  ASSERT_TRUE(w.ok());
  const uint64_t dev = (*w)[0].device_offset, free0 = fs.free_bytes();
  // [10, 4*4096): block 0's tail zeroed in place, block 1 unwritten, blocks
  // 2 and 3 (a hole past the size) allocated unwritten; the size grows.
  auto p = fs.ZeroRange(f, 10, 4 * 4096 - 10, false);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->zero.size(), 1u);
  EXPECT_EQ(p->zero[0], std::make_pair(dev + 10, uint64_t{4096 - 10}));
  EXPECT_EQ(fs.free_bytes(), free0 - 2 * 4096);
  EXPECT_EQ(fs.GetAttr(f)->st_size, 4 * 4096);
  auto r = fs.PlanRead(f, 0, 4 * 4096);
  ASSERT_EQ(r->size(), 2u);
  EXPECT_FALSE((*r)[0].hole());
  EXPECT_TRUE((*r)[1].hole());  // unwritten: zeros without device I/O
  EXPECT_EQ((*r)[1].length, 3 * 4096u);
  // KEEP_SIZE: the size stays; no space: nothing taken.
  EXPECT_TRUE(fs.ZeroRange(f, 4 * 4096, 4096, true).ok());
  EXPECT_EQ(fs.GetAttr(f)->st_size, 4 * 4096);
  const uint64_t free1 = fs.free_bytes();
  EXPECT_EQ(fs.ZeroRange(f, 0, 1 << 30, false).status().code(), Status::Code::kNoSpace);
  EXPECT_EQ(fs.free_bytes(), free1);
  EXPECT_EQ(fs.GetAttr(f)->st_size, 4 * 4096);
}

TEST(TreeFs, ReadDirOffsetsSurviveRemovals) {
  TreeFs fs(1 << 20, 4096, 0, 0);
  for (const char* n : {"a", "b", "c", "d"}) Make(fs, kR, n);
  auto first = fs.ReadDir(kR, 0, 4);  // ".", "..", "a", "b"
  ASSERT_EQ(first->size(), 4u);
  ASSERT_TRUE(fs.Unlink(kR, "a").ok());
  auto rest = fs.ReadDir(kR, first->back().next, 10);
  ASSERT_EQ(rest->size(), 2u);
  EXPECT_EQ((*rest)[0].name, "c");
  EXPECT_EQ((*rest)[1].name, "d");
}

}  // namespace tree_fs_test
}  // namespace storlab
