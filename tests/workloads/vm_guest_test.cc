// The vm node's guest side (issue 16 §1), through the fio interpreter: the
// job runs in the guest, so its buffered writes go to the guest's page
// cache (absorbed up to the guest's dirty limit), its O_DIRECT passes the
// guest's cache only (under cache=writeback the host's page cache still
// takes it), its threads run on the guest's vCPUs, and the bus's queue
// depth bounds what reaches the image.
#include <gtest/gtest.h>

#include "sim/layers/vm/vm_node.h"
#include "tests/workloads/fio_test_util.h"

namespace storlab::fio::testing {
namespace vm_guest_test {

// A 256 MiB guest (dirty_ratio 20 %: a limit of 51.2 MiB) on a virtual disk
// with a fixed cost, over a 1 GiB host page cache (cache=writeback) or
// straight over a 50 MB/s disk.
std::string Stack(const std::string& cache, const std::string& extra = "") {
  const bool host_cached = cache == "writeback";
  return "[node.vm]\ntype = \"vm\"\nchild = \"" + std::string(host_cached ? "host" : "disk") +
         "\"\ncache = \"" + cache + "\"\nguest_mem = \"256MiB\"\nlatency = \"20us\"\niops = 0\n" +
         extra +
         (host_cached ? "[node.host]\ntype = \"page_cache\"\nchild = \"disk\"\nmem = \"1GiB\"\n"
                      : "") +
         "[node.disk]\ntype = \"ram\"\ncapacity = \"1GiB\"\nlatency = \"1ms\"\n"
         "bandwidth = \"50MB/s\"\n";
}

const VmNode& Vm(const Sim& s) { return *NodeAs<VmNode>(&s.host->stack().root()); }

// Bytes and I/Os per second of job 0 in direction `d` (fio's runtime in ms).
double Bw(const Sim& s, int d) {
  const auto& x = s.Job(0).dir[d];
  return x.runtime_ms ? x.io_bytes * 1000.0 / x.runtime_ms : 1e18;
}
double Iops(const Sim& s, int d) {
  const auto& x = s.Job(0).dir[d];
  return x.runtime_ms ? x.total_ios * 1000.0 / x.runtime_ms : 1e18;
}

TEST(VmGuestTest, TheJobRunsInTheGuest) {
  Sim s = RunArgs(Stack("none", "vcpus = 2\n"),
                  {"--name=w", "--rw=write", "--bs=1M", "--size=4M", "--filename=f"});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.host->page_cache(), &Vm(s).guest());
  EXPECT_EQ(&s.host->device(), &Vm(s).vdisk());
  EXPECT_EQ(s.host->host().cores, 2u);
  EXPECT_EQ(s.host->host().mem_bytes, uint64_t{256} << 20);
}

TEST(VmGuestTest, BufferedWritesAreAbsorbedUpToTheGuestsDirtyLimit) {
  // 32 MiB: under the guest's free-run line ((25.6 + 51.2) / 2 MiB), all
  // at memory speed, nothing throttled.
  Sim small =
      RunArgs(Stack("none"), {"--name=w", "--rw=write", "--bs=1M", "--size=32M", "--filename=f"});
  ASSERT_TRUE(small.status.ok()) << small.status.message();
  const PageCache::Counters a = Vm(small).guest().counters();
  EXPECT_EQ(a.absorbed_bytes, uint64_t{32} << 20);
  EXPECT_EQ(a.throttled_writes, 0u);
  EXPECT_GT(Bw(small, kWrite), 1e9);
  // 256 MiB: past the limit the writer runs at the disk's 50 MB/s.
  Sim big =
      RunArgs(Stack("none"), {"--name=w", "--rw=write", "--bs=1M", "--size=256M", "--filename=f"});
  ASSERT_TRUE(big.status.ok()) << big.status.message();
  const PageCache& g = Vm(big).guest();
  EXPECT_GT(g.counters().throttled_writes, 0u);
  EXPECT_LE(g.dirty_bytes(), g.limits().limit);
  EXPECT_LT(Bw(big, kWrite), 80e6);
  EXPECT_GT(Bw(big, kWrite), 40e6);
}

TEST(VmGuestTest, GuestODirectBypassesOnlyTheGuestsCache) {
  const std::vector<std::string> job = {"--name=w",   "--rw=randwrite", "--bs=4k",     "--size=8M",
                                        "--direct=1", "--iodepth=1",    "--filename=f"};
  Sim wb = RunArgs(Stack("writeback"), job);
  ASSERT_TRUE(wb.status.ok()) << wb.status.message();
  EXPECT_EQ(Vm(wb).guest().counters().absorbed_bytes, 0u);
  const auto* host = NodeAs<PageCache>(wb.host->stack().Find("host"));
  EXPECT_EQ(host->counters().absorbed_bytes, uint64_t{8} << 20);
  Sim none = RunArgs(Stack("none"), job);
  ASSERT_TRUE(none.status.ok()) << none.status.message();
  EXPECT_EQ(Vm(none).guest().counters().absorbed_bytes, 0u);
  EXPECT_EQ(none.host->stack().Find("disk")->stats().op(Op::kWrite).bytes, uint64_t{8} << 20);
  // none waits for the disk (1 ms + 4 KiB at 50 MB/s) per write; writeback
  // for the virtual disk and the host's copy.
  EXPECT_LT(Bw(none, kWrite), 4096 / 1e-3);
  EXPECT_GT(Bw(wb, kWrite), 40 * Bw(none, kWrite));
}

TEST(VmGuestTest, TheBusBoundsTheQueueDepth) {
  const std::vector<std::string> job = {
      "--name=r",     "--rw=randread",     "--bs=4k",      "--size=16M",   "--direct=1",
      "--iodepth=32", "--ioengine=libaio", "--runtime=1s", "--time_based", "--filename=f"};
  Sim virtio = RunArgs(Stack("none"), job);
  Sim ide = RunArgs(Stack("none", "bus = \"ide\"\n"), job);
  ASSERT_TRUE(virtio.status.ok()) << virtio.status.message();
  ASSERT_TRUE(ide.status.ok()) << ide.status.message();
  EXPECT_GT(Vm(ide).vdisk().stats().op(Op::kRead).ops, 0u);
  // IDE: one command at a time, each 20 us + 1 ms + 4 KiB at 50 MB/s.
  EXPECT_GT(Iops(virtio, kRead), 10 * Iops(ide, kRead));
}

}  // namespace vm_guest_test
}  // namespace storlab::fio::testing
