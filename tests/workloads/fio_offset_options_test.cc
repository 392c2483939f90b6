// rw_sequencer and allrandrepeat (option_table.cc): which offsets a random
// job takes, compared with real fio 3.33's write_iolog (ioengine=null).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_offset_options_test {

using testing::RamStack;
using testing::Split;

// The I/Os write_iolog recorded: "r15" for a read of block 15 (4 KiB).
std::vector<std::string> Logged(const std::string& args) {
  auto s = testing::RunArgs(RamStack("100us"), Split(args + " --write_iolog=/tmp/unused.log"));
  EXPECT_TRUE(s.status.ok()) << s.status.message();
  std::vector<std::string> out;
  if (!s.status.ok()) return out;
  std::istringstream in(s.run->runners()[0]->iolog()->text());
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream w(line);
    std::string t, file, act;
    uint64_t off = 0;
    if (!(w >> t >> file >> act >> off) || (act != "read" && act != "write")) continue;
    out.push_back(act.substr(0, 1) + std::to_string(off / 4096));
  }
  return out;
}

// Real fio 3.33, rw=randread:4 bs=4k size=1m number_ios=12:
//   sequential: 15 16 17 18 189 190 191 192 215 216 217 218
//   identical:  15 15 15 15 189 189 189 189 215 215 215 215
// and rw=randrw:3 with identical: r15 r15 r15 w189 r15 r15 w215 w215 w215
// r120 w215 r120 — every third I/O random, whatever its direction; the
// others repeat the last offset of their own direction (f->last_start[ddir],
// 0 before the first). The random offsets here are storlab's own.
TEST(RwSequencerTest, IdenticalRepeatsTheLastOffsetOfTheDirection) {
  const std::string job =
      "--name=a --filename=/d/f --bs=4k --size=1m --number_ios=12 "
      "--ioengine=null ";
  auto seq = Logged(job + "--rw=randread:4");
  auto same = Logged(job + "--rw=randread:4 --rw_sequencer=identical");
  ASSERT_EQ(seq.size(), 12u);
  ASSERT_EQ(same.size(), 12u);
  EXPECT_EQ(seq, Logged(job + "--rw=randread:4 --rw_sequencer=sequential"));
  for (size_t i = 0; i < 12; i += 4) {
    const uint64_t b = std::stoull(seq[i].substr(1));
    EXPECT_EQ(same[i], seq[i]) << i;  // the random ones are the same
    for (size_t k = 1; k < 4; ++k) {
      EXPECT_EQ(seq[i + k], "r" + std::to_string(b + k)) << i + k;
      EXPECT_EQ(same[i + k], seq[i]) << i + k;
    }
  }
  auto mix = Logged(job + "--rw=randrw:3 --rw_sequencer=identical");
  ASSERT_EQ(mix.size(), 12u);
  std::string last[2] = {"r0", "w0"};
  for (size_t i = 0; i < 12; ++i) {
    const int d = mix[i][0] == 'r' ? 0 : 1;
    if (i % 3 != 0) EXPECT_EQ(mix[i], last[d]) << i;
    last[d] = mix[i];
  }
  // Without a postfix every I/O is random: identical changes nothing.
  EXPECT_EQ(Logged(job + "--rw=randread"), Logged(job + "--rw=randread --rw_sequencer=identical"));
}

// Real fio 3.33, rw=randread bs=4k size=1m number_ios=20 (md5 of the
// offsets): the default, allrandrepeat=1, and randseed=5 or 7 with
// allrandrepeat=1 all give the same offsets (dfbb7612); randrepeat=0 gives
// new ones every run (332a3d83, 4ef9b597), randrepeat=0 allrandrepeat=1
// the same ones every run, not the default's (1f2d7f2d, twice).
TEST(AllRandRepeatTest, RepeatableWhateverTheSeeds) {
  const std::string job =
      "--name=a --filename=/d/f --rw=randread --bs=4k --size=1m "
      "--number_ios=20 --ioengine=null ";
  auto run = [&](const std::string& extra, uint64_t seed) {
    auto sections = ParseCommandLine(Split(job + extra + " --write_iolog=/tmp/unused.log"));
    EXPECT_TRUE(sections.ok());
    auto s = testing::RunJobs(RamStack("100us"), *sections, seed);
    EXPECT_TRUE(s.status.ok()) << s.status.message();
    return s.status.ok() ? s.run->runners()[0]->iolog()->text() : std::string();
  };
  const std::string def = run("", 1);
  EXPECT_EQ(run("--allrandrepeat=1", 1), def);
  EXPECT_EQ(run("--allrandrepeat=1 --randseed=5", 1), def);
  EXPECT_EQ(run("--allrandrepeat=1 --randseed=7", 2), def);
  EXPECT_NE(run("--randrepeat=0", 1), run("--randrepeat=0", 2));  // --seed moves them
  const std::string all = run("--randrepeat=0 --allrandrepeat=1", 1);
  EXPECT_EQ(run("--randrepeat=0 --allrandrepeat=1", 2), all);
  EXPECT_NE(all, def);
}

TEST(OffsetOptionsTest, BadValuesNameTheOptionAndTheJob) {
  for (const char* bad : {"rw_sequencer=same", "allrandrepeat=2"}) {
    auto sections = ParseJobText(std::string("[job1]\nfilename=/d/f\nsize=16k\n") + bad + "\n",
                                 "bad.fio", ".", ProcessEnv());
    ASSERT_TRUE(sections.ok());
    auto s = testing::RunJobs(RamStack(), *sections);
    ASSERT_FALSE(s.status.ok()) << bad;
    const std::string opt = std::string(bad).substr(0, std::string(bad).find('='));
    EXPECT_NE(s.status.message().find("bad.fio:4: option '" + opt + "'"), std::string::npos)
        << bad << ": " << s.status.message();
  }
}

}  // namespace fio_offset_options_test
}  // namespace storlab::fio
