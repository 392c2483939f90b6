// fio's other outputs against real fio 3.33's (golden files captured with the
// same job, tests/workloads/golden/README.md): json+ (the latency "bins"),
// terse (field for field), the logs (file names, line format), and the
// percentile options. Formats are compared, not values.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_output_formats_test {

using testing::RamStack;
using testing::ReadGolden;
using testing::RunArgs;
using testing::Split;
using testing::TempDir;

const char kJob[] =
    "--name=jp --directory=/tmp/fiox/g --ioengine=libaio --direct=1 --iodepth=4 --size=16m "
    "--rw=randrw --bs=4k";

// Key paths with the histogram's bucket values (and percentile keys, which
// are the same list) folded into one.
std::set<std::string> FoldedKeys(const nlohmann::json& j) {
  std::set<std::string> raw, out;
  testing::KeyPaths(j, "", &raw);
  for (const auto& k : raw)
    out.insert(std::regex_replace(k, std::regex("/bins/[0-9]+$"), "/bins/N"));
  return out;
}

TEST(FioJsonPlusTest, KeySetEqualsRealFios) {
  auto s = RunArgs(RamStack("100us", "4GiB", 32),
                   Split(std::string(kJob) + " --slat_percentiles=1 --lat_percentiles=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  OutputOptions o;
  o.json_plus = true;
  nlohmann::json ours = nlohmann::json::parse(FioJsonText(*s.run, o));
  ours.erase("storlab");
  nlohmann::json fio = nlohmann::json::parse(ReadGolden("jsonplus_randrw.json"));
  auto a = FoldedKeys(ours), b = FoldedKeys(fio);
  for (const auto& k : a) EXPECT_TRUE(b.count(k)) << "only ours: " << k;
  for (const auto& k : b) EXPECT_TRUE(a.count(k)) << "only fio's: " << k;
  // The bins add up to the samples, keyed by fio's bucket values.
  const auto& clat = ours["jobs"][0]["read"]["clat_ns"];
  uint64_t n = 0;
  for (auto it = clat["bins"].begin(); it != clat["bins"].end(); ++it) {
    n += it.value().get<uint64_t>();
    uint64_t v = std::stoull(it.key());
    EXPECT_EQ(LatencyHistogram::IndexToValue(LatencyHistogram::ValueToIndex(v)), v) << it.key();
  }
  EXPECT_EQ(n, clat["N"].get<uint64_t>());
  // Without json+ there are no bins: the JSON output is unchanged.
  EXPECT_EQ(s.Json().find("\"bins\""), std::string::npos);
}

// A terse field's shape: its printf format, not its value.
std::string FieldShape(const std::string& f) {
  static const std::vector<std::pair<std::regex, const char*>> kShapes = {
      {std::regex("^[0-9]+$"), "%llu"},
      {std::regex("^-?[0-9]+\\.[0-9]{6}$"), "%f"},
      {std::regex("^[0-9]+\\.[0-9]{6}%$"), "%f%%"},
      {std::regex("^[0-9]+\\.[0-9]%$"), "%3.1f%%"},
      {std::regex("^[0-9]+\\.[0-9]{2}%$"), "%3.2f%%"},
      {std::regex("^[0-9]+\\.[0-9]{6}%=[0-9]+$"), "%f%%=%llu"},
      {std::regex("^0%=0$"), "0%=0"}};
  for (const auto& [re, name] : kShapes) {
    if (std::regex_match(f, re)) return name;
  }
  return "text";
}

std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> out;
  std::string f;
  std::istringstream in(line.substr(0, line.find('\n')));
  while (std::getline(in, f, ';')) out.push_back(f);
  return out;
}

void ExpectTerseLike(const std::string& ours, const std::string& fio) {
  auto a = Fields(ours), b = Fields(fio);
  ASSERT_EQ(a.size(), b.size()) << ours;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(FieldShape(a[i]), FieldShape(b[i]))
        << "field " << i + 1 << ": ours " << a[i] << ", fio's " << b[i];
  }
}

TEST(FioTerseTest, Version3FieldForFieldAsRealFios) {
  auto s = RunArgs(RamStack("100us", "4GiB", 32), Split(kJob));
  ASSERT_TRUE(s.status.ok());
  std::string t = FioTerseReport(*s.run, 3);
  ExpectTerseLike(t, ReadGolden("terse_randrw.txt"));
  EXPECT_EQ(t.rfind("3;fio-3.33;jp;0;0;", 0), 0u) << t;
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 1);
}

TEST(FioTerseTest, Version5WithDescription) {
  auto s =
      RunArgs(RamStack("100us", "4GiB", 32), Split(std::string(kJob) + " --description=hello"));
  ASSERT_TRUE(s.status.ok());
  std::string t = FioTerseReport(*s.run, 5);
  ExpectTerseLike(t, ReadGolden("terse_v5.txt"));
  EXPECT_NE(t.find(";hello\n"), std::string::npos);
}

TEST(FioTerseTest, OneLinePerJobOrGroup) {
  auto s = RunArgs(RamStack(), Split("--name=a --size=1m --rw=write --numjobs=3 --name=b "
                                     "--size=1m --numjobs=2 --new_group --group_reporting"));
  ASSERT_TRUE(s.status.ok());
  std::string t = FioTerseReport(*s.run, 3);
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 4) << t;
}

