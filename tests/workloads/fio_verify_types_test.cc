// verify= with every checksum type of fio 3.33 (verify_sums.h): the blocks
// real fio writes, byte for byte, and write+verify jobs on a healthy and
// on a corrupting stack.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sim/node_faults.h"
#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/verify.h"
#include "workloads/fio/verify_sums.h"

namespace storlab::fio {
namespace fio_verify_types_test {

using testing::LeAt;
using testing::RamStack;
using testing::RealVerifyBlock;
using testing::Split;

struct Type {
  const char* name;
  VerifyKind kind;
};
const Type kTypes[] = {
    {"md5", VerifyKind::kMd5},           {"crc64", VerifyKind::kCrc64},
    {"crc32", VerifyKind::kCrc32},       {"crc16", VerifyKind::kCrc16},
    {"crc7", VerifyKind::kCrc7},         {"sha1", VerifyKind::kSha1},
    {"sha256", VerifyKind::kSha256},     {"sha512", VerifyKind::kSha512},
    {"sha3-224", VerifyKind::kSha3_224}, {"sha3-256", VerifyKind::kSha3_256},
    {"sha3-384", VerifyKind::kSha3_384}, {"sha3-512", VerifyKind::kSha3_512},
};

// The first 1 KiB block real fio 3.33 wrote with each type
// (golden/verify/README.md): FillVerify over its data bytes, with its
// header's seed, time, thread and numberio, gives it byte for byte; the
// check passes on it.
TEST(VerifyTypesTest, AsRealFioWritesThem) {
  for (const Type& t : kTypes) {
    const std::vector<uint8_t> real = RealVerifyBlock(std::string(t.name) + "_block0.bin");
    ASSERT_EQ(real.size(), 1024u) << t.name;
    EXPECT_EQ(LeAt(real, 2, 2), static_cast<uint16_t>(t.kind)) << t.name;
    VerifyBlock b;
    b.rand_seed = LeAt(real, 8, 8);
    b.time_ns = LeAt(real, 24, 4) * 1000000000 + LeAt(real, 28, 4);
    b.thread = static_cast<uint16_t>(LeAt(real, 32, 2));
    b.numberio = static_cast<uint16_t>(LeAt(real, 34, 2));
    std::vector<uint8_t> mine = real;
    std::memset(mine.data(), 0, 40 + SumSize(t.kind));
    FillVerify(t.kind, {}, b, mine.data(), mine.size());
    EXPECT_EQ(mine, real) << t.name;
    EXPECT_EQ(CheckVerify(t.kind, {}, b, true, "f", real.data(), real.size()), "") << t.name;
  }
}

// A flipped data byte is verify_io_u_<type>()'s failure with both sums;
// fio 3.33's sha512 field holds only the data's first and last bytes, so
// it misses a byte in between (as real fio 3.33 does: verify_sums.cc).
TEST(VerifyTypesTest, AFlippedByteFailsWithBothSums) {
  for (const Type& t : kTypes) {
    std::vector<uint8_t> buf(1024, 0x5a);
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 7);
    FillVerify(t.kind, {}, {}, buf.data(), buf.size());
    const size_t at = t.kind == VerifyKind::kSha512 ? 1000 : 600;
    buf[at] ^= 0xff;
    const std::string msg = CheckVerify(t.kind, {}, {}, false, "f", buf.data(), buf.size());
    const std::string head = std::string(t.name) +
                             ": verify failed at file f offset 0, length 1024 (requested block: "
                             "offset=0, length=1024, flags=8)\n       Expected CRC: ";
    EXPECT_EQ(msg.substr(0, head.size()), head) << msg;
    // Each sum printed as hex: two lines of 2 * SumSize digits.
    EXPECT_EQ(msg.size(), head.size() + 2 * SumSize(t.kind) + 1 +
                              std::string("       Received CRC: ").size() + 2 * SumSize(t.kind) + 1)
        << msg;
    if (t.kind == VerifyKind::kSha512) {
      buf[at] ^= 0xff;
      buf[600] ^= 0xff;
      EXPECT_EQ(CheckVerify(t.kind, {}, {}, false, "f", buf.data(), buf.size()), "");
    }
  }
}

TEST(VerifyTypesTest, TypeMismatchIsSaid) {
  std::vector<uint8_t> buf(512, 1);
  FillVerify(VerifyKind::kMd5, {}, {}, buf.data(), buf.size());
  const std::string msg =
      CheckVerify(VerifyKind::kSha1, {}, {}, false, "f", buf.data(), buf.size());
  EXPECT_NE(msg.find("sha1: verify failed at file f offset 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fio: verify type mismatch (2 media, 16 given)\n"), std::string::npos) << msg;
}

// verify=meta with a verify_pattern (surface-scan.fio): verify_io_u()
// checks the pattern after each header, continuing from the I/O's start.
TEST(VerifyTypesTest, MetaChecksThePatternAfterEachHeader) {
  const std::vector<uint8_t> pat = {0xaa, 0x55, 0x5a, 0xa5};
  VerifyBlock b;
  b.offset = 8192;
  std::vector<uint8_t> buf(1024);
  FillVerify(VerifyKind::kMeta, pat, b, buf.data(), buf.size(), 512);
  EXPECT_EQ(buf[40], pat[0]);
  EXPECT_EQ(buf[553], pat[1]);
  EXPECT_EQ(CheckVerify(VerifyKind::kMeta, pat, b, false, "f", buf.data(), buf.size(), 512, false)
                .messages,
            "");
  buf[600] ^= 0x01;  // 600 % 4 == 0: 0xaa -> 0xab
  EXPECT_EQ(CheckVerify(VerifyKind::kMeta, pat, b, false, "f", buf.data(), buf.size(), 512, false)
                .messages,
            "fio: got pattern 'ab', wanted 'aa'. Bad bits 1\n"
            "fio: bad pattern block offset 48\n"
            "pattern: verify failed at file f offset 8704, length 512 (requested block: "
            "offset=8192, length=1024, flags=8)\n");
}

testing::Sim RunVerify(const std::string& args, uint64_t corrupt = 0) {
  return testing::RunWithHost(
      RamStack("100us"), Split(args), /*keep_data=*/true, [corrupt](SimHost& h) {
        if (!corrupt) return;
        h.engine().At(h.engine().now() + Nanos(1000000),
                      [&h, corrupt] { h.device().faults().corrupt.insert(corrupt); });
      });
}

// A write+verify job per type: clean on a healthy stack; on one whose
// block at 4.5 KiB (inside the I/O at 4 KiB, after its header) goes bad
// after it was written, fio's verify failure of that type and EILSEQ.
TEST(VerifyTypesTest, WriteThenVerifyJobs) {
  for (const Type& t : kTypes) {
    const std::string job =
        std::string("--name=w --rw=write --bs=4k --size=64k --direct=1 --verify=") + t.name;
    auto s = RunVerify(job);
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    EXPECT_EQ(s.Job(0).error, 0) << t.name;
    EXPECT_EQ(s.Job(0).dir[kWrite].total_ios, 16u) << t.name;
    EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 16u) << t.name;
    s = RunVerify(job, 4096 + 512);
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    if (t.kind == VerifyKind::kSha512) {
      EXPECT_EQ(s.Job(0).error, 0);  // fio 3.33's sha512 does not see it
      continue;
    }
    EXPECT_EQ(s.Job(0).error, 84) << t.name;
    EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 2u) << t.name;
    const auto& m = s.run->runners()[0]->messages();
    ASSERT_FALSE(m.empty()) << t.name;
    EXPECT_EQ(m[0], std::string(t.name) +
                        ": verify failed at file w.0.0 offset 4096, length 4096 (requested "
                        "block: offset=4096, length=4096, flags=88)")
        << t.name;
  }
}

}  // namespace fio_verify_types_test
}  // namespace storlab::fio
