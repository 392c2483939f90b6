#include "sim/fs/extent_fs.h"

#include <gtest/gtest.h>

namespace storlab {
namespace extent_fs_test {

TEST(ExtentFsTest, FilesOnAnEmptyDeviceAreContiguousAndBackToBack) {
  ExtentFs fs(1 << 20);
  uint32_t a = fs.Create("a");
  uint32_t b = fs.Create("dir/b");
  ASSERT_TRUE(fs.Allocate(a, 64 << 10).ok());
  ASSERT_TRUE(fs.Allocate(b, 100000).ok());  // rounds up to blocks
  ASSERT_EQ(fs.file(a).extents.size(), 1u);
  EXPECT_EQ(fs.file(a).extents[0].device_offset, 0u);
  EXPECT_EQ(fs.file(b).extents[0].device_offset, 64u << 10);
  EXPECT_EQ(fs.file(b).size, 100000u);
  EXPECT_EQ(fs.file(b).allocated, 102400u);
  EXPECT_EQ(fs.used_bytes(), (64u << 10) + 102400u);
  EXPECT_EQ(fs.MapContiguous(b, 4096, 4096), (64u << 10) + 4096);
  EXPECT_EQ(fs.Lookup("dir/b"), b);
  EXPECT_EQ(fs.Create("a"), a);  // existing
}

TEST(ExtentFsTest, FullDeviceGivesNoSpaceAndKeepsWhatItCould) {
  ExtentFs fs(256 << 10);
  uint32_t a = fs.Create("a");
  Status st = fs.Allocate(a, 1 << 20);
  EXPECT_EQ(st.code(), Status::Code::kNoSpace);
  EXPECT_EQ(fs.file(a).allocated, 256u << 10);
  EXPECT_EQ(fs.file(a).size, 256u << 10);
  EXPECT_EQ(fs.free_bytes(), 0u);
  uint32_t b = fs.Create("b");
  std::vector<ExtentFs::Extent> ex;
  EXPECT_EQ(fs.Map(b, 0, 4096, /*allocate=*/true, &ex).code(), Status::Code::kNoSpace);
}

TEST(ExtentFsTest, RemoveFreesSpaceAndFragmentsAreReused) {
  ExtentFs fs(64 << 10);
  uint32_t a = fs.Create("a"), b = fs.Create("b"), c = fs.Create("c");
  ASSERT_TRUE(fs.Allocate(a, 16 << 10).ok());
  ASSERT_TRUE(fs.Allocate(b, 16 << 10).ok());
  ASSERT_TRUE(fs.Allocate(c, 32 << 10).ok());
  fs.Remove(a);
  fs.Remove(c);
  EXPECT_EQ(fs.Lookup("a"), 0u);
  EXPECT_EQ(fs.free_bytes(), 48u << 10);
  // 40 KiB fits no single hole (16 + 32): it takes the 32 KiB one whole and
  // 8 KiB of the other, in file order.
  uint32_t d = fs.Create("d");
  ASSERT_TRUE(fs.Allocate(d, 40 << 10).ok());
  const auto& ex = fs.file(d).extents;
  ASSERT_EQ(ex.size(), 2u);
  EXPECT_EQ(ex[0].file_offset, 0u);
  EXPECT_EQ(ex[0].length + ex[1].length, 40u << 10);
  EXPECT_EQ(fs.MapContiguous(d, ex[0].length - 4096, 8192), ExtentFs::kHole);  // spans both
  std::vector<ExtentFs::Extent> m;
  ASSERT_TRUE(fs.Map(d, ex[0].length - 4096, 8192, false, &m).ok());
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[1].device_offset, ex[1].device_offset);
}

TEST(ExtentFsTest, WritesAllocateHolesAndReadsSeeThem) {
  ExtentFs fs(1 << 20);
  uint32_t a = fs.Create("a");
  std::vector<ExtentFs::Extent> m;
  ASSERT_TRUE(fs.Map(a, 8192, 4096, false, &m).ok());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].device_offset, ExtentFs::kHole);
  m.clear();
  ASSERT_TRUE(fs.Map(a, 8192, 4096, true, &m).ok());
  EXPECT_NE(m[0].device_offset, ExtentFs::kHole);
  EXPECT_EQ(fs.file(a).size, 12288u);
  EXPECT_EQ(fs.file(a).allocated, 4096u);
  fs.Truncate(a, 0);
  EXPECT_EQ(fs.file(a).allocated, 0u);
  EXPECT_EQ(fs.free_bytes(), 1u << 20);
}

}  // namespace extent_fs_test
}  // namespace storlab
