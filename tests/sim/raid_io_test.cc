// The raid layer's request paths: member I/O counts, real parity, read
// balancing, flush, FUA, trim and write-zeroes. Failed members:
// raid_degraded_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "tests/sim/raid_test_util.h"

namespace storlab {
namespace raid_io_test {

using testing::DoIo;
using testing::Fill;
using testing::MakeRaidRig;
using testing::MemberOps;
using testing::Pattern;
using testing::RaidRig;
using testing::RaidSpec;
using testing::ReadAll;
using testing::Spec;
using testing::WithKeys;

// Writes `w` at `off` and expects md's read-modify-write: exactly one read
// and one write on each member in `touched` (old data and parity), none on
// the others; the data reads back and the parity is consistent.
void ExpectReadModifyWrite(Engine& e, RaidRig& r, uint64_t off, std::vector<uint8_t>& w,
                           const std::vector<int>& touched) {
  ASSERT_TRUE(testing::Write(e, *r.raid, off, w).status.ok());
  EXPECT_EQ(MemberOps(r, Op::kRead), touched.size());
  EXPECT_EQ(MemberOps(r, Op::kWrite), touched.size());
  EXPECT_EQ(r.raid->array().counters().rmw_writes, 1u);
  for (int m = 0; m < static_cast<int>(r.disks.size()); ++m) {
    const bool hit = std::find(touched.begin(), touched.end(), m) != touched.end();
    EXPECT_EQ(r.disks[m]->stats().op(Op::kRead).ops, hit ? 1u : 0u) << m;
    EXPECT_EQ(r.disks[m]->stats().op(Op::kWrite).ops, hit ? 1u : 0u) << m;
  }
  std::vector<uint8_t> back(w.size());
  ASSERT_TRUE(testing::Read(e, *r.raid, off, back).status.ok());
  EXPECT_EQ(back, w);
  EXPECT_EQ(testing::Inconsistencies(r), 0);
}

TEST(RaidIoTest, Raid5SmallRandomWriteIsFourMemberIos) {
  // Five members: read-modify-write (old data + P) is cheaper than
  // reconstruct-write (three other data chunks).
  Engine e;
  auto r = MakeRaidRig(e, Spec(5, 5));
  Fill(e, r, 1);
  testing::ResetMemberStats(r);
  auto w = Pattern(4096, 2);
  const uint64_t off = 3 * 65536 * 4 + 65536 + 8192;  // stripe 3, chunk 1
  // The reads were the old data and the parity of that stripe.
  const RaidLayout& l = r.raid->layout();
  ExpectReadModifyWrite(e, r, off, w, {l.DataMember(3, 1), l.PMember(3)});
}

TEST(RaidIoTest, Raid6SmallRandomWriteIsSixMemberIos) {
  // Seven members (five data): read-modify-write reads the old data, P and
  // Q (three) instead of the four other data chunks, then writes all three
  // (md raid6 read-modify-write, Linux >= 4.1).
  Engine e;
  auto r = MakeRaidRig(e, Spec(6, 7));
  Fill(e, r, 1);
  testing::ResetMemberStats(r);
  auto w = Pattern(4096, 2);
  const uint64_t off = 2 * 65536 * 5 + 3 * 65536 + 4096;  // stripe 2, chunk 3
  const RaidLayout& l = r.raid->layout();
  ExpectReadModifyWrite(e, r, off, w, {l.DataMember(2, 3), l.PMember(2), l.QMember(2)});
}

TEST(RaidIoTest, SmallRandomWritesCostFourAndSixMemberIosEach) {
  // Many 4 KiB writes at random chunk-aligned offsets, one at a time: each
  // costs exactly 2 reads + 2 writes on RAID5 and 3 + 3 on RAID6, whichever
  // way md computes parity (a six-member RAID6 ties and reconstructs).
  for (const auto& [level, members, per_write] :
       {std::tuple{5, 5, 4u}, std::tuple{5, 4, 4u}, std::tuple{6, 6, 6u}, std::tuple{6, 7, 6u}}) {
    Engine e;
    auto r = MakeRaidRig(e, Spec(level, members));
    Fill(e, r, 1);
    testing::ResetMemberStats(r);
    Random rng(7);
    const uint64_t pages = r.raid->geometry().capacity / 4096;
    constexpr uint32_t kWrites = 200;
    for (uint32_t i = 0; i < kWrites; ++i) {
      auto w = Pattern(4096, 10 + i);
      ASSERT_TRUE(testing::Write(e, *r.raid, rng.Uniform(pages) * 4096, w).status.ok());
    }
    EXPECT_EQ(MemberOps(r, Op::kRead) + MemberOps(r, Op::kWrite), kWrites * per_write)
        << "raid" << level << " of " << members;
    EXPECT_EQ(MemberOps(r, Op::kRead), MemberOps(r, Op::kWrite));
    EXPECT_EQ(testing::Inconsistencies(r), 0);
  }
}

TEST(RaidIoTest, Raid5FourMembersTieGoesToReconstructWrite) {
  // Four members: both ways read two chunks; md's default rmw_level 1 picks
  // reconstruct-write on a tie. Still 2 reads + 2 writes.
  Engine e;
  auto r = MakeRaidRig(e, Spec(5, 4));
  Fill(e, r, 1);
  testing::ResetMemberStats(r);
  auto w = Pattern(4096, 3);
  ASSERT_TRUE(testing::Write(e, *r.raid, 4096, w).status.ok());
  EXPECT_EQ(MemberOps(r, Op::kRead), 2u);
  EXPECT_EQ(MemberOps(r, Op::kWrite), 2u);
  EXPECT_EQ(r.raid->array().counters().rcw_writes, 1u);
  EXPECT_EQ(r.raid->array().counters().rmw_writes, 0u);
  EXPECT_EQ(testing::Inconsistencies(r), 0);
}

TEST(RaidIoTest, RmwLevelTwoPrefersReadModifyWriteOnTies) {
  Engine e;
  auto r = MakeRaidRig(e, WithKeys(Spec(5, 4), "rmw_level = 2\n"));
  Fill(e, r, 1);
  testing::ResetMemberStats(r);
  auto w = Pattern(4096, 3);
  ASSERT_TRUE(testing::Write(e, *r.raid, 4096, w).status.ok());
  EXPECT_EQ(r.raid->array().counters().rmw_writes, 1u);
  EXPECT_EQ(MemberOps(r, Op::kRead) + MemberOps(r, Op::kWrite), 4u);
  EXPECT_EQ(testing::Inconsistencies(r), 0);
}

TEST(RaidIoTest, FullStripeWriteReadsNothing) {
  for (int level : {5, 6}) {
    Engine e;
    auto r = MakeRaidRig(e, Spec(level, 6));
    const uint64_t stripe = r.raid->layout().stripe_bytes();
    auto w = Pattern(2 * stripe, 4);
    ASSERT_TRUE(testing::Write(e, *r.raid, stripe, w).status.ok());
    EXPECT_EQ(MemberOps(r, Op::kRead), 0u) << "raid" << level;
    // One merged write per member: two consecutive stripes are contiguous.
    EXPECT_EQ(MemberOps(r, Op::kWrite), 6u) << "raid" << level;
    EXPECT_EQ(r.raid->array().counters().full_stripe_writes, 2u);
    EXPECT_EQ(testing::Inconsistencies(r), 0) << "raid" << level;
  }
}

TEST(RaidIoTest, SubPageWriteReadsAndWritesWholePages) {
  // A 512-byte write still costs page-sized member I/O (md's stripe unit).
  Engine e;
  auto r = MakeRaidRig(e, Spec(5, 5));
  Fill(e, r, 1);
  testing::ResetMemberStats(r);
  auto w = Pattern(512, 5);
  ASSERT_TRUE(testing::Write(e, *r.raid, 65536 + 1024, w).status.ok());
  EXPECT_EQ(MemberOps(r, Op::kRead), 2u);
  for (RamDisk* d : r.disks) {
    if (d->stats().op(Op::kWrite).ops) {
      EXPECT_EQ(d->stats().op(Op::kWrite).bytes, 4096u);
    }
  }
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(testing::Read(e, *r.raid, 65536, back).status.ok());
  EXPECT_TRUE(std::equal(w.begin(), w.end(), back.begin() + 1024));
  EXPECT_EQ(testing::Inconsistencies(r), 0);
}

TEST(RaidIoTest, RandomWritesKeepDataAndParity) {
  for (int level : {0, 1, 5, 6, 10}) {
    Engine e;
    auto r = MakeRaidRig(e, Spec(level, level == 1 ? 3 : 5, "16KiB"));
    const uint64_t cap = r.raid->geometry().capacity;
    std::vector<uint8_t> model(cap, 0);
    Random rng(level);
    for (int i = 0; i < 200; ++i) {
      const uint64_t len = 512 * (1 + rng.Uniform(200));
      const uint64_t off = rng.Uniform((cap - len) / 512) * 512;
      auto w = Pattern(len, 1000 + i);
      ASSERT_TRUE(testing::Write(e, *r.raid, off, w).status.ok());
      std::copy(w.begin(), w.end(), model.begin() + off);
    }
    EXPECT_EQ(ReadAll(e, *r.raid), model) << "raid" << level;
    if (level != 0) {
      EXPECT_EQ(testing::Inconsistencies(r), 0) << "raid" << level;
    }
  }
}

TEST(RaidIoTest, ConcurrentOverlappingWritesKeepParity) {
  Engine e;
  auto r = MakeRaidRig(
      e, WithKeys(Spec(6, 5, "16KiB"), "", "latency = \"30us\"\nbandwidth = \"300MB/s\"\n"));
  std::vector<std::vector<uint8_t>> bufs;
  Random rng(3);
  int done = 0;
  for (int i = 0; i < 64; ++i) bufs.push_back(Pattern(4096 * (1 + rng.Uniform(8)), i));
  for (int i = 0; i < 64; ++i) {
    Request q{.op = Op::kWrite,
              .offset = rng.Uniform(64) * 4096,
              .length = bufs[i].size(),
              .data = bufs[i].data(),
              .done = [&](Status st) {
                EXPECT_TRUE(st.ok());
                ++done;
              }};
    r.raid->Submit(std::move(q));
  }
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(done, 64);
  EXPECT_EQ(testing::Inconsistencies(r), 0);
}

// Issues `count` reads of `len` at QD `depth`, sequential or random.
void ReadLoad(Engine& e, Node& n, int count, int depth, bool sequential, uint64_t len) {
  Random rng(8);
  std::vector<std::vector<uint8_t>> bufs(depth, std::vector<uint8_t>(len));
  int issued = 0;
  uint64_t next = 0;
  std::function<void(int)> issue = [&](int slot) {
    if (issued >= count) return;
    ++issued;
    const uint64_t off = sequential ? next : rng.Uniform(n.geometry().capacity / len) * len;
    next += len;
    Request q{.op = Op::kRead,
              .offset = off,
              .length = len,
              .data = bufs[slot].data(),
              .done = [&, slot](Status st) {
                EXPECT_TRUE(st.ok());
                issue(slot);
              }};
    n.Submit(std::move(q));
  };
  for (int s = 0; s < depth; ++s) issue(s);
  VirtualDriver(e).RunUntilIdle();
}

TEST(RaidIoTest, Raid1ReadBalancing) {
  const std::string slow = "latency = \"100us\"\n";
  {
    // A sequential stream stays on one disk (md: head position).
    Engine e;
    auto r = MakeRaidRig(e, WithKeys(Spec(1, 2), "", slow));
    ReadLoad(e, *r.raid, 64, 1, true, 65536);
    EXPECT_EQ(r.disks[0]->stats().op(Op::kRead).ops + r.disks[1]->stats().op(Op::kRead).ops, 64u);
    EXPECT_TRUE(r.disks[0]->stats().op(Op::kRead).ops == 64 ||
                r.disks[1]->stats().op(Op::kRead).ops == 64);
  }
  {
    // Random reads at depth 8 on solid-state members: the least busy copy.
    Engine e;
    auto r = MakeRaidRig(e, WithKeys(Spec(1, 2), "", slow));
    ReadLoad(e, *r.raid, 400, 8, false, 4096);
    EXPECT_EQ(r.disks[0]->stats().op(Op::kRead).ops, 200u);
    EXPECT_EQ(r.disks[1]->stats().op(Op::kRead).ops, 200u);
  }
  {
    // RAID10 spreads random reads over all four members.
    Engine e;
    auto r = MakeRaidRig(e, WithKeys(Spec(10, 4), "", slow));
    ReadLoad(e, *r.raid, 400, 8, false, 4096);
    for (int m = 0; m < 4; ++m) EXPECT_GT(r.disks[m]->stats().op(Op::kRead).ops, 60u) << m;
    EXPECT_EQ(MemberOps(r, Op::kRead), 400u);
  }
}

TEST(RaidIoTest, FlushReachesEveryMember) {
  Engine e;
  auto r = MakeRaidRig(e, Spec(6, 5));
  ASSERT_TRUE(testing::Flush(e, *r.raid).status.ok());
  EXPECT_EQ(MemberOps(r, Op::kFlush), 5u);
  ASSERT_TRUE(r.raid->FailMember(4).ok());
  ASSERT_TRUE(testing::Flush(e, *r.raid).status.ok());
  EXPECT_EQ(MemberOps(r, Op::kFlush), 9u);
}

// A pass-through node that records the flags of the writes it sees and
// can pretend its FLUSH / FUA are not honoured.
class Recorder : public NodeWrapper {
 public:
  Recorder(Engine& e, std::string name, Node& child, bool honors_fua)
      : NodeWrapper(e, std::move(name), child) {
    caps_.honors_fua = honors_fua;
    caps_.volatile_cache = true;
  }
  std::string_view type() const override { return "recorder"; }
  std::vector<uint32_t> write_flags;

