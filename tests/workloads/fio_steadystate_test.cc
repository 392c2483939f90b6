// steadystate / ss, ss_dur, ss_ramp (fio 3.33 steadystate.c): once a
// second the IOPS and bandwidth go into a ring of ss_dur samples; a job
// whose ring meets the criterion ends. On a RAM disk with a fixed latency
// the figures are steady, so the times are exact. The report's keys and
// line are real fio's (tests/workloads/golden/steadystate/).
#include <gtest/gtest.h>

#include <regex>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/steadystate.h"

namespace storlab::fio {
namespace fio_steadystate_test {

using testing::RamStack;
using testing::ReadGolden;
using testing::Split;

const std::string kJob =
    "--name=ss --rw=randread --bs=4k --size=64m --direct=1 --time_based --runtime=30 ";

double Seconds(const testing::Sim& s, size_t job = 0) {
  const auto& e = s.run->runners()[job]->extras();
  return (e.end - e.start).seconds();
}

TEST(FioSteadyStateTest, ParsesFiosCriteria) {
  auto c = ParseSteadyState("iops_slope:0.01%");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->iops && c->slope && c->pct);
  EXPECT_DOUBLE_EQ(c->limit, 0.01);
  c = ParseSteadyState("bw:1m");
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->iops || c->slope || c->pct);
  EXPECT_DOUBLE_EQ(c->limit, 1024.0 * 1024);
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "ss", "iops", true, "s.fio:5").message(),
            "s.fio:5: option 'steadystate': steadystate threshold must be specified in addition "
            "to criterion (e.g. iops_slope:0.01%)");
  EXPECT_EQ(ApplyOption(&o, "steadystate", "lat:5%", true, "s.fio:6").message(),
            "s.fio:6: option 'steadystate': 'lat' is not one of iops, iops_slope, bw, bw_slope");
  EXPECT_FALSE(ApplyOption(&o, "ss_dur", "soon", true, "s.fio:7").ok());
}

TEST(FioSteadyStateTest, SteadyIopsEndTheJobAfterSsDur) {
  auto s = testing::RunArgs(RamStack("100us"), Split(kJob + "--ss=iops:1% --ss_dur=5"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_NEAR(Seconds(s), 5.0, 0.01);  // five samples, one a second: attained
  const auto j = s.JsonObject()["jobs"][0];
  ASSERT_TRUE(j.contains("steadystate"));
  const auto& ss = j["steadystate"];
  EXPECT_EQ(ss["attained"], 1);
  EXPECT_EQ(ss["duration"], 5);
  EXPECT_EQ(ss["ss"], "iops:1.000000%");
  EXPECT_EQ(ss["data"]["iops"].size(), 5u);
  const double iops = ss["data"]["iops_mean"].get<double>();
  EXPECT_GT(iops, 9000);
  EXPECT_LT(iops, 10001);  // 100 µs a read
  // The same keys, in fio's order, as real fio's.
  auto fio = nlohmann::ordered_json::parse(ReadGolden("steadystate/ss_iops.json"))["jobs"][0];
  auto keys = [](const nlohmann::ordered_json& o) {
    std::vector<std::string> k;
    for (auto it = o.begin(); it != o.end(); ++it) k.push_back(it.key());
    return k;
  };
  EXPECT_EQ(keys(j["steadystate"]), keys(fio["steadystate"]));
  EXPECT_EQ(keys(j["steadystate"]["data"]), keys(fio["steadystate"]["data"]));
  EXPECT_EQ(keys(j).back(), "steadystate");
}

TEST(FioSteadyStateTest, SlopeRampAndTheNormalLine) {
  // ss_ramp=3: samples from 4 s on, five of them: attained at 8 s.
  auto s = testing::RunArgs(RamStack("100us"),
                            Split(kJob + "--ss=bw_slope:0.5% --ss_dur=5 --ss_ramp=3"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_NEAR(Seconds(s), 8.0, 0.01);
  const std::regex shape(
      R"(  steadystate  : attained=(yes|no), bw=[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s\), iops=[0-9.]+k?, (iops|bw) (slope|mean dev)=-?[0-9]+\.[0-9]{3}%?)");
  auto line = [](const std::string& text) {
    size_t p = text.find("  steadystate  :");
    return p == std::string::npos ? "" : text.substr(p, text.find('\n', p) - p);
  };
  const std::string fio = line(ReadGolden("steadystate/ss_bw.txt"));
  const std::string ours = line(s.Normal());
  EXPECT_TRUE(std::regex_match(fio, shape)) << fio;
  EXPECT_TRUE(std::regex_match(ours, shape)) << ours;
  EXPECT_NE(ours.find("attained=yes"), std::string::npos);
  EXPECT_NE(ours.find("bw slope="), std::string::npos);
}

TEST(FioSteadyStateTest, NotAttainedRunsItsCourse) {
  // A deviation under 0% is never met: the job runs to its runtime.
  auto s = testing::RunArgs(RamStack("100us"),
                            Split("--name=ss --rw=randread --bs=4k --size=64m --direct=1 "
                                  "--time_based --runtime=7 --ss=iops:0% --ss_dur=3"));
  ASSERT_TRUE(s.status.ok());
  EXPECT_NEAR(Seconds(s), 7.0, 0.01);
  EXPECT_EQ(s.JsonObject()["jobs"][0]["steadystate"]["attained"], 0);
  // Without ss_dur nothing is checked and nothing is reported.
  auto off = testing::RunArgs(RamStack("100us"), Split(kJob + "--runtime=2 --ss=iops:50%"));
  EXPECT_FALSE(off.JsonObject()["jobs"][0].contains("steadystate"));
  EXPECT_EQ(off.Normal().find("steadystate"), std::string::npos);
}

TEST(FioSteadyStateTest, AGroupIsJudgedAsOneAndEndsTogether) {
  auto s = testing::RunArgs(RamStack("100us"),
                            Split(kJob + "--numjobs=2 --group_reporting --ss=iops:1% --ss_dur=4"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_NEAR(Seconds(s, 0), 4.0, 0.01);
  EXPECT_NEAR(Seconds(s, 1), 4.0, 0.01);
  const auto ss = s.JsonObject()["jobs"][0]["steadystate"];
  EXPECT_GT(ss["data"]["iops_mean"].get<double>(), 18000);  // the two jobs' sum
}

}  // namespace fio_steadystate_test
}  // namespace storlab::fio
