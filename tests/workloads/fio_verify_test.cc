#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sim/node_faults.h"
#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/verify.h"

namespace storlab::fio {
namespace fio_verify_test {

using testing::LeAt;
using testing::RamStack;
using testing::RealVerifyBlock;
using testing::Split;

TEST(VerifyTest, Crc32cTestVector) {
  const char* s = "123456789";
  // The CRC-32C check value 0xe3069283, not inverted at the end, as fio's.
  EXPECT_EQ(Crc32c(reinterpret_cast<const uint8_t*>(s), 9), ~0xe3069283U);
}

// FillVerify over real fio's data bytes, with its header's seed, time,
// thread and numberio, gives real fio's block byte for byte; the check
// passes on it and names the block when a byte is off.
void CheckRealBlock(VerifyKind kind, const std::string& file, const char* name) {
  const std::vector<uint8_t> real = RealVerifyBlock(file);
  ASSERT_EQ(real.size(), 4096u) << file;
  EXPECT_EQ(LeAt(real, 2, 2), static_cast<uint16_t>(kind));
  VerifyBlock b;
  b.offset = 0;
  b.rand_seed = LeAt(real, 8, 8);
  b.time_ns = LeAt(real, 24, 4) * 1000000000 + LeAt(real, 28, 4);
  b.thread = static_cast<uint16_t>(LeAt(real, 32, 2));
  b.numberio = static_cast<uint16_t>(LeAt(real, 34, 2));
  std::vector<uint8_t> mine = real;
  std::memset(mine.data(), 0, 44);
  FillVerify(kind, {}, b, mine.data(), mine.size());
  EXPECT_EQ(mine, real) << file;
  EXPECT_EQ(CheckVerify(kind, {}, b, true, "f", real.data(), real.size()), "");
  mine[100] ^= 0x10;
  std::string msg = CheckVerify(kind, {}, b, true, "f", mine.data(), mine.size());
  EXPECT_EQ(msg.rfind(std::string(name) + ": verify failed at file f offset 0, length 4096 " +
                          "(requested block: offset=0, length=4096, flags=88)\n",
                      0),
            0u)
      << msg;
  EXPECT_NE(msg.find("       Expected CRC: "), std::string::npos) << msg;
  mine = real;
  mine[0] ^= 0xff;
  EXPECT_EQ(CheckVerify(kind, {}, b, false, "f", mine.data(), mine.size()),
            "verify: bad magic header ac35, wanted acca at file f offset 0, length 4096 "
            "(requested block: offset=0, length=4096)\n");
  b.offset = 4096;
  EXPECT_NE(CheckVerify(kind, {}, b, false, "f", real.data(), real.size())
                .find("verify: bad header offset 0, wanted 4096 at file f offset 4096"),
            std::string::npos);
  b.offset = 0;
  ++b.numberio;
  EXPECT_NE(CheckVerify(kind, {}, b, true, "f", real.data(), real.size())
                .find("verify: bad header numberio"),
            std::string::npos);
}

TEST(VerifyTest, Crc32cAsRealFioWritesIt) {
  CheckRealBlock(VerifyKind::kCrc32c, "crc32c_block0.bin", "crc32c");
}
TEST(VerifyTest, XxhashAsRealFioWritesIt) {
  CheckRealBlock(VerifyKind::kXxhash, "xxhash_block0.bin", "xxhash");
}

TEST(VerifyTest, PatternAndMeta) {
  auto p = ParseVerifyPattern("0xdeadbeef", "test");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, (std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xef}));
  std::vector<uint8_t> buf(512, 0);
  FillVerify(VerifyKind::kPattern, *p, {}, buf.data(), buf.size());
  EXPECT_EQ(buf[4], 0xde);
  EXPECT_EQ(buf[511], 0xef);
  EXPECT_EQ(CheckVerify(VerifyKind::kPattern, *p, {}, false, "f", buf.data(), buf.size()), "");
  buf[9] = 0xac;
  EXPECT_EQ(CheckVerify(VerifyKind::kPattern, *p, {}, false, "f", buf.data(), buf.size()),
            "fio: got pattern 'ac', wanted 'ad'. Bad bits 1\nfio: bad pattern block offset 9\n"
            "pattern: verify failed at file f offset 0, length 512 (requested block: offset=0, "
            "length=512, flags=8)\n");
  // meta: the header, the data not checked.
  FillVerify(VerifyKind::kMeta, {}, {}, buf.data(), buf.size());
  buf[300] ^= 1;
  EXPECT_EQ(CheckVerify(VerifyKind::kMeta, {}, {}, false, "f", buf.data(), buf.size()), "");
  buf[38] ^= 1;  // the header's crc
  EXPECT_NE(CheckVerify(VerifyKind::kMeta, {}, {}, false, "f", buf.data(), buf.size())
                .find("verify: bad header crc"),
            std::string::npos);
}

