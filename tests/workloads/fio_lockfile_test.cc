// lockfile (fio 3.33 filesetup.c lock_file(), unlock_file(),
// file_lookup_open(); file_locks.h): exclusive serialises the I/O of jobs
// sharing a file where the engine's queue call does the I/O; readwrite
// takes nothing in fio 3.33 (lock_file() tests f->lock, which only
// exclusive sets).
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_lockfile_test {

using testing::RamStack;
using testing::Split;

testing::Sim TwoJobs(const std::string& extra) {
  return testing::RunArgs(
      RamStack(), Split("--filename=/dev/sdb --size=1m --bs=4k --rw=randread --direct=1 " + extra +
                        " --name=a --name=b"));
}

TEST(LockfileTest, ExclusiveSerialisesSynchronousIo) {
  auto none = TwoJobs("");
  ASSERT_TRUE(none.status.ok()) << none.status.ToString();
  auto ex = TwoJobs("--lockfile=exclusive");
  ASSERT_TRUE(ex.status.ok()) << ex.status.ToString();
  for (size_t j = 0; j < 2; ++j) {
    EXPECT_EQ(ex.Job(j).dir[kRead].total_ios, 256u);
    EXPECT_EQ(ex.Job(j).error, 0);
    // One I/O at a time over both jobs: each job's run about twice as long,
    // its latency (taken after the lock, as fio's start_time) the same.
    EXPECT_NEAR(static_cast<double>(ex.Job(j).dir[kRead].runtime_ms),
                2.0 * static_cast<double>(none.Job(j).dir[kRead].runtime_ms), 3);
    EXPECT_NEAR(ex.Job(j).dir[kRead].clat.mean(), none.Job(j).dir[kRead].clat.mean(),
                none.Job(j).dir[kRead].clat.mean() * 0.1);
  }
  auto rw = TwoJobs("--lockfile=readwrite");
  ASSERT_TRUE(rw.status.ok());
  EXPECT_EQ(rw.Job(0).dir[kRead].runtime_ms, none.Job(0).dir[kRead].runtime_ms);
}

// libaio: the lock covers the queue call only (fio_libaio_queue() puts
// the I/O on the ring), so the I/O is not serialised.
TEST(LockfileTest, AsyncEnginesHoldItOnlyForTheQueueCall) {
  auto none = TwoJobs("--ioengine=libaio --iodepth=4");
  auto ex = TwoJobs("--ioengine=libaio --iodepth=4 --lockfile=exclusive");
  ASSERT_TRUE(ex.status.ok()) << ex.status.ToString();
  EXPECT_EQ(ex.Job(0).dir[kRead].runtime_ms, none.Job(0).dir[kRead].runtime_ms);
}

TEST(LockfileTest, BadValueNamesTheOption) {
  auto s = TwoJobs("--lockfile=shared");
  EXPECT_NE(s.status.message().find("option 'lockfile'"), std::string::npos) << s.status.message();
}

}  // namespace fio_lockfile_test
}  // namespace storlab::fio
