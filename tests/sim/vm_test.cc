// The vm layer's host cache modes (qemu-options.hx -drive cache=): a
// guest's O_DIRECT write under cache=none reaches the disk before it is
// acknowledged, under writeback it lands in the host page cache; writethrough
// follows each write with a flush; unsafe drops flushes and says so; a bad
// mode is an error naming the key and the file.
#include <gtest/gtest.h>

#include "sim/layers/vm/vm_node.h"
#include "sim/profile/loader.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace vm_test {

using testing::Pattern;

std::string VmText(const std::string& cache) {
  return "[node.vm]\ntype = \"vm\"\nchild = \"pc\"\ncache = \"" + cache +
         "\"\nlatency = \"20us\"\niops = 0\n"
         "[node.pc]\ntype = \"page_cache\"\nchild = \"disk\"\nmem = \"256MiB\"\n"
         "[node.disk]\ntype = \"ram\"\ncapacity = \"64MiB\"\nlatency = \"5ms\"\n";
}

struct Outcome {
  Nanos write_latency;
  uint64_t disk_writes;
  uint64_t disk_flushes;
};

Outcome OneWrite(const std::string& cache) {
  Engine e;
  auto s = testing::MustLoadText(VmText(cache), e);
  auto w = Pattern(4096, 1);
  // The guest's O_DIRECT (kDirect) must not reach the host's page cache.
  auto r = testing::Write(e, s.stack->root(), 8192, w, kDirect);
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  Node& disk = *s.stack->Find("disk");
  return Outcome{r.latency, disk.stats().op(Op::kWrite).ops, disk.stats().op(Op::kFlush).ops};
}

TEST(VmTest, NoneSendsTheWriteToTheDiskWritebackToThePageCache) {
  const Outcome none = OneWrite("none");
  EXPECT_EQ(none.disk_writes, 1u);
  EXPECT_GE(none.write_latency, Nanos(5'000'000 + 20'000));
  const Outcome wb = OneWrite("writeback");
  EXPECT_EQ(wb.disk_writes, 0u);  // still dirty in the host's page cache
  EXPECT_LT(wb.write_latency, Nanos(1'000'000));
}

TEST(VmTest, WritethroughAndDirectsyncFlushAfterEveryWrite) {
  for (const char* mode : {"writethrough", "directsync"}) {
    const Outcome r = OneWrite(mode);
    EXPECT_EQ(r.disk_writes, 1u) << mode;
    EXPECT_EQ(r.disk_flushes, 1u) << mode;
  }
}

TEST(VmTest, UnsafeDropsFlushesAndDeclaresIt) {
  Engine e;
  auto s = testing::MustLoadText(VmText("unsafe"), e);
  Node& vm = s.stack->root();
  EXPECT_FALSE(vm.caps().honors_flush);
  auto w = Pattern(4096, 1);
  ASSERT_TRUE(testing::Write(e, vm, 0, w).status.ok());
  ASSERT_TRUE(testing::Flush(e, vm).status.ok());
  EXPECT_EQ(s.stack->Find("disk")->stats().op(Op::kWrite).ops, 0u);
  for (const char* mode : {"none", "writeback", "writethrough"}) {
    Engine e2;
    auto s2 = testing::MustLoadText(VmText(mode), e2);
    EXPECT_TRUE(s2.stack->root().caps().honors_flush) << mode;
  }
}

// A host crash after the guest's flush: the write survives unless the mode
// drops flushes (unsafe).
bool SurvivesHostCrash(const std::string& cache) {
  Engine e;
  auto s = testing::MustLoadText(VmText(cache), e);
  Node& vm = s.stack->root();
  auto w = Pattern(4096, 7);
  EXPECT_TRUE(testing::Write(e, vm, 4096, w).status.ok());
  EXPECT_TRUE(testing::Flush(e, vm).status.ok());
  s.stack->PowerCut();
  std::vector<uint8_t> back(4096);
  EXPECT_TRUE(testing::Read(e, vm, 4096, back).status.ok());
  return back == w;
}

TEST(VmTest, AHostCrashLosesFlushedWritesOnlyUnderUnsafe) {
  for (const char* mode : {"none", "writeback", "writethrough", "directsync"}) {
    EXPECT_TRUE(SurvivesHostCrash(mode)) << mode;
  }
  EXPECT_FALSE(SurvivesHostCrash("unsafe"));
}

TEST(VmTest, HostCachedModeNeedsAPageCacheChild) {
  Engine e;
  const std::string text =
      "[node.vm]\ntype = \"vm\"\nchild = \"disk\"\ncache = \"writeback\"\n"
      "[node.disk]\ntype = \"ram\"\ncapacity = \"64MiB\"\n";
  auto s = LoadStackText(text, "vm.toml", ".", e, BuildOptions{});
  ASSERT_FALSE(s.ok());
  const std::string msg(s.status().message());
  EXPECT_NE(msg.find("vm.toml"), std::string::npos) << msg;
  EXPECT_NE(msg.find("page_cache"), std::string::npos) << msg;
}

TEST(VmTest, UnknownCacheModeNamesKeyAndFile) {
  Engine e;
  auto s = LoadStackText(VmText("bogus"), "vm.toml", ".", e, BuildOptions{});
  ASSERT_FALSE(s.ok());
  const std::string msg(s.status().message());
  EXPECT_NE(msg.find("vm.toml"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cache"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bogus"), std::string::npos) << msg;
}

}  // namespace vm_test
}  // namespace storlab
