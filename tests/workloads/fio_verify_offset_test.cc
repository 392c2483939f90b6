// verify_offset (fio 3.33 verify.c populate_hdr(), verify_io_u(),
// memswp()): the header and its checksum change places with the bytes that
// far into their block, on a block real fio 3.33 wrote and in a job.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/verify.h"

namespace storlab::fio {
namespace fio_verify_offset_test {

using testing::LeAt;
using testing::RamStack;
using testing::RealVerifyBlock;
using testing::Split;

// Real fio 3.33, verify=crc32c verify_offset=512: the 44 bytes of header
// and crc32c are at 512, the data that was there at 0.
TEST(VerifyOffsetTest, HeaderAtTheOffsetAsRealFioWritesIt) {
  const std::vector<uint8_t> real = RealVerifyBlock("crc32c_voff512_block0.bin");
  ASSERT_EQ(real.size(), 4096u);
  EXPECT_EQ(LeAt(real, 512, 2), 0xaccau);
  VerifyBlock b;
  b.rand_seed = LeAt(real, 512 + 8, 8);
  b.time_ns = LeAt(real, 512 + 24, 4) * 1000000000 + LeAt(real, 512 + 28, 4);
  b.thread = static_cast<uint16_t>(LeAt(real, 512 + 32, 2));
  b.numberio = static_cast<uint16_t>(LeAt(real, 512 + 34, 2));
  std::vector<uint8_t> mine = real;  // the data as it was before the swap
  std::memcpy(mine.data() + 512, real.data(), 44);
  std::memset(mine.data(), 0, 44);
  FillVerify(VerifyKind::kCrc32c, {}, b, mine.data(), mine.size(), 0, 512);
  EXPECT_EQ(mine, real);
  EXPECT_FALSE(CheckVerify(VerifyKind::kCrc32c, {}, b, true, "f", real.data(), real.size(), 0,
                           false, false, 512)
                   .failed);
  // Read without the offset, the block's start is data.
  EXPECT_EQ(CheckVerify(VerifyKind::kCrc32c, {}, b, true, "f", real.data(), real.size())
                .rfind("verify: bad magic header", 0),
            0u);
}

testing::Sim RunOffsetVerify(const std::string& extra) {
  return testing::RunWithHost(RamStack(),
                              Split("--name=w --filename=/d/f --size=64k --bs=4k --rw=randwrite "
                                    "--verify=crc32c " +
                                    extra),
                              /*keep_data=*/true);
}

// A job verifies what it wrote; with an offset shorter than the header
// the two ranges overlap and the block fails, as with real fio 3.33
// (verify_offset=40 and 42, crc32c: "crc32c: verify failed at file ...").
TEST(VerifyOffsetTest, JobsVerifyAndOverlapFails) {
  for (const char* vo : {"512", "4000"}) {
    auto s = RunOffsetVerify(std::string("--verify_offset=") + vo);
    ASSERT_TRUE(s.status.ok()) << s.status.ToString();
    EXPECT_EQ(s.Job(0).error, 0) << vo;
    EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 16u) << vo;
  }
  auto s = RunOffsetVerify("--verify_offset=40");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_NE(s.Job(0).error, 0);
  const auto& m = s.run->runners()[0]->messages();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[0].rfind("crc32c: verify failed at file /d/f offset ", 0), 0u) << m[0];
}

// Past the block's end real fio 3.33 swaps bytes beyond it (4090 + 44 in a
// 4k block: "verify: bad header offset"); here it is an error at setup.
TEST(VerifyOffsetTest, BadValuesNameTheOption) {
  for (const char* bad : {"--verify_offset=4090", "--verify_offset=39", "--verify_offset=x"}) {
    auto s = RunOffsetVerify(bad);
    EXPECT_NE(s.status.message().find("'verify_offset'"), std::string::npos)
        << bad << ": " << s.status.message();
  }
}

}  // namespace fio_verify_offset_test
}  // namespace storlab::fio
