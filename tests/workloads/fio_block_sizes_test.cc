// Variable block sizes (bsrange=, bssplit=, bs_unaligned) and the rw=
// postfix (rw=write:112k, rw=read:-8k, rw=randread:4), against fio 3.33's
// parser rules and against what real fio wrote for the same jobs
// (tests/workloads/golden/iolog/, golden/bs/; commands in golden/README.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/block_sizes.h"

namespace storlab::fio {
namespace fio_block_sizes_test {

using testing::GoldenDir;
using testing::IologIos;
using testing::RamStack;
using testing::RecordedLog;
using testing::RunArgs;
using testing::Split;

BlockSizes Fixed4k() {
  BlockSizes s;
  for (auto& d : s) d = DirBlockSizes::Fixed(4096);
  return s;
}

TEST(FioBlockSizesTest, BsrangeGivesEachDirectionItsRange) {
  BlockSizes s = Fixed4k();
  ASSERT_TRUE(ApplyBsrange("1k-16k", &s).ok());
  for (const auto& d : s) {
    EXPECT_EQ(d.min, 1024u);
    EXPECT_EQ(d.max, 16384u);
  }
  s = Fixed4k();
  ASSERT_TRUE(ApplyBsrange("64k:4k,8k-128k", &s).ok());  // reversed: swapped
  EXPECT_EQ(s[0].min, 4096u);
  EXPECT_EQ(s[0].max, 65536u);
  EXPECT_EQ(s[1].min, 8192u);
  EXPECT_EQ(s[2].max, 131072u);  // trims take the write range
}

TEST(FioBlockSizesTest, BadRangesNameThePart) {
  BlockSizes s = Fixed4k();
  EXPECT_EQ(ApplyBsrange("16k", &s).message(), "'16k': a range is MIN-MAX (e.g. 4k-64k)");
  EXPECT_EQ(ApplyBsrange("1k-0", &s).message(), "'0': a block size must be at least 1 byte");
  EXPECT_FALSE(ApplyBsrange("1k-2k,1k-2k,1k-2k,1k-2k", &s).ok());
  EXPECT_FALSE(ApplyBsrange("1k-x", &s).ok());
  EXPECT_EQ(s[0].max, 4096u);  // unchanged by a bad value
}

TEST(FioBlockSizesTest, BssplitSharesWhatIsLeftAndSortsByPercentage) {
  BlockSizes s = Fixed4k();
  ASSERT_TRUE(ApplyBssplit("4k/50:64k:8k/20:16k", &s).ok());
  const DirBlockSizes& d = s[0];
  EXPECT_EQ(d.min, 4096u);
  EXPECT_EQ(d.max, 65536u);
  ASSERT_EQ(d.split.size(), 4u);
  // 64k and 16k share the 30 % left; ascending by share, stable.
  EXPECT_EQ(d.split[0].bs, 65536u);
  EXPECT_EQ(d.split[0].perc, 15u);
  EXPECT_EQ(d.split[1].bs, 16384u);
  EXPECT_EQ(d.split[2].bs, 8192u);
  EXPECT_EQ(d.split[3].bs, 4096u);
  EXPECT_EQ(d.split[3].perc, 50u);
}

TEST(FioBlockSizesTest, BssplitDirectionsAndErrors) {
  BlockSizes s = Fixed4k();
  ASSERT_TRUE(ApplyBssplit(",64k/50:128k/50", &s).ok());
  EXPECT_FALSE(s[0].variable());  // an empty read list keeps bs=
  EXPECT_EQ(s[1].max, 131072u);
  EXPECT_EQ(s[2].max, 131072u);
  EXPECT_EQ(ApplyBssplit("4k/60:8k/50", &s).message(),
            "'4k/60:8k/50': the percentages add up to 110%, more than 100%");
  EXPECT_EQ(ApplyBssplit("4k/ten", &s).message(),
            "'4k/ten': the percentage after '/' must be a whole number");
  std::string many;
  for (int i = 1; i <= 65; ++i) many += (i > 1 ? ":" : "") + std::to_string(i) + "k/1";
  EXPECT_NE(ApplyBssplit(many, &s).message().find("at most 64 sizes"), std::string::npos);
  EXPECT_EQ(s[1].max, 131072u);  // unchanged by a bad value
}

TEST(FioBlockSizesTest, DrawnSizesAreAlignedAndFit) {
  DirBlockSizes d;
  d.min = 1024;
  d.max = 16384;
  BuflenPicker p(d, /*unaligned=*/false, 7);
  for (int i = 0; i < 1000; ++i) {
    uint64_t len = p.Next(UINT64_MAX);
    EXPECT_EQ(len % 1024, 0u);
    EXPECT_GE(len, 1024u);
    EXPECT_LE(len, 16384u);
    EXPECT_LE(p.Next(5000), 5000u);
  }
  EXPECT_EQ(p.Next(1000), 0u);  // not even the smallest fits
  BuflenPicker u(d, /*unaligned=*/true, 7);
  bool odd = false;
  for (int i = 0; i < 100; ++i) odd |= u.Next(UINT64_MAX) % 1024 != 0;
  EXPECT_TRUE(odd);
  // A fixed size draws nothing and is returned as it is.
  DirBlockSizes f = DirBlockSizes::Fixed(4096);
  EXPECT_EQ(BuflenPicker(f, false, 1).Next(0), 4096u);
}

// The iolog the job records (write_iolog=), as text.
std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The sizes an iolog's writes used: size → count.
std::map<uint64_t, uint64_t> WriteSizes(const std::string& log) {
  std::istringstream in(log);
  std::map<uint64_t, uint64_t> h;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string t, file, op;
    uint64_t off = 0, len = 0;
    if (ls >> t >> file >> op >> off >> len && op == "write") ++h[len];
  }
  return h;
}

std::map<uint64_t, uint64_t> GoldenHist(const std::string& name) {
  std::ifstream in(GoldenDir() + "bs/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::map<uint64_t, uint64_t> h;
  uint64_t size = 0, count = 0;
  while (in >> size >> count) h[size] = count;
  return h;
}

// Every size that real fio used for at least 1 % of 20000 random writes has
// the same share here within 1.5 points (the random streams are ours, the
// way sizes are drawn and trimmed by the random map is fio's), and so has
// the rest (sizes cut short where the map was already used).
void ExpectSameShares(const std::string& option, const std::string& golden) {
  auto ours = WriteSizes(RecordedLog(
      RamStack("10us"),
      "--name=s --rw=randwrite " + option + " --size=64m --number_ios=20000 --ioengine=null"));
  auto fio = GoldenHist(golden);
  auto share = [](const std::map<uint64_t, uint64_t>& h, uint64_t size) {
    uint64_t total = 0;
    for (auto [k, v] : h) total += v;
    auto it = h.find(size);
    return it == h.end() ? 0.0
                         : 100.0 * static_cast<double>(it->second) / static_cast<double>(total);
  };
  double fio_rest = 100, our_rest = 100;
  for (auto [size, count] : fio) {
    if (share(fio, size) < 1.0) continue;
    EXPECT_NEAR(share(ours, size), share(fio, size), 1.5) << option << ": " << size << " bytes";
    fio_rest -= share(fio, size);
    our_rest -= share(ours, size);
  }
  EXPECT_NEAR(our_rest, fio_rest, 1.5) << option << ": the other sizes";
}

TEST(FioBlockSizesTest, BssplitSharesMatchRealFio) {
  ExpectSameShares("--bssplit=512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10",
                   "iometer_bssplit.hist");
}

TEST(FioBlockSizesTest, BsrangeSharesMatchRealFio) {
  ExpectSameShares("--bsrange=1k-16k", "bsrange_1k_16k.hist");
}

// Sequential offsets are deterministic: the same as real fio's, I/O by I/O.
void ExpectSameIos(const std::string& args, const std::string& golden) {
  auto fio = IologIos(ReadFile(GoldenDir() + "iolog/" + golden));
  ASSERT_FALSE(fio.empty());
  EXPECT_EQ(IologIos(RecordedLog(RamStack(), args)), fio);
}

TEST(FioBlockSizesTest, HoledWriteIsFios) {
  // 64 writes of 16k with 112k skipped after each: 8 per pass over 1m,
  // wrapping to the start until size= bytes were written.
  ExpectSameIos("--name=h --bs=16k --rw=write:112k --size=1m", "holed_write_v3.log");
}

TEST(FioBlockSizesTest, BackwardsReadIsFios) {
  ExpectSameIos("--name=b --bs=4k --rw=read:-8k --size=1m", "backwards_read_v3.log");
}

TEST(FioBlockSizesTest, RandomEveryNthIoThenSequentialAsFio) {
  const std::string ours =
      RecordedLog(RamStack(), "--name=r --bs=4k --rw=randread:4 --size=1m --number_ios=64");
  // The shape real fio gives: I/O 0, 4, 8, ... at a random offset, the
  // three after each one where the one before ended.
  const std::string fio = ReadFile(GoldenDir() + "iolog/randread_seq4_v3.log");
  for (const std::string* log : {&ours, &fio}) {
    const char* path = log == &ours ? "storlab" : "fio";
    auto ios = IologIos(*log);
    ASSERT_EQ(ios.size(), 64u) << path;
    uint64_t prev_end = 0;
    int jumps = 0;
    for (size_t i = 0; i < ios.size(); ++i) {
      std::istringstream ls(ios[i]);
      std::string op;
      uint64_t off = 0, len = 0;
      ls >> op >> off >> len;
      if (i % 4) {
        EXPECT_EQ(off, prev_end) << path << " I/O " << i;
      } else if (off != prev_end) {
        ++jumps;
      }
      prev_end = off + len;
    }
    EXPECT_GE(jumps, 14) << path;  // random offsets rarely continue the run
  }
}

TEST(FioBlockSizesTest, BlockalignAlignsRandomOffsetsAndTurnsTheMapOff) {
  auto s = RunArgs(RamStack(), Split("--name=a --rw=randread --bs=512 --ba=4k --size=1m "
                                     "--number_ios=300 --write_iolog=/nonexistent/x.log"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  auto ios = IologIos(s.run->runners()[0]->iolog()->text());
  ASSERT_EQ(ios.size(), 300u);
  for (const std::string& io : ios) {
    std::istringstream ls(io);
    std::string op;
    uint64_t off = 0;
    ls >> op >> off;
    EXPECT_EQ(off % 4096, 0u) << io;
  }
  const auto m = s.run->Messages();
  EXPECT_NE(std::find(m.begin(), m.end(), "fio: Any use of blockalign= turns off randommap"),
            m.end());
}

TEST(FioBlockSizesTest, BadPostfixesAndSizesAreErrors) {
  auto bad = [](const std::string& args) { return RunArgs(RamStack(), Split(args)).status; };
  EXPECT_EQ(
      bad("--name=x --rw=randread:zero --size=1m").message(),
      "command line (--name=x): job 'x': option 'rw': 'randread:zero': after ':' a random rw takes "
      "the number of I/Os per random offset (e.g. 8)");
  EXPECT_EQ(bad("--name=x --rw=write:lots --size=1m").message(),
            "command line (--name=x): job 'x': option 'rw': 'write:lots': after ':' a sequential "
            "rw takes "
            "the bytes to skip after each I/O (e.g. 64k)");
  EXPECT_FALSE(bad("--name=x --rw=write: --size=1m").ok());
  EXPECT_FALSE(bad("--name=x --rw=write --bssplit=4k/60:8k/60 --size=1m").ok());
  EXPECT_FALSE(bad("--name=x --rw=write --bsrange=4k --size=1m").ok());
}

TEST(FioBlockSizesTest, NormalHeaderShowsTheRange) {
  auto s = RunArgs(RamStack(), Split("--name=x --rw=randread --bsrange=1k-64k,4k-8k --size=1m"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_NE(s.Normal().find("bs=(R) 1024B-64.0KiB, (W) 4096B-8192B, (T) 4096B-8192B"),
            std::string::npos)
      << s.Normal().substr(0, 200);
}

}  // namespace fio_block_sizes_test
}  // namespace storlab::fio
