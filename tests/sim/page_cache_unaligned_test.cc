// Buffered I/O at any byte offset and length (fio --bs=3000 without
// O_DIRECT): the page cache reads partly covered pages, rewrites them, and
// writes whole pages back, as Linux does; O_DIRECT still needs alignment.
#include <gtest/gtest.h>

#include <cstring>

#include "sim/layers/page_cache/page_cache.h"
#include "tests/sim/page_cache_util.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace page_cache_unaligned_test {

using testing::IoResult;
using testing::Pattern;
using testing::PcIo;

struct Unaligned {
  Unaligned()
      : s(testing::MustLoadText(R"(
[node.pc]
type = "page_cache"
child = "disk"
mem = "64MiB"

[node.disk]
type = "ram"
capacity = "64MiB"
logical_block = 4096
)",
                                e)),
        pc(*s.stack->Find("pc")),
        disk(*s.stack->Find("disk")) {}
  IoResult Io(Node& n, Op op, uint64_t off, std::vector<uint8_t>& buf, uint32_t flags = 0) {
    return PcIo(e, n, op, off, buf.size(), buf.data(), flags, 1);
  }
  Engine e;
  LoadedStack s;
  Node& pc;
  Node& disk;
};

TEST(PageCacheUnalignedTest, WritesAndReadsAtAnyByteKeepTheData) {
  Unaligned f;
  // The device holds a pattern; 3000-byte writes land across page edges.
  std::vector<uint8_t> old = Pattern(64 * 1024, 1);
  ASSERT_TRUE(f.Io(f.disk, Op::kWrite, 0, old).status.ok());
  std::vector<uint8_t> expect = old;
  for (uint64_t off : {uint64_t{1000}, uint64_t{3000 * 5}, uint64_t{40000}}) {
    std::vector<uint8_t> w = Pattern(3000, off);
    ASSERT_TRUE(f.Io(f.pc, Op::kWrite, off, w).status.ok()) << off;
    std::memcpy(expect.data() + off, w.data(), w.size());
  }
  // Read back through the cache, unaligned too.
  std::vector<uint8_t> r(64 * 1024 - 7);
  ASSERT_TRUE(f.Io(f.pc, Op::kRead, 7, r).status.ok());
  EXPECT_TRUE(std::equal(r.begin(), r.end(), expect.begin() + 7));
  // fsync writes whole pages back: the device holds the merged data.
  ASSERT_TRUE(testing::DoIo(f.e, f.pc, Op::kFlush, 0, 0, nullptr, 0, 1).status.ok());
  std::vector<uint8_t> dev(64 * 1024);
  ASSERT_TRUE(f.Io(f.disk, Op::kRead, 0, dev).status.ok());
  size_t first_diff = 0;
  while (first_diff < dev.size() && dev[first_diff] == expect[first_diff]) ++first_diff;
  EXPECT_EQ(first_diff, dev.size()) << "the device differs from byte " << first_diff;
}

TEST(PageCacheUnalignedTest, DirectIoStillNeedsTheLogicalBlock) {
  Unaligned f;
  std::vector<uint8_t> w = Pattern(3000, 2);
  IoResult r = f.Io(f.pc, Op::kWrite, 0, w, kDirect);
  EXPECT_EQ(r.status.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(r.status.message().find("4096-byte logical block (O_DIRECT)"), std::string::npos)
      << r.status.message();
  // A trim passes to the device: it needs the block too.
  EXPECT_FALSE(testing::DoIo(f.e, f.pc, Op::kWriteZeroes, 100, 3000, nullptr, 0, 1).status.ok());
  // The device below takes no unaligned request at all.
  EXPECT_FALSE(f.Io(f.disk, Op::kWrite, 0, w).status.ok());
}

}  // namespace page_cache_unaligned_test
}  // namespace storlab