// A log line's shape: its field count and that every field is a number.
void ExpectLogLike(const std::string& path, const std::string& golden) {
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  std::string want = ReadGolden("logs/" + golden);
  std::string first = want.substr(0, want.find('\n'));
  const size_t fields = static_cast<size_t>(std::count(first.begin(), first.end(), ',')) + 1;
  std::string line;
  size_t lines = 0;
  while (std::getline(in, line) && lines < 100) {  // the first 100 lines
    ++lines;
    ASSERT_EQ(static_cast<size_t>(std::count(line.begin(), line.end(), ',')) + 1, fields)
        << path << ": " << line;
    ASSERT_TRUE(std::regex_match(line, std::regex("^[0-9]+(, [0-9]+)*$"))) << path << ": " << line;
  }
  EXPECT_GT(lines, 0u) << path;
}

TEST(FioLogsTest, PerIoLogsHaveFiosNamesAndLines) {
  auto s =
      RunArgs(RamStack("100us", "4GiB", 32),
              Split(std::string(kJob) + " --write_bw_log=lg --write_lat_log=lg --write_iops_log=lg "
                                        "--write_hist_log=lg --log_hist_msec=10"));
  ASSERT_TRUE(s.status.ok());
  TempDir dir;
  const JobLogs* logs = s.run->runners()[0]->logs();
  ASSERT_NE(logs, nullptr);
  ASSERT_TRUE(logs->Write(dir.path).ok());
  for (const char* f : {"lg_bw.1.log", "lg_lat.1.log", "lg_slat.1.log", "lg_clat.1.log",
                        "lg_iops.1.log", "lg_clat_hist.1.log"}) {
    ExpectLogLike(dir.path + "/" + f, f);
  }
  // One line per I/O in each per-I/O log; bw takes its figures per I/O too.
  const ThreadStat& ts = s.Job(0);
  std::ifstream in(dir.path + "/lg_iops.1.log");
  size_t n = 0;
  for (std::string l; std::getline(in, l);) ++n;
  EXPECT_EQ(n, ts.dir[kRead].total_ios + ts.dir[kWrite].total_ios);
  EXPECT_EQ(ts.dir[kRead].bw.samples, ts.dir[kRead].total_ios);
}

TEST(FioLogsTest, AveragedLogsWithOffsetAndOneFilePerName) {
  auto s = RunArgs(
      RamStack("100us", "4GiB", 32),
      Split(std::string(kJob) + " --runtime=2 --time_based --write_bw_log=av --write_lat_log=av "
                                "--write_iops_log=av --log_avg_msec=250 --log_offset=1 "
                                "--log_max_value=1 --per_job_logs=0"));
  ASSERT_TRUE(s.status.ok());
  TempDir dir;
  ASSERT_TRUE(s.run->runners()[0]->logs()->Write(dir.path).ok());
  for (const char* f : {"av_bw.log", "av_lat.log", "av_slat.log", "av_clat.log", "av_iops.log"}) {
    ExpectLogLike(dir.path + "/" + f, f);
  }
  // A line per 250 ms window and direction, at the window's end.
  std::ifstream in(dir.path + "/av_bw.log");
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first.rfind("250, ", 0), 0u) << first;
  EXPECT_EQ(s.Job(0).dir[kRead].bw.samples, 8u);  // 2 s / 250 ms
}

TEST(FioPercentilesTest, ListAndWhichLatencies) {
  auto s = RunArgs(RamStack(), Split("--name=p --size=1m --rw=randread --ioengine=libaio "
                                     "--iodepth=2 --percentile_list=99.5:50 --lat_percentiles=1 "
                                     "--slat_percentiles=1 --clat_percentiles=0"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  auto j = s.JsonObject();
  const auto& r = j["jobs"][0]["read"];
  EXPECT_FALSE(r["clat_ns"].contains("percentile"));
  ASSERT_TRUE(r["lat_ns"].contains("percentile"));
  EXPECT_TRUE(r["slat_ns"].contains("percentile"));
  std::vector<std::string> keys;
  for (auto it = r["lat_ns"]["percentile"].begin(); it != r["lat_ns"]["percentile"].end(); ++it) {
    keys.push_back(it.key());
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"50.000000", "99.500000"}));
  std::string normal = s.Normal();
  EXPECT_NE(normal.find("    lat percentiles ("), std::string::npos) << normal;
  EXPECT_NE(normal.find("    slat percentiles ("), std::string::npos) << normal;
  EXPECT_NE(normal.find("| 50.0th=["), std::string::npos) << normal;  // one decimal, as written
  EXPECT_EQ(normal.find("clat percentiles"), std::string::npos);
}

TEST(FioPercentilesTest, BadValuesNameOptionAndValue) {
  for (const char* v : {"50:abc", "101", "50::99", "-1"}) {
    auto s = RunArgs(RamStack(), {"--name=p", "--size=1m", std::string("--percentile_list=") + v});
    ASSERT_FALSE(s.status.ok()) << v;
    EXPECT_NE(s.status.message().find("option 'percentile_list'"), std::string::npos)
        << s.status.message();
  }
  auto s = RunArgs(RamStack(), {"--name=p", "--size=1m", "--log_avg_msec=-5"});
  ASSERT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message().find("log_avg_msec"), std::string::npos) << s.status.message();
}

}  // namespace fio_output_formats_test
}  // namespace storlab::fio
