// An ESXi VMDK on a block datastore (vmdk_blocks.h): a lazy-zeroed thick or
// thin VMDK zeroes each 1 MiB VMFS block with one WRITE SAME before the
// first guest write to it reaches the LUN, once per block, also when writes
// race for a fresh block; an eager-zeroed VMDK and an NFS datastore zero
// nothing; the zeroed blocks survive a power cut; `vmdk` is ESXi's key.
#include <gtest/gtest.h>

#include "sim/layers/vm/vm_node.h"
#include "sim/profile/loader.h"
#include "sim/virtual_driver.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace vm_vmdk_test {

using testing::Pattern;
constexpr uint64_t kMiB = uint64_t{1} << 20;

std::string EsxiText(const std::string& vmdk) {
  return "[node.vm]\ntype = \"vm\"\nchild = \"disk\"\nhypervisor = \"esxi\"\n" +
         (vmdk.empty() ? std::string() : "vmdk = \"" + vmdk + "\"\n") +
         "latency = \"20us\"\niops = 0\n"
         "[node.disk]\ntype = \"ram\"\ncapacity = \"64MiB\"\nlatency = \"100us\"\n";
}

const OpStats& Zeroes(LoadedStack& s) {
  return s.stack->Find("disk")->stats().op(Op::kWriteZeroes);
}

TEST(VmVmdkTest, LazyZeroedZeroesEachBlockOnceBeforeItsFirstWrite) {
  Engine e;
  auto s = testing::MustLoadText(EsxiText(""), e);  // vSphere's default: lazy-zeroed
  Node& vm = s.stack->root();
  auto a = Pattern(4096, 1);
  auto first = testing::Write(e, vm, 65536, a, kDirect);
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  EXPECT_EQ(Zeroes(s).ops, 1u);
  EXPECT_EQ(Zeroes(s).bytes, kMiB);  // the whole VMFS block
  auto b = Pattern(4096, 2);
  auto second = testing::Write(e, vm, 131072, b, kDirect);  // same block: zeroed already
  ASSERT_TRUE(second.status.ok());
  EXPECT_EQ(Zeroes(s).ops, 1u);
  // The first write waited for the zeroing (one more trip to the disk).
  EXPECT_GE(first.latency, second.latency + Nanos(100'000));
  // A write across a block boundary zeroes the one block it starts.
  auto c = Pattern(8192, 3);
  ASSERT_TRUE(testing::Write(e, vm, kMiB - 4096, c, kDirect).status.ok());
  EXPECT_EQ(Zeroes(s).ops, 2u);
  const VirtualDisk& vdisk = NodeAs<VmNode>(&vm)->vdisk();
  ASSERT_NE(vdisk.vmdk_blocks(), nullptr);
  EXPECT_EQ(vdisk.vmdk_blocks()->blocks_zeroed(), 2u);
  // The zeroing went before the write: the data is the guest's.
  const std::vector<std::pair<uint64_t, std::vector<uint8_t>*>> written = {
      {65536, &a}, {131072, &b}, {kMiB - 4096, &c}};
  for (auto [off, want] : written) {
    std::vector<uint8_t> back(want->size());
    ASSERT_TRUE(testing::Read(e, vm, off, back).status.ok());
    EXPECT_EQ(back, *want) << off;
  }
}

TEST(VmVmdkTest, WritesRacingForAFreshBlockShareOneZeroing) {
  Engine e;
  auto s = testing::MustLoadText(EsxiText("thin"), e);
  Node& vm = s.stack->root();
  auto a = Pattern(4096, 4);
  auto b = Pattern(4096, 5);
  int done = 0;
  const std::vector<std::pair<uint64_t, std::vector<uint8_t>*>> writes = {{3 * kMiB, &a},
                                                                          {3 * kMiB + 8192, &b}};
  for (auto [off, buf] : writes) {
    vm.Submit(Request{.op = Op::kWrite,
                      .flags = kDirect,
                      .offset = off,
                      .length = buf->size(),
                      .data = buf->data(),
                      .done = [&done](Status st) {
                        EXPECT_TRUE(st.ok());
                        ++done;
                      }});
  }
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(done, 2);
  EXPECT_EQ(Zeroes(s).ops, 1u);
  EXPECT_EQ(NodeAs<VmNode>(&vm)->vdisk().vmdk_blocks()->waits(), 2u);
  for (auto [off, want] : writes) {
    std::vector<uint8_t> back(4096);
    ASSERT_TRUE(testing::Read(e, vm, off, back).status.ok());
    EXPECT_EQ(back, *want) << off;
  }
}

TEST(VmVmdkTest, EagerZeroedAndNfsZeroNothing) {
  Engine e;
  auto s = testing::MustLoadText(EsxiText("eager-zeroed"), e);
  auto w = Pattern(4096, 6);
  ASSERT_TRUE(testing::Write(e, s.stack->root(), 0, w, kDirect).status.ok());
  EXPECT_EQ(Zeroes(s).ops, 0u);
  EXPECT_EQ(NodeAs<VmNode>(&s.stack->root())->vdisk().vmdk_blocks(), nullptr);

  Engine e2;
  auto nfs = testing::MustLoadText(
      "[node.vm]\ntype = \"vm\"\nchild = \"nfs\"\nhypervisor = \"esxi\"\nvmdk = \"thin\"\n"
      "[node.nfs]\ntype = \"nfs\"\nchild = \"disk\"\n"
      "[node.disk]\ntype = \"ram\"\ncapacity = \"64MiB\"\n",
      e2);
  ASSERT_TRUE(testing::Write(e2, nfs.stack->root(), 0, w, kDirect).status.ok());
  EXPECT_EQ(nfs.stack->Find("nfs")->stats().op(Op::kWriteZeroes).ops, 0u);
  EXPECT_EQ(nfs.stack->Find("nfs")->stats().op(Op::kWrite).ops, 1u);
}

TEST(VmVmdkTest, ZeroedBlocksSurviveAPowerCut) {
  Engine e;
  auto s = testing::MustLoadText(EsxiText("lazy-zeroed"), e);
  auto w = Pattern(4096, 7);
  ASSERT_TRUE(testing::Write(e, s.stack->root(), 0, w, kDirect).status.ok());
  s.stack->PowerCut();
  ASSERT_TRUE(testing::Write(e, s.stack->root(), 4096, w, kDirect).status.ok());
  EXPECT_EQ(Zeroes(s).ops, 1u);  // VMFS metadata: the block stays zeroed
}

TEST(VmVmdkTest, VmdkIsAnEsxiKey) {
  Engine e;
  auto s = LoadStackText(
      "[node.vm]\ntype = \"vm\"\nchild = \"disk\"\nvmdk = \"thin\"\ncache = \"none\"\n"
      "[node.disk]\ntype = \"ram\"\ncapacity = \"64MiB\"\n",
      "qemu.toml", ".", e, BuildOptions{});
  ASSERT_FALSE(s.ok());
  const std::string msg(s.status().message());
  EXPECT_NE(msg.find("vmdk"), std::string::npos) << msg;
  EXPECT_NE(msg.find("qemu.toml"), std::string::npos) << msg;
}

}  // namespace vm_vmdk_test
}  // namespace storlab
