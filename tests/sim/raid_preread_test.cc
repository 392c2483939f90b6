// md's delayed pre-reads (sim/layers/raid/preread_gate.h): a background
// partial-stripe write waits while another generation of pre-reading
// stripes is active, and goes with every other that arrived meanwhile; a
// client's own (REQ_SYNC) write does not wait.
#include <gtest/gtest.h>

#include <vector>

#include "sim/virtual_driver.h"
#include "tests/sim/raid_test_util.h"

namespace storlab {
namespace raid_preread_test {

using testing::MakeRaidRig;
using testing::Spec;
using testing::WithKeys;

constexpr int64_t kUs = 1000;  // microseconds, in Nanos' unit

Nanos Us(int64_t n) { return Nanos(n * kUs); }

// A 4-disk RAID5 of 64 KiB chunks whose members take 1 ms a request: a
// one-chunk write into a stripe is a reconstruct-write, 1 ms of reads and
// then 1 ms of writes. WriteAt(at, stripe, flags, chunks) writes the
// first `chunks` chunks of a stripe; `done` holds when each write completed,
// in the order they were set up.
struct Rig {
  Engine e;
  testing::RaidRig r = MakeRaidRig(e, WithKeys(Spec(5, 4, "64KiB"), "", "latency = \"1ms\"\n"),
                                   DataMode::Kind::kNone);
  std::vector<Nanos> done;

  void WriteAt(Nanos at, int stripe, uint32_t flags, uint64_t chunks = 1) {
    const size_t i = done.size();
    done.emplace_back(-1);
    e.At(at, [this, i, stripe, flags, chunks] {
      r.raid->Submit(Request{.op = Op::kWrite,
                             .flags = flags,
                             .offset = uint64_t(stripe) * 3 * 65536,
                             .length = chunks * 65536,
                             .done = [this, i](Status st) {
                               EXPECT_TRUE(st.ok()) << st.ToString();
                               done[i] = e.now();
                             }});
    });
  }
  const PrereadGate& gate() const { return r.raid->array().preread_gate(); }
};

TEST(RaidPrereadTest, ABackgroundWriteWaitsForTheActiveGeneration) {
  Rig g;
  g.WriteAt(Nanos(0), 0, kBackground);  // generation 1: reads 0-1, writes 1-2 ms
  g.WriteAt(Us(500), 1, kBackground);   // delayed until 2 ms: done at 4 ms
  g.WriteAt(Us(750), 2, kBackground);   // the same generation as stripe 1
  VirtualDriver(g.e).RunUntilIdle();
  EXPECT_EQ(g.done[0], Us(2000));
  EXPECT_EQ(g.done[1], Us(4000));
  EXPECT_EQ(g.done[2], Us(4000));
  EXPECT_EQ(g.gate().generations(), 2u);
  EXPECT_EQ(g.gate().delayed_total(), 3u);
  EXPECT_EQ(g.r.raid->array().stripe_heads().in_use(), 0u);
}

TEST(RaidPrereadTest, ASyncWriteIsActiveOnArrival) {
  Rig g;
  g.WriteAt(Nanos(0), 0, kBackground);
  g.WriteAt(Us(500), 1, 0);                    // O_DIRECT: REQ_SYNC
  g.WriteAt(Us(500), 2, kBackground | kSync);  // an fsync's writeback
  g.WriteAt(Us(500), 3, kBackground | kFua);   // a FUA write (a cache's commit)
  VirtualDriver(g.e).RunUntilIdle();
  EXPECT_EQ(g.done[0], Us(2000));
  EXPECT_EQ(g.done[1], Us(2500));
  EXPECT_EQ(g.done[2], Us(2500));
  EXPECT_EQ(g.done[3], Us(2500));
  EXPECT_EQ(g.gate().generations(), 1u);
  EXPECT_EQ(g.gate().delayed_total(), 1u);
}

TEST(RaidPrereadTest, WhileASyncWriteIsActiveBackgroundWritesWait) {
  Rig g;
  g.WriteAt(Nanos(0), 0, 0);
  g.WriteAt(Us(1000), 1, kBackground);  // waits for the sync write's end at 2 ms
  VirtualDriver(g.e).RunUntilIdle();
  EXPECT_EQ(g.done[0], Us(2000));
  EXPECT_EQ(g.done[1], Us(4000));
}

TEST(RaidPrereadTest, AFullStripeWriteNeedsNoPrereadAndDoesNotWait) {
  Rig g;
  g.WriteAt(Nanos(0), 0, kBackground);
  g.WriteAt(Us(500), 3, kBackground, 3);  // stripe 3, all three chunks
  VirtualDriver(g.e).RunUntilIdle();
  ASSERT_EQ(g.done.size(), 2u);
  EXPECT_EQ(g.done[1], Us(1500));  // writes only
  EXPECT_EQ(g.gate().delayed_total(), 1u);
}

// A page cache's writeback for fsync is REQ_SYNC (wbc_to_write_flags):
// its partial-stripe writes are pre-read at once, not in generations.
TEST(RaidPrereadTest, AnFsyncsWritebackIsNotDelayed) {
  Engine e;
  auto s = testing::MustLoadText(
      "[node.pc]\ntype = \"page_cache\"\nchild = \"array\"\nmem = \"64MiB\"\n" +
          testing::RaidText(WithKeys(Spec(5, 4, "64KiB"), "", "latency = \"1ms\"\n")),
      e, 1, DataMode::Kind::kNone);
  Node& pc = s.stack->root();
  std::vector<uint8_t> buf(65536);
  for (int stripe = 0; stripe < 3; ++stripe) {
    ASSERT_TRUE(testing::Write(e, pc, uint64_t(stripe) * 3 * 65536, buf).status.ok());
  }
  ASSERT_TRUE(testing::Flush(e, pc).status.ok());
  const auto* raid = dynamic_cast<RaidNode*>(s.stack->Find("array"));
  ASSERT_NE(raid, nullptr);
  EXPECT_EQ(raid->array().counters().rcw_writes, 3u);
  EXPECT_EQ(raid->array().preread_gate().delayed_total(), 0u);
}

}  // namespace raid_preread_test
}  // namespace storlab
