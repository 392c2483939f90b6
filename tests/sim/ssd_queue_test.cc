// SsdCommandQueue: queue depth, arrival order, and SATA's draining FLUSH.
#include "sim/devices/ssd_queue.h"

#include <gtest/gtest.h>

namespace storlab {
namespace ssd_queue_test {

Request Req(Op op, uint64_t off = 0) {
  return Request{.op = op, .offset = off, .length = op == Op::kFlush ? 0u : 4096u, .done = {}};
}

TEST(SsdQueue, AtMostDepthCommandsWorkAndTheRestWaitInOrder) {
  SsdCommandQueue q(2, false);
  uint32_t a, b, c;
  ASSERT_TRUE(q.Arrive(Req(Op::kRead, 0), &a));
  ASSERT_TRUE(q.Arrive(Req(Op::kRead, 1), &b));
  EXPECT_FALSE(q.Arrive(Req(Op::kRead, 2), &c));
  EXPECT_FALSE(q.Arrive(Req(Op::kRead, 3), &c));
  EXPECT_EQ(q.active(), 2u);
  EXPECT_FALSE(q.NextStartable(&c));
  EXPECT_EQ(q.Finish(b).offset, 1u);
  ASSERT_TRUE(q.NextStartable(&c));
  EXPECT_EQ(q.at(c).req.offset, 2u);
  EXPECT_FALSE(q.NextStartable(&c));
  q.Finish(a);
  q.Finish(c);
  ASSERT_TRUE(q.NextStartable(&c));
  EXPECT_EQ(q.at(c).req.offset, 3u);
  q.Finish(c);
  EXPECT_TRUE(q.idle());
}

TEST(SsdQueue, SataFlushWaitsForTheQueueToDrainAndBlocksItWhileItRuns) {
  SsdCommandQueue q(32, /*flush_drains=*/true);
  uint32_t r1, f, r2;
  ASSERT_TRUE(q.Arrive(Req(Op::kRead, 1), &r1));
  EXPECT_FALSE(q.Arrive(Req(Op::kFlush), &f));
  EXPECT_FALSE(q.Arrive(Req(Op::kRead, 2), &r2));  // does not overtake the flush
  q.Finish(r1);
  ASSERT_TRUE(q.NextStartable(&f));
  EXPECT_EQ(q.at(f).req.op, Op::kFlush);
  EXPECT_FALSE(q.NextStartable(&r2));  // nothing runs beside the flush
  q.Finish(f);
  ASSERT_TRUE(q.NextStartable(&r2));
  EXPECT_EQ(q.at(r2).req.offset, 2u);
}

TEST(SsdQueue, NvmeFlushIsQueuedLikeAnyCommand) {
  SsdCommandQueue q(32, /*flush_drains=*/false);
  uint32_t s;
  ASSERT_TRUE(q.Arrive(Req(Op::kRead), &s));
  ASSERT_TRUE(q.Arrive(Req(Op::kFlush), &s));
  ASSERT_TRUE(q.Arrive(Req(Op::kRead), &s));
  EXPECT_EQ(q.active(), 3u);
}

TEST(SsdQueue, ClearDropsEverything) {
  SsdCommandQueue q(1, true);
  uint32_t s;
  q.Arrive(Req(Op::kFlush), &s);
  q.Arrive(Req(Op::kRead), &s);
  q.Clear();
  EXPECT_TRUE(q.idle());
  EXPECT_TRUE(q.Arrive(Req(Op::kRead), &s));
}

}  // namespace ssd_queue_test
}  // namespace storlab
