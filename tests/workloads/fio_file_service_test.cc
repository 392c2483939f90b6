// file_service_type (file_service.h, job_runner_offset.cc) against real
// fio 3.33's write_iolog on files in /tmp (ioengine=psync, nrfiles=4,
// bs=4k, size=64k: 4 blocks a file; or nrfiles=8, size=8m).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_file_service_test {

using testing::RamStack;

struct Io {
  int file;        // the N of a.0.N
  uint64_t block;  // offset / 4096
};

// The files and blocks of a one-job run's reads and writes, in order.
std::vector<Io> FileIos(const std::string& args) {
  std::istringstream in(testing::RecordedLog(RamStack(), "--name=a --directory=/d " + args));
  std::vector<Io> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string t, file, op;
    uint64_t off = 0;
    if (!(ls >> t >> file >> op >> off) || (op != "read" && op != "write")) continue;
    out.push_back({std::stoi(file.substr(file.rfind('.') + 1)), off / 4096});
  }
  return out;
}

std::string Text(const std::vector<Io>& ios) {
  std::string s;
  for (const Io& io : ios) s += std::to_string(io.file) + "/" + std::to_string(io.block) + " ";
  return s;
}

constexpr const char* kFour = "--nrfiles=4 --rw=write --bs=4k --size=64k --file_service_type=";

// roundrobin (fio's default), roundrobin:3 and sequential: real fio 3.33's
// order, I/O for I/O.
TEST(FileServiceTest, RoundRobinAndSequentialAreFios) {
  EXPECT_EQ(Text(FileIos(std::string(kFour) + "roundrobin")),
            "0/0 1/0 2/0 3/0 0/1 1/1 2/1 3/1 0/2 1/2 2/2 3/2 0/3 1/3 2/3 3/3 ");
  EXPECT_EQ(Text(FileIos(std::string(kFour) + "roundrobin:3")),
            "0/0 0/1 0/2 1/0 1/1 1/2 2/0 2/1 2/2 3/0 3/1 3/2 0/3 1/3 2/3 3/3 ");
  EXPECT_EQ(Text(FileIos(std::string(kFour) + "sequential")),
            "0/0 0/1 0/2 0/3 1/0 1/1 1/2 1/3 2/0 2/1 2/2 2/3 3/0 3/1 3/2 3/3 ");
}

// random and random:2: files drawn at random (real fio 3.33: 3/0 3/1 0/0
// 0/1 2/0 ...), each written front to back; random:2 keeps a file for
// 2 I/Os, so a file's runs are of even length.
TEST(FileServiceTest, RandomDrawsFiles) {
  for (const char* t : {"random", "random:2"}) {
    const std::vector<Io> ios = FileIos(std::string(kFour) + t);
    ASSERT_EQ(ios.size(), 16u) << t;
    EXPECT_NE(Text(ios), "0/0 1/0 2/0 3/0 0/1 1/1 2/1 3/1 0/2 1/2 2/2 3/2 0/3 1/3 2/3 3/3 ") << t;
    std::vector<uint64_t> next(4, 0);
    for (const Io& io : ios) EXPECT_EQ(io.block, next[io.file]++) << t << ": " << Text(ios);
  }
  const std::vector<Io> ios = FileIos(std::string(kFour) + "random:2");
  size_t run = 1;
  for (size_t i = 1; i <= ios.size(); ++i) {
    if (i < ios.size() && ios[i].file == ios[i - 1].file) {
      ++run;
      continue;
    }
    EXPECT_EQ(run % 2, 0u) << Text(ios);
    run = 1;
  }
}

// The share of 2048 random reads over 8 files of 1 MiB: real fio 3.33 gave
// random 256 each (every block once), zipf:1.2 1932 to its hottest two
// neighbouring files (94.3 %), normal (gauss:10) 1734 to the middle two (84.7 %), pareto:0.5
// (uniform at h = 0.5) 231 to 276.
TEST(FileServiceTest, DistributionsShareTheFilesAsFiosDo) {
  auto count = [](const char* t) {
    std::vector<int> c(8, 0);
    for (const Io& io : FileIos(std::string("--nrfiles=8 --rw=randread --bs=4k --size=8m "
                                            "--file_service_type=") +
                                t)) {
      ++c[static_cast<size_t>(io.file)];
    }
    return c;
  };
  EXPECT_EQ(count("random"), std::vector<int>(8, 256));
  // Zipf's hottest ranges start at a random range (fio's rand_off), so
  // they may straddle two files: the hottest two neighbours (file 7 and,
  // wrapping, file 0 in fio: 1861 + 71).
  std::vector<int> zipf = count("zipf:1.2");
  int pair = 0;
  for (size_t i = 0; i < 8; ++i) pair = std::max(pair, zipf[i] + zipf[(i + 1) % 8]);
  EXPECT_NEAR(pair, 1932, 60) << ::testing::PrintToString(zipf);
  std::vector<int> gauss = count("gauss:10");
  EXPECT_NEAR(gauss[3] + gauss[4], 1734, 100);
  EXPECT_EQ(count("normal:10"), gauss);
  for (int n : count("pareto:0.5")) EXPECT_NEAR(n, 256, 45);
}

TEST(FileServiceTest, BadValuesNameTheOption) {
  for (const char* bad : {"rr", "roundrobin:0", "random:x", "zipf:1", "pareto:1.5", "gauss:100"}) {
    auto s =
        testing::RunArgs(RamStack(), testing::Split(std::string("--name=a --directory=/d --size=1m "
                                                                "--file_service_type=") +
                                                    bad));
    EXPECT_NE(s.status.message().find("option 'file_service_type': '" + std::string(bad)),
              std::string::npos)
        << bad << ": " << s.status.message();
  }
}

}  // namespace fio_file_service_test
}  // namespace storlab::fio
