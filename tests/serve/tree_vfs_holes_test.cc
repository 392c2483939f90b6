// Tree mode's PUNCH_HOLE and ZERO_RANGE through the FUSE mount's handlers
// (sim/serve/vfs/tree_vfs.h), no kernel: the service on a ManualClock.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/falloc.h>

#include <algorithm>

#include "sim/serve/vfs/tree_vfs.h"
#include "tests/serve/vfs_test_util.h"

namespace storlab {
namespace tree_vfs_holes_test {

using testing::Bytes;
using testing::FusefsStack;
using testing::ManualClock;
using testing::ReadAt;
using testing::StartService;
using testing::StatusCall;
using testing::WriteAt;

// PUNCH_HOLE and ZERO_RANGE in tree mode: the range reads as zeros and the
// rest as written, through the device (partial ends zeroed there); punched
// blocks are free again, zeroed ones stay allocated.
TEST(TreeVfsHoles, PunchHoleAndZeroRange) {
  ManualClock clock(true);
  auto svc = StartService(FusefsStack("small.toml"), clock);
  ASSERT_TRUE(svc);
  TreeVfs v(*svc, 0, VfsOptions());
  Caller who;
  auto c = v.Create(kRootIno, "f", 0644, O_RDWR, who);
  ASSERT_TRUE(c.ok());
  const uint64_t ino = c->first.st_ino;
  Random r(3, "holes");
  std::vector<uint8_t> model = Bytes(r, 8 * 4096);
  size_t wrote = 0;
  ASSERT_EQ(WriteAt(v, ino, 0, model, &wrote), 0);
  const uint64_t free0 = v.StatFs(kRootIno)->f_bfree;
  auto fallocate = [&](int mode, uint64_t off, uint64_t n) {
    return StatusCall(
        [&](Vfs::StatusReply rep) { v.Fallocate(ino, 0, mode, off, n, std::move(rep)); });
  };
  ASSERT_EQ(fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 100, 3 * 4096 - 50), 0);
  std::fill(model.begin() + 100, model.begin() + 3 * 4096 + 50, 0);
  EXPECT_EQ(v.StatFs(kRootIno)->f_bfree, free0 + 2);  // blocks 1 and 2
  ASSERT_EQ(fallocate(FALLOC_FL_ZERO_RANGE, 5 * 4096 + 7, 4096), 0);
  std::fill(model.begin() + 5 * 4096 + 7, model.begin() + 6 * 4096 + 7, 0);
  EXPECT_EQ(v.StatFs(kRootIno)->f_bfree, free0 + 2);
  EXPECT_EQ(fallocate(FALLOC_FL_PUNCH_HOLE, 0, 4096), EOPNOTSUPP);  // needs KEEP_SIZE
  std::vector<uint8_t> got;
  ASSERT_EQ(ReadAt(v, ino, 0, model.size(), &got), 0);
  ASSERT_EQ(got.size(), model.size());
  for (size_t k = 0; k < got.size(); ++k) ASSERT_EQ(got[k], model[k]) << "byte " << k;
  // A write into the punched blocks reads back; the rest stays zero.
  const std::vector<uint8_t> d = Bytes(r, 10);
  ASSERT_EQ(WriteAt(v, ino, 4096 + 5, d, &wrote), 0);
  std::copy(d.begin(), d.end(), model.begin() + 4096 + 5);
  ASSERT_EQ(ReadAt(v, ino, 0, model.size(), &got), 0);
  for (size_t k = 0; k < got.size(); ++k) ASSERT_EQ(got[k], model[k]) << "byte " << k;
}

}  // namespace tree_vfs_holes_test
}  // namespace storlab