TEST(VerifyTest, BadPatterns) {
  EXPECT_EQ(*ParseVerifyPattern("\"ab\"", "t"), (std::vector<uint8_t>{'a', 'b'}));
  EXPECT_EQ(*ParseVerifyPattern("258", "t"), (std::vector<uint8_t>{2, 1}));
  // lib/pattern.c: an odd number of hex digits starts with a half byte, a
  // negative number is its int's four bytes (fio_pattern.h).
  EXPECT_EQ(*ParseVerifyPattern("0xabc", "t"), (std::vector<uint8_t>{0x0a, 0xbc}));
  EXPECT_EQ(*ParseVerifyPattern("-1", "t"), (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff}));
  for (const char* bad : {"0xzz", "", "\"\"", "pattern"}) {
    auto r = ParseVerifyPattern(bad, "job.fio:3");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("job.fio:3: verify_pattern="), std::string::npos)
        << r.status().message();
  }
}

// A run on a host that keeps data; `corrupt_at`: the disk's block at 4 KiB
// goes bad at that time (a NodeFaults corrupt, as --fault 'T: corrupt').
testing::Sim RunVerify(const std::string& args, Nanos corrupt_at = Nanos(-1)) {
  return testing::RunWithHost(RamStack("100us"), Split(args), /*keep_data=*/true,
                              [corrupt_at](SimHost& h) {
                                if (corrupt_at < Nanos(0)) return;
                                h.engine().At(h.engine().now() + corrupt_at,
                                              [&h] { h.device().faults().corrupt.insert(4096); });
                              });
}

TEST(VerifyRunTest, WritesThenReadsBackEveryBlock) {
  for (const char* v : {"crc32c", "crc32c-intel", "xxhash", "meta"}) {
    auto s = RunVerify(std::string("--name=w --rw=randwrite --bs=4k --size=256k --direct=1 "
                                   "--ioengine=libaio --iodepth=4 --verify=") +
                       v);
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    const ThreadStat& t = s.Job(0);
    EXPECT_EQ(t.error, 0) << v;
    EXPECT_EQ(t.dir[kWrite].total_ios, 64u) << v;
    EXPECT_EQ(t.dir[kRead].total_ios, 64u) << v;  // the verify pass
    EXPECT_EQ(t.dir[kRead].io_bytes, 256u * 1024) << v;
  }
  auto s = RunVerify("--name=w --rw=write --bs=4k --size=64k --verify=crc32c --do_verify=0");
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 0u);
}

TEST(VerifyRunTest, CorruptedBlockIsFiosVerifyError) {
  // 16 sequential writes of 100 us: block 1 is written at ~0.1 ms, goes bad
  // at 1 ms, is read back in the verify pass from 1.6 ms.
  // direct=1: buffered, the verify pass would read the page cache's copy.
  auto s = RunVerify("--name=w --rw=write --bs=4k --size=64k --direct=1 --verify=crc32c",
                     Nanos(1000000));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  const ThreadStat& t = s.Job(0);
  EXPECT_EQ(t.error, 84);  // EILSEQ, as real fio reports it
  EXPECT_NE(t.verror.find("func=io_u_sync_complete"), std::string::npos) << t.verror;
  EXPECT_EQ(t.dir[kRead].total_ios, 2u);  // stopped at the bad block
  const auto& m = s.run->runners()[0]->messages();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[0],
            "verify: bad magic header ac35, wanted acca at file w.0.0 offset 4096, length 4096 "
            "(requested block: offset=4096, length=4096)");
  EXPECT_EQ(s.JsonObject()["jobs"][0]["error"], 84);
  // The same job without the fault verifies clean.
  EXPECT_EQ(RunVerify("--name=w --rw=write --bs=4k --size=64k --verify=crc32c").Job(0).error, 0);
}

TEST(VerifyRunTest, ReadOnlyJobChecksWhatItReads) {
  // Nothing was written with a header: the first read fails, as fio's does
  // on a file it did not write with verify.
  auto s = RunVerify("--name=r --rw=read --bs=4k --size=64k --verify=crc32c");
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.Job(0).error, 84);
  EXPECT_EQ(s.run->runners()[0]->messages().at(0).rfind("verify: bad magic header 0,", 0), 0u);
}

TEST(VerifyRunTest, BadVerifyOptions) {
  auto s = RunVerify("--name=w --rw=write --size=64k --verify=pattern");
  EXPECT_NE(s.status.message().find("verify=pattern needs a verify_pattern"), std::string::npos)
      << s.status.message();
  s = RunVerify("--name=w --rw=write --size=64k --verify=md6");
  EXPECT_NE(s.status.message().find("'md6' is not one of"), std::string::npos)
      << s.status.message();
  s = RunVerify("--name=w --rw=write --size=64k --verify=crc32c --verify_pattern=0xq1");
  EXPECT_NE(s.status.message().find("verify_pattern='0xq1'"), std::string::npos)
      << s.status.message();
  // Without kept data there is nothing to check: a clear error.
  auto t = testing::RunArgs(RamStack(), Split("--name=w --rw=write --size=64k --verify=crc32c"));
  EXPECT_NE(t.status.message().find("verify= needs a host that keeps data"), std::string::npos)
      << t.status.message();
}

}  // namespace fio_verify_test
}  // namespace storlab::fio
