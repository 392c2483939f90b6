// Holes (docs/sim.md "Holes"): never-written parts of a file read as zeros
// without device I/O, at the host CPU's cost; and fio 3.33's layout stopped
// by ENOSPC, whose file a later run on the same state reads over holes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/layers/host_cpu.h"
#include "tests/workloads/fio_test_util.h"
#include "tests/workloads/state_test_util.h"

namespace storlab::fio::testing {
namespace holes_test {

TEST(HolesTest, ZeroingCostsHalfACopy) {
  HostCpu copy(1, 4e9, 10e9), zero(1, 4e9, 10e9);
  // 1 MiB: a copy is core-bound at 4 GB/s (262 µs); a zeroing takes half.
  const Nanos c = copy.Copy(Nanos(), 1 << 20);
  const Nanos z = zero.Zero(Nanos(), 1 << 20);
  EXPECT_EQ(c, TransferTime(1 << 20, 4e9));
  EXPECT_EQ(z, TransferTime(1 << 20, 8e9));
  // Memory-bound (one core at 40 GB/s, a bus of 10 GB/s): half the traffic.
  HostCpu fast(1, 40e9, 10e9);
  EXPECT_EQ(fast.Zero(Nanos(), 1 << 20), TransferTime(1 << 19, 10e9));
}

const Node* Disk(const SimHost& host) {
  for (const auto& n : host.stack().nodes()) {
    if (n->name() == "disk") return n.get();
  }
  return nullptr;
}

HostOptions SmallRam() {
  HostOptions o;
  o.stack = "test.toml";
  o.stack_text = RamStack("10us", "8MiB");
  return o;
}

TEST(HolesTest, EnospcLayoutThenALaterRunReadsOverHoles) {
  TempDir tmp("storlab_holes");
  const std::string dir = tmp.path + "/state";
  const std::vector<std::string> job = {"--name=r",   "--ioengine=psync", "--rw=read",   "--bs=1m",
                                        "--size=16m", "--direct=1",       "--filename=f"};
  // 1: fio 3.33's ENOSPC during layout; the job fails before any I/O.
  StateRun r1 = RunWithState(SmallRam(), job, dir);
  ASSERT_TRUE(r1.save.ok()) << r1.save.ToString();
  const Sim& first = r1.sim;
  ASSERT_TRUE(first.status.ok()) << first.status.ToString();
  ASSERT_FALSE(first.run->Messages().empty());
  EXPECT_EQ(first.run->Messages()[0], "fio: ENOSPC on laying out file, stopping");
  EXPECT_EQ(first.Job(0).dir[kRead].total_ios, 0u);
  // 2: the file is at its full size (extend_file's ftruncate): no layout, no
  // error; 16 MiB read of which only what the layout wrote reaches the disk.
  StateRun r2 = RunWithState(SmallRam(), job, dir);
  ASSERT_TRUE(r2.restored);
  const Sim& second = r2.sim;
  ASSERT_TRUE(second.status.ok()) << second.status.ToString();
  EXPECT_TRUE(second.run->Messages().empty());
  EXPECT_EQ(second.Normal().find("Laying out"), std::string::npos);
  EXPECT_EQ(second.Job(0).error, 0);
  EXPECT_EQ(second.Job(0).dir[kRead].total_ios, 16u);
  const Node* disk = Disk(*second.host);
  ASSERT_NE(disk, nullptr);
  const uint64_t device = disk->stats().op(Op::kRead).bytes;
  EXPECT_GT(device, 0u);
  EXPECT_LE(device, uint64_t{8} << 20);
  // The holes are not free: a 1 MiB read of a hole takes the zeroing of
  // 1 MiB at the default host's per-core rate (4 GB/s, doubled); a read of
  // data, the RAM disk's 10 µs (each plus the I/O path's ~1 µs).
  const auto& clat = second.Job(0).dir[kRead].clat;
  const auto zeroing = static_cast<uint64_t>(TransferTime(1 << 20, 8e9).count());
  EXPECT_GE(clat.max(), zeroing);
  EXPECT_LT(clat.max(), zeroing + 5'000);
  EXPECT_LT(clat.min(), 20'000u);
}

TEST(HolesTest, BufferedHoleReadsCostMoreThanDirectOnes) {
  // A write job with fallocate=truncate leaves a 4 MiB file with 1 MiB
  // written; the stonewalled read job then reads 3 MiB of holes.
  auto run = [](bool direct) {
    return RunArgs(RamStack("10us", "64MiB"),
                   {"--name=w", "--ioengine=psync", "--rw=write", "--bs=1m", "--size=4m",
                    "--io_size=1m", "--fallocate=truncate", "--filename=f", "--direct=1",
                    "--name=r", "--stonewall", "--ioengine=psync", "--rw=read", "--bs=1m",
                    "--size=4m", "--filename=f", direct ? "--direct=1" : "--direct=0"});
  };
  Sim direct = run(true), buffered = run(false);
  ASSERT_TRUE(direct.status.ok()) << direct.status.ToString();
  ASSERT_TRUE(buffered.status.ok()) << buffered.status.ToString();
  ASSERT_EQ(direct.Job(1).dir[kRead].total_ios, 4u);
  ASSERT_EQ(buffered.Job(1).dir[kRead].total_ios, 4u);
  // Zeroing only vs zeroing the pages and copying them: 3× the CPU time.
  EXPECT_GT(buffered.Job(1).dir[kRead].clat.max(), direct.Job(1).dir[kRead].clat.max());
}

}  // namespace holes_test
}  // namespace storlab::fio::testing
