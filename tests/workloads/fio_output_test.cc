// The outputs against real fio 3.33's (golden files captured with the same
// job, see tests/workloads/golden/README.md): the JSON key set, recursively,
// and the layout of the normal output.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_output_test {

using testing::RamStack;
using testing::RunArgs;

using testing::ReadGolden;
using testing::Split;

struct Case {
  const char* golden;
  const char* args;
};

// The exact fio command lines of the golden files.
const Case kCases[] = {
    {"null_randwrite.json", "--name=x --ioengine=null --size=64m --rw=randwrite --bs=4k"},
    {"direct_libaio.json",
     "--name=direct --directory=/tmp/fiox/g --ioengine=libaio --direct=1 --iodepth=8 "
     "--size=16m --rw=randread --bs=4k"},
    {"group_reporting_direct.json",
     "--name=grp --directory=/tmp/fiox/g --ioengine=psync --direct=1 --numjobs=4 "
     "--group_reporting --size=4m --rw=write --bs=64k --fsync=8"},
    {"randrw_time_based.json",
     "--name=tb --directory=/tmp/fiox/g --ioengine=libaio --direct=1 --iodepth=4 --size=16m "
     "--rw=randrw --bs=4k --runtime=2 --time_based --ramp_time=1 --end_fsync=1"},
    {"buffered_psync.json",
     "--name=buffered --directory=/tmp/fiox/g --ioengine=psync --size=16m --rw=randwrite "
     "--bs=4k --end_fsync=1"},
    {"group_reporting.json",
     "--name=grp --directory=/tmp/fiox/g --ioengine=psync --numjobs=4 --group_reporting "
     "--size=4m --rw=write --bs=64k --fsync=8"},
    {"time_based.json",
     "--name=lay --directory=/tmp/fiox/g --ioengine=libaio --direct=1 --iodepth=4 --size=16m "
     "--rw=randread --bs=4k --runtime=2 --time_based"},
};

class FioJsonKeysTest : public ::testing::TestWithParam<Case> {};

TEST_P(FioJsonKeysTest, KeySetEqualsRealFios) {
  auto s = RunArgs(RamStack("100us", "4GiB", 32), Split(GetParam().args));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  nlohmann::json ours = nlohmann::json::parse(s.Json());
  ASSERT_TRUE(ours.contains("storlab"));
  ours.erase("storlab");  // our one addition
  nlohmann::json fio = nlohmann::json::parse(ReadGolden(GetParam().golden));
  std::set<std::string> a, b;
  testing::KeyPaths(ours, "", &a);
  testing::KeyPaths(fio, "", &b);
  for (const auto& k : a) EXPECT_TRUE(b.count(k)) << "only ours: " << k;
  for (const auto& k : b) EXPECT_TRUE(a.count(k)) << "only fio's: " << k;
  // And the values have fio's types (ints stay ints, floats floats).
  EXPECT_TRUE(ours["jobs"][0]["read"]["iops"].is_number_float());
  EXPECT_TRUE(ours["jobs"][0]["read"]["bw"].is_number_integer());
}

INSTANTIATE_TEST_SUITE_P(Golden, FioJsonKeysTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) {
                           std::string n = info.param.golden;
                           return n.substr(0, n.find('.'));
                         });

// A line's shape: what precedes its first number.
std::string Shape(const std::string& line) {
  std::string s = std::regex_replace(line, std::regex("\\((n|u|m)sec\\)"), "(T)");
  s = std::regex_replace(s, std::regex("^  [^ ]+: ios="), "  DEVICE: ios=");
  size_t d = s.find_first_of("0123456789");
  if (d != std::string::npos) s = s.substr(0, d);
  return s.substr(0, s.find_last_not_of(' ') + 1);
}

std::vector<std::string> Shapes(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // Rows that depend on the distribution: latency buckets, percentiles.
    if (line.rfind("  lat (", 0) == 0 || line.rfind("     |", 0) == 0) continue;
    if (line.find(": Laying out IO file") != std::string::npos) continue;
    out.push_back(Shape(line));
  }
  return out;
}

TEST(FioNormalOutputTest, LinesFollowRealFios) {
  auto s = RunArgs(RamStack("100us", "4GiB", 32),
                   Split("--name=tb --directory=/tmp/fiox/g --ioengine=libaio --direct=1 "
                         "--iodepth=4 --size=16m --rw=randrw --bs=4k --runtime=2 --time_based "
                         "--ramp_time=1 --end_fsync=1"));
  ASSERT_TRUE(s.status.ok());
  std::vector<std::string> ours = Shapes(s.Normal());
  std::vector<std::string> fio = Shapes(ReadGolden("randrw_time_based.txt"));
  ASSERT_EQ(ours.size(), fio.size()) << s.Normal();
  for (size_t i = 0; i < ours.size(); ++i) EXPECT_EQ(ours[i], fio[i]) << "line " << i;
}

TEST(FioNormalOutputTest, GroupReportingHeaderAndGroupLine) {
  auto s = RunArgs(RamStack("100us", "4GiB", 32),
                   Split("--name=grp --directory=/tmp/fiox/g --ioengine=psync --direct=1 "
                         "--numjobs=4 --group_reporting --size=4m --rw=write --bs=64k --fsync=8"));
  ASSERT_TRUE(s.status.ok());
  std::string normal = s.Normal();
  EXPECT_EQ(normal.rfind("grp: (g=0): rw=write, bs=(R) 64.0KiB-64.0KiB, (W) 64.0KiB-64.0KiB, (T) "
                         "64.0KiB-64.0KiB, ioengine=psync, iodepth=1\n...\nfio-3.33\nStarting 4 "
                         "processes\n",
                         0),
            0u)
      << normal;
  EXPECT_NE(normal.find("grp: (groupid=0, jobs=4): err= 0: pid=0: Thu Jan  1 00:00:00 1970\n"),
            std::string::npos);
  EXPECT_NE(normal.find("IO depths    : 1=110.9%"), std::string::npos);
  EXPECT_NE(normal.find("issued rwts: total=0,256,0,28"), std::string::npos);
  EXPECT_NE(normal.find("\nRun status group 0 (all jobs):\n  WRITE: bw="), std::string::npos);
  EXPECT_NE(normal.find("io=16.0MiB (16.8MB), run="), std::string::npos);
}

}  // namespace fio_output_test
}  // namespace storlab::fio
