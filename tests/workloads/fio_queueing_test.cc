// iodepth_batch, iodepth_batch_complete_min/max and iodepth_low as fio 3.33
// queues io_us (ioengines.c td_io_queue(), backend.c
// wait_for_completions(), init.c fixup_options()). The expected depth
// histograms are real fio's, libaio with direct=1 and iodepth=32 on a file
// of this machine's disk (4k random reads, 1 s):
//   default             depth 32=99.9%
//   iodepth_low=8       depth 8=29.16% 16=66.65% 32=4.17%
//   iodepth_batch=16    depth 32=99.9%, submit 4=99.99% 16=0.1%
//   complete_min=8      depth 16=87.46% 32=12.49%, complete 8=99.97%
//   complete_min=0 and complete_max=0 (polling)   depth 1=100%
#include <gtest/gtest.h>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_queueing_test {

using testing::RamStack;
using testing::RunArgs;
using testing::Split;

ThreadStat Queued(const std::string& extra) {
  auto s = RunArgs(RamStack(), Split("--name=q --size=64m --bs=4k --rw=randread --direct=1 "
                                     "--ioengine=libaio --iodepth=32 " +
                                     extra));
  EXPECT_TRUE(s.status.ok()) << s.status.ToString();
  return s.Job(0);
}

// The share of submissions at each depth bucket (1, 2, 4, 8, 16, 32, 64), percent.
std::array<double, 7> Depths(const ThreadStat& ts) {
  uint64_t total = 0;
  for (uint64_t v : ts.io_u_map) total += v;
  std::array<double, 7> out{};
  for (size_t i = 0; i < 7; ++i) out[i] = 100.0 * static_cast<double>(ts.io_u_map[i]) / total;
  return out;
}

TEST(FioQueueingTest, DefaultsKeepTheQueueFull) {
  const auto d = Depths(Queued(""));
  EXPECT_GT(d[5], 99.8);
}

TEST(FioQueueingTest, IodepthLowRefillsFromTheLowWaterMarkAsRealFio) {
  const ThreadStat ts = Queued("--iodepth_low=8");
  const auto d = Depths(ts);
  EXPECT_NEAR(d[3], 29.16, 0.5);
  EXPECT_NEAR(d[4], 66.65, 0.5);
  EXPECT_NEAR(d[5], 4.17, 0.5);
  // The reads wait less in the device's queue, but a completion waits for
  // the thread to reap it: clat stays about the RAM disk's 100 us.
  EXPECT_GE(ts.dir[kRead].clat.min(), 100000u);
}

TEST(FioQueueingTest, IodepthBatchSubmitsInBatchesUntilTheQueueIsFull) {
  const ThreadStat ts = Queued("--iodepth_batch=16");
  // Two batches of 16 fill the queue; then each reap frees one io_u, and
  // td_io_getevents() commits it before it waits again.
  EXPECT_EQ(ts.io_u_submit[3], 2u);  // "16"
  EXPECT_GT(Depths(ts)[5], 99.8);
  EXPECT_EQ(ts.io_u_map[4], 16u);  // the first batch, at depth 16
}

TEST(FioQueueingTest, CompleteMinReapsInBatchesAsRealFio) {
  const ThreadStat ts = Queued("--iodepth_batch_complete_min=8");
  const auto d = Depths(ts);
  EXPECT_NEAR(d[4], 87.46, 0.5);
  EXPECT_NEAR(d[5], 12.49, 0.5);
  uint64_t total = 0;
  for (uint64_t v : ts.io_u_complete) total += v;
  EXPECT_GT(static_cast<double>(ts.io_u_complete[2]) / static_cast<double>(total), 0.98);
}

TEST(FioQueueingTest, PollingWaitsForOneEventAfterEveryIo) {
  const ThreadStat ts = Queued("--iodepth_batch_complete_min=0 --iodepth_batch_complete_max=0");
  EXPECT_EQ(Depths(ts)[0], 100.0);
  // One 100 us read at a time.
  EXPECT_GE(ts.dir[kRead].clat.min(), 100000u);
  EXPECT_GE(ts.dir[kRead].runtime_ms, 16384u * 100 / 1000);
}

TEST(FioQueueingTest, TheDeviceSeesTheDepthFioKeeps) {
  // The device's own depth statistic (time-averaged, layout included):
  // iodepth_low=8 keeps it between 8 and 32.
  auto s = RunArgs(RamStack(), Split("--name=q --size=64m --bs=4k --rw=randread --direct=1 "
                                     "--ioengine=libaio --iodepth=32 --iodepth_low=8"));
  ASSERT_TRUE(s.status.ok());
  auto d = RunArgs(RamStack(), Split("--name=q --size=64m --bs=4k --rw=randread --direct=1 "
                                     "--ioengine=libaio --iodepth=32"));
  ASSERT_TRUE(d.status.ok());
  const Nanos ts = s.host->engine().now(), td = d.host->engine().now();
  const double low = s.host->stack().Find("disk")->stats().MeanQueueDepth(ts);
  const double full = d.host->stack().Find("disk")->stats().MeanQueueDepth(td);
  EXPECT_GT(low, 8.0);
  EXPECT_LT(low, 24.0);
  EXPECT_GT(full, low + 8.0);
}

TEST(FioQueueingTest, FixupsAreFios) {
  // init.c fixup_options(): 0 or above iodepth means iodepth; complete_max
  // below complete_min takes it.
  auto s = RunArgs(RamStack(), Split("--name=q --size=1m --rw=read --ioengine=libaio --iodepth=8 "
                                     "--iodepth_batch=0 --iodepth_low=99 "
                                     "--iodepth_batch_complete_min=4"));
  ASSERT_TRUE(s.status.ok());
  const JobSpec& j = s.run->runners()[0]->spec();
  EXPECT_EQ(j.queueing.batch, 8u);
  EXPECT_EQ(j.queueing.low, 8u);
  EXPECT_EQ(j.queueing.complete_min, 4u);
  EXPECT_EQ(j.queueing.complete_max, 4u);
  EXPECT_TRUE(j.queueing.batching);
}

}  // namespace fio_queueing_test
}  // namespace storlab::fio
