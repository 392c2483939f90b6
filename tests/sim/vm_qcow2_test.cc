// Issue 16's acceptance test for qcow2 (README "Benchmarks inside a VM"):
// the same guest 4 KiB random-write job (O_DIRECT in the guest: the vm
// node decides what the host does) on a qcow2 image over an HDD RAID5,
// under cache=none and cache=writeback. Writeback runs at the host's RAM
// speed until the host's dirty limit, then at the disks'; a host power cut
// after the guest's fsync loses the data only under cache=unsafe.
#include <gtest/gtest.h>

#include "sim/layers/vm/qcow2_node.h"
#include "tests/sim/test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace vm_qcow2_test {

using testing::Pattern;

// A 512 MiB host (dirty_ratio 20 %: ~100 MiB of dirty pages) over md RAID5
// of four 7200 rpm HDDs, a 4 GiB qcow2 image with qemu-img's defaults.
std::string Stack(const std::string& cache) {
  return "[node.vm]\ntype = \"vm\"\nchild = \"img\"\ncache = \"" + cache +
         "\"\n"
         "[node.img]\ntype = \"qcow2\"\nchild = \"host\"\nsize = \"4GiB\"\n"
         "[node.host]\ntype = \"page_cache\"\nchild = \"array\"\nmem = \"512MiB\"\n"
         "[node.array]\ntype = \"raid\"\nlevel = 5\nchunk = \"512KiB\"\nchildren = [\"disk\"]\n"
         "[node.disk]\nuse = \"hdd-7200\"\ncount = 4\n";
}

struct Phases {
  double early_iops;  // the first 1000 writes: ~64 MB of new clusters, under the dirty limit
  double late_iops;   // the next 8 s of simulated time
  uint64_t allocated;
};

Phases RandomWrites(const std::string& cache) {
  Engine e;
  auto s = testing::MustLoadText(Stack(cache), e);
  ProbeSpec spec{.op = Op::kWrite, .queue_depth = 32, .span = uint64_t{2} << 30, .direct = true};
  // First, a few writes allocate the four L2 tables of the span
  // (l2_allocate: three synchronous writes, each flushed to the disks).
  spec.max_ios = 100;
  spec.seed = 3;
  const ProbeResult warm = RunProbe(e, s.stack->root(), spec, s.stack.get());
  EXPECT_TRUE(warm.status.ok()) << warm.status.message();
  EXPECT_EQ(NodeAs<Qcow2Node>(s.stack->Find("img"))->counters().l2_tables_allocated, 4u);
  spec.max_ios = 1000;
  spec.seed = 1;
  const ProbeResult early = RunProbe(e, s.stack->root(), spec, s.stack.get());
  EXPECT_TRUE(early.status.ok()) << early.status.message();
  spec.max_ios = 0;
  spec.duration = Nanos(8'000'000'000);
  spec.seed = 2;
  const ProbeResult late = RunProbe(e, s.stack->root(), spec, s.stack.get());
  EXPECT_TRUE(late.status.ok()) << late.status.message();
  return Phases{early.iops, late.iops,
                NodeAs<Qcow2Node>(s.stack->Find("img"))->counters().allocated_clusters};
}

TEST(VmQcow2Test, WritebackIsFarFasterThanNoneUntilTheHostsDirtyLimit) {
  const Phases none = RandomWrites("none");
  const Phases wb = RandomWrites("writeback");
  // Both allocated clusters on first write (4 KiB into 64 KiB clusters).
  EXPECT_GT(none.allocated, 1000u);
  EXPECT_GT(wb.allocated, 1000u);
  // Under the dirty limit writeback runs at the host's RAM speed (the
  // virtqueue's 125k ceiling), none at the RAID's.
  EXPECT_GT(wb.early_iops, 50'000);
  EXPECT_LT(none.early_iops, 10'000);
  EXPECT_GT(wb.early_iops, 20 * none.early_iops);
  // Past the dirty limit writeback is throttled to the disks' pace.
  EXPECT_LT(wb.late_iops, wb.early_iops / 10);
  EXPECT_LT(wb.late_iops, 10 * none.late_iops);
}

// The guest writes 4 KiB into a new cluster and fsyncs; the host loses power.
bool GuestFsyncSurvivesHostCrash(const std::string& cache) {
  Engine e;
  auto s = testing::MustLoadText(Stack(cache), e);
  Node& vm = s.stack->root();
  auto w = Pattern(4096, 11);
  EXPECT_TRUE(testing::Write(e, vm, 7 << 20, w, kDirect).status.ok());
  EXPECT_TRUE(testing::Flush(e, vm).status.ok());
  s.stack->PowerCut();
  std::vector<uint8_t> back(4096);
  EXPECT_TRUE(testing::Read(e, vm, 7 << 20, back).status.ok());
  return back == w;
}

TEST(VmQcow2Test, AHostPowerCutLosesWhatTheGuestFsyncedOnlyUnderUnsafe) {
  for (const char* mode : {"none", "writeback", "writethrough", "directsync"}) {
    EXPECT_TRUE(GuestFsyncSurvivesHostCrash(mode)) << mode;
  }
  EXPECT_FALSE(GuestFsyncSurvivesHostCrash("unsafe"));
}

}  // namespace vm_qcow2_test
}  // namespace storlab
