// percentage_random (io_u.c should_do_random(), job_runner_offset.cc),
// against real fio 3.33's write_iolog on a file in /tmp.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_seq_rand_mix_test {

using testing::RamStack;

// The offsets (in 4 KiB blocks) of a one-job run's I/Os.
std::vector<uint64_t> Blocks(const std::string& args) {
  std::vector<uint64_t> out;
  for (const std::string& io : testing::IologIos(testing::RecordedLog(RamStack(), args))) {
    std::istringstream in(io);
    std::string op;
    uint64_t off = 0;
    in >> op >> off;
    out.push_back(off / 4096);
  }
  return out;
}

// Real fio 3.33, --bs=4k --size=64k: percentage_random=0 makes randread
// and randwrite sequential, 0 .. 15.
TEST(PercentageRandomTest, ZeroIsSequential) {
  std::vector<uint64_t> seq;
  for (uint64_t b = 0; b < 16; ++b) seq.push_back(b);
  for (const char* rw : {"randread", "randwrite"}) {
    EXPECT_EQ(Blocks(std::string("--name=a --filename=/d/f --bs=4k --size=64k "
                                 "--percentage_random=0 --rw=") +
                     rw),
              seq)
        << rw;
  }
  // One value for every direction, as fio's "100,100,100" default.
  EXPECT_EQ(Blocks("--name=a --filename=/d/f --bs=4k --size=64k --percentage_random=100,0 "
                   "--rw=randwrite"),
            seq);
  EXPECT_NE(Blocks("--name=a --filename=/d/f --bs=4k --size=64k --percentage_random=100,0 "
                   "--rw=randread"),
            seq);
}

// percentage_random=25 over 1024 reads: real fio 3.33 continued the last
// I/O sequentially 761 times (74 %); the sequential ones do not mark the
// random map, so blocks can repeat.
TEST(PercentageRandomTest, ShareOfSequentialContinuations) {
  const std::vector<uint64_t> b =
      Blocks("--name=a --filename=/d/f --bs=4k --size=4m --percentage_random=25 --rw=randread");
  ASSERT_EQ(b.size(), 1024u);
  int seq = 0;
  for (size_t i = 1; i < b.size(); ++i) seq += b[i] == b[i - 1] + 1;
  EXPECT_NEAR(seq, 761, 40);
  auto s = testing::RunArgs(RamStack(), testing::Split("--name=a --filename=/d/f --size=1m "
                                                       "--percentage_random=101"));
  EXPECT_NE(s.status.message().find("option 'percentage_random': '101' out of range [0, 100]"),
            std::string::npos)
      << s.status.message();
}

}  // namespace fio_seq_rand_mix_test
}  // namespace storlab::fio