 protected:
  void DoSubmit(Request req) override {
    if (req.op == Op::kWrite) write_flags.push_back(req.flags);
    NodeWrapper::DoSubmit(std::move(req));
  }
};

TEST(RaidIoTest, FuaReachesTheMemberWritesAndCapabilitiesCombine) {
  Engine e;
  std::vector<std::unique_ptr<RamDisk>> disks;
  std::vector<std::unique_ptr<Recorder>> rec;
  std::vector<Node*> members;
  for (int i = 0; i < 4; ++i) {
    RamDisk::Config c;
    c.capacity = 4 << 20;
    disks.push_back(std::make_unique<RamDisk>(e, "d" + std::to_string(i), c,
                                              MakeStore(DataMode{}, "d", c.capacity).value()));
    rec.push_back(std::make_unique<Recorder>(e, "r" + std::to_string(i), *disks.back(), i != 2));
    members.push_back(rec.back().get());
  }
  RaidNode::Config rc;
  rc.chunk = 65536;
  RaidNode raid(e, "md0", rc, members, true);
  EXPECT_TRUE(raid.caps().honors_flush);
  EXPECT_FALSE(raid.caps().honors_fua);  // one member drops FUA
  EXPECT_TRUE(raid.caps().volatile_cache);
  EXPECT_TRUE(raid.caps().trim);
  EXPECT_EQ(raid.geometry().capacity, 3u * (4 << 20));
  auto w = Pattern(4096, 1);
  ASSERT_TRUE(testing::Write(e, raid, 0, w, kFua).status.ok());
  int fua_writes = 0;
  for (auto& r : rec)
    for (uint32_t f : r->write_flags) fua_writes += (f & kFua) != 0;
  EXPECT_EQ(fua_writes, 2);  // the data chunk and the parity
}

TEST(RaidIoTest, TrimWholeStripesAndWriteZeroes) {
  Engine e;
  auto r = MakeRaidRig(e, Spec(5, 4));
  auto data = Fill(e, r, 13);
  const uint64_t sb = r.raid->layout().stripe_bytes();
  // Trim stripe 1 and half of stripe 2: only stripe 1 is discarded.
  ASSERT_TRUE(DoIo(e, *r.raid, Op::kTrim, sb, sb + sb / 2, nullptr).status.ok());
  EXPECT_EQ(MemberOps(r, Op::kTrim), 4u);
  std::fill(data.begin() + sb, data.begin() + 2 * sb, 0);
  EXPECT_EQ(ReadAll(e, *r.raid), data);
  EXPECT_EQ(testing::Inconsistencies(r), 0);
  ASSERT_TRUE(DoIo(e, *r.raid, Op::kWriteZeroes, 1024, 70000 - 70000 % 512, nullptr).status.ok());
  std::fill(data.begin() + 1024, data.begin() + 1024 + 70000 - 70000 % 512, 0);
  EXPECT_EQ(ReadAll(e, *r.raid), data);
  EXPECT_EQ(testing::Inconsistencies(r), 0);
}

TEST(RaidIoTest, TimingOnlyRunsCountTheSameMemberIos) {
  std::map<int, uint64_t> ops;
  for (auto kind : {DataMode::Kind::kRam, DataMode::Kind::kNone}) {
    Engine e;
    auto r = MakeRaidRig(e, Spec(6, 6), kind);
    Random rng(4);
    for (int i = 0; i < 50; ++i) {
      ASSERT_TRUE(DoIo(e, *r.raid, i % 3 ? Op::kWrite : Op::kRead, rng.Uniform(1000) * 4096,
                       4096 * (1 + rng.Uniform(40)), nullptr)
                      .status.ok());
    }
    ops[static_cast<int>(kind)] = MemberOps(r, Op::kRead) * 1000 + MemberOps(r, Op::kWrite);
  }
  EXPECT_EQ(ops[static_cast<int>(DataMode::Kind::kRam)],
            ops[static_cast<int>(DataMode::Kind::kNone)]);
}

}  // namespace raid_io_test
}  // namespace storlab
