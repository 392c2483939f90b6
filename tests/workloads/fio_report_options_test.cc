// The reporting options against real fio 3.33's outputs for the same job
// (tests/workloads/golden/report/, README.md there): unified_rw_reporting
// (none, mixed, both and the aliases), stats, disk_util, kb_base,
// unit_base, significant_figures — keys, fields and line layout compared,
// not values — and bwavgtime/iopsavgtime (the sample windows) and
// log_unix_epoch (the logs' time base).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_report_options_test {

using testing::RamStack;
using testing::ReadGolden;
using testing::RunArgs;
using testing::Split;

// The job shape of the golden files (their README gives fio's command).
const char kJob[] =
    "--directory=/tmp/fiox/g --ioengine=libaio --direct=1 --iodepth=4 --size=16m --rw=randrw "
    "--bs=4k --runtime=2 --time_based";

testing::Sim RunJob(const std::string& args) {
  auto s = RunArgs(RamStack("100us", "4GiB", 32), Split(args));
  EXPECT_TRUE(s.status.ok()) << s.status.ToString();
  return s;
}

std::set<std::string> Keys(nlohmann::json j) {
  j.erase("storlab");
  std::set<std::string> k;
  testing::KeyPaths(j, "", &k);
  return k;
}

void ExpectSameKeys(const testing::Sim& s, const std::string& golden) {
  auto ours = Keys(nlohmann::json::parse(s.Json()));
  auto fio = Keys(nlohmann::json::parse(ReadGolden(golden)));
  for (const auto& k : ours) EXPECT_TRUE(fio.count(k)) << golden << ": only ours: " << k;
  for (const auto& k : fio) EXPECT_TRUE(ours.count(k)) << golden << ": only fio's: " << k;
}

// A normal-output line with its numbers (and their unit prefixes) folded:
// "BW=65.1MiB/s (68.2MB/s)" -> "BW=NB/s (NB/s)". Latency buckets,
// percentile rows, layout and device lines depend on the values only.
std::vector<std::string> Layout(const std::string& text) {
  static const std::regex kNum("[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)?");
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("  lat (", 0) == 0 || line.rfind("     |", 0) == 0) continue;
    if (line.find("Laying out IO file") != std::string::npos) continue;
    if (line.find(": ios=") != std::string::npos) continue;
    line = std::regex_replace(line, std::regex("\\((n|u|m)sec\\)"), "(T)");
    line = std::regex_replace(line, std::regex("pid=[0-9]+: .*"), "pid=P: DATE");
    line = std::regex_replace(line, kNum, "N");
    out.push_back(std::regex_replace(line, std::regex("= +N"), "=N"));  // %5.02f's padding
  }
  return out;
}

void ExpectSameLayout(const testing::Sim& s, const std::string& golden) {
  auto ours = Layout(s.Normal()), fio = Layout(ReadGolden(golden));
  ASSERT_EQ(ours.size(), fio.size()) << s.Normal();
  for (size_t i = 0; i < ours.size(); ++i) EXPECT_EQ(ours[i], fio[i]) << golden << " line " << i;
}

// A terse line's fields with their numbers folded ("12.5%" -> "N%").
std::vector<std::string> TerseShape(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string f;
  while (std::getline(in, f, ';')) {
    f = std::regex_replace(f, std::regex("-?nan"), "N");
    out.push_back(std::regex_replace(f, std::regex("[0-9]+(\\.[0-9]+)?"), "N"));
  }
  return out;
}

void ExpectSameTerse(const std::string& ours, const std::string& golden) {
  std::istringstream a(ours), b(ReadGolden(golden));
  std::string la, lb;
  int lines = 0;
  while (std::getline(b, lb)) {
    ASSERT_TRUE(std::getline(a, la)) << golden;
    auto fa = TerseShape(la), fb = TerseShape(lb);
    // The device's name is the host's (vda) or the stack's root node.
    ASSERT_EQ(fa.size(), fb.size()) << golden << " line " << lines;
    for (size_t i = 0; i < fa.size(); ++i) {
      if (fb[i] == "vda") continue;
      EXPECT_EQ(fa[i], fb[i]) << golden << " field " << i;
    }
    ++lines;
  }
  EXPECT_FALSE(std::getline(a, la)) << golden << ": more lines than fio's";
}

TEST(FioUnifiedRwTest, MixedIsOneDirectionAsFiosIs) {
  auto s = RunJob(std::string("--name=u ") + kJob + " --unified_rw_reporting=mixed");
  ExpectSameKeys(s, "report/unified_mixed.json");
  ExpectSameLayout(s, "report/unified_mixed.txt");
  ExpectSameTerse(FioTerseReport(*s.run, 3), "report/unified_mixed.terse");
  // The sum of both directions, in the read slot.
  auto j = s.JsonObject()["jobs"][0];
  const ThreadStat& job = s.Job(0);
  EXPECT_EQ(j["mixed"]["total_ios"].get<uint64_t>(),
            job.dir[kRead].total_ios + job.dir[kWrite].total_ios);
  EXPECT_NE(s.Normal().find("  MIXED: bw="), std::string::npos);
  // "1" is fio's alias.
  auto one = RunJob(std::string("--name=u ") + kJob + " --unified_rw_reporting=1");
  EXPECT_EQ(FioTerseReport(*one.run, 3), FioTerseReport(*s.run, 3));
}

TEST(FioUnifiedRwTest, BothAddsTheMixedStatusWithFiosQuirk) {
  auto s = RunJob(std::string("--name=u ") + kJob + " --unified_rw_reporting=both");
  ExpectSameKeys(s, "report/unified_both.json");
  ExpectSameLayout(s, "report/unified_both.txt");
  ExpectSameTerse(FioTerseReport(*s.run, 3), "report/unified_both.terse");
  // fio's mixed copy has no units or significant figures.
  EXPECT_NE(s.Normal().find("  mixed: IOPS=0, BW=0 (0)(0B/2001msec)\n"), std::string::npos)
      << s.Normal();
  auto j = s.JsonObject()["jobs"][0];
  EXPECT_EQ(j["mixed"]["io_bytes"].get<uint64_t>(),
            j["read"]["io_bytes"].get<uint64_t>() + j["write"]["io_bytes"].get<uint64_t>());
  auto two = RunJob(std::string("--name=u ") + kJob + " --unified_rw_reporting=2");
  EXPECT_EQ(FioTerseReport(*two.run, 3), FioTerseReport(*s.run, 3));
}

TEST(FioUnifiedRwTest, NoneAndZeroChangeNothing) {
  auto plain = RunJob(std::string("--name=u ") + kJob);
  for (const char* v : {"none", "0"}) {
    auto s = RunJob(std::string("--name=u ") + kJob + " --unified_rw_reporting=" + v);
    EXPECT_EQ(s.Normal(), plain.Normal()) << v;
    EXPECT_EQ(FioTerseReport(*s.run, 3), FioTerseReport(*plain.run, 3)) << v;
  }
}

TEST(FioStatsTest, ANoStatsJobLeavesFiosEmptySlot) {
  auto s = RunJob(std::string("--name=a ") + kJob + " --stats=0 --name=b " + kJob);
  ExpectSameKeys(s, "report/stats0.json");
  ExpectSameTerse(FioTerseReport(*s.run, 3), "report/stats0.terse");
  auto jobs = s.JsonObject()["jobs"];
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0]["jobname"], "b");
  EXPECT_FALSE(jobs[1].contains("jobname"));
  EXPECT_EQ(jobs[1]["groupid"].get<uint64_t>(), 4294967295u);
  EXPECT_EQ(s.Normal().find("a: (groupid"), std::string::npos);
  // The job still ran: stats=0 only leaves it out of the reports.
  EXPECT_GT(s.Job(0).dir[kRead].total_ios, 0u);
  // With group_reporting there is no empty slot.
  auto g =
      RunJob(std::string("--group_reporting --name=a ") + kJob + " --stats=0 --name=b " + kJob);
  EXPECT_EQ(g.JsonObject()["jobs"].size(), 1u);
}

TEST(FioDiskUtilTest, ZeroLeavesTheDiskOut) {
  auto s = RunJob(std::string("--name=d ") + kJob + " --disk_util=0");
  ExpectSameKeys(s, "report/disk_util0.json");
  ExpectSameTerse(FioTerseReport(*s.run, 3), "report/disk_util0.terse");
  EXPECT_EQ(s.Normal().find("Disk stats"), std::string::npos);
}

TEST(FioUnitsTest, KbBaseUnitBaseAndFiguresAsFios) {
  auto s = RunJob(std::string("--name=k ") + kJob +
                  " --kb_base=1000 --unit_base=1 --significant_figures=6");
  ExpectSameLayout(s, "report/units_kb1000_bit_sf6.txt");
  const std::string n = s.Normal();
  EXPECT_NE(n.find("bit/s ("), std::string::npos) << n;
  EXPECT_NE(n.find("   bw (   kB/s): "), std::string::npos) << n;
  auto one = RunJob(std::string("--name=k ") + kJob + " --significant_figures=1");
  EXPECT_NE(one.Normal().find("bs=(R) 4KiB-4KiB"), std::string::npos) << one.Normal();
}

// parse.c __get_mult_bytes(): with kb_base=1000 "1m" is 10^6 bytes and
// "1MiB" 2^20; a job file applies kb_base first (options.c .prio = 1), a
// command line in order. Real fio, ioengine=null bs=4k: 244 reads, 256,
// and 256 with --size=1m before --kb_base=1000.
TEST(FioUnitsTest, KbBaseReadsSizes) {
  auto ios = [](const std::string& args) {
    auto s = RunJob("--name=x --ioengine=null " + args);
    return s.status.ok() ? s.Job(0).dir[kRead].total_ios : 0;
  };
  EXPECT_EQ(ios("--kb_base=1000 --size=1m"), 244u);
  EXPECT_EQ(ios("--kb_base=1000 --size=1MiB"), 256u);
  EXPECT_EQ(ios("--size=1m --kb_base=1000"), 256u);
  auto sections =
      ParseJobText("[x]\nioengine=null\nsize=1m\nkb_base=1000\n", "kb.fio", ".", ProcessEnv());
  ASSERT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  EXPECT_EQ(jobs->jobs[0].opts.size, 1000000u);
  EXPECT_EQ(jobs->jobs[0].opts.echo.front().first, "kb_base");  // fio's echo order
  // bssplit= and bsrange= too: real fio's write_iolog shows only 1000- and
  // 2000-byte reads for 1k/50:2k/50 and for 1k-2k.
  for (const char* bs : {"--bssplit=1k/50:2k/50", "--bsrange=1k-2k"}) {
    auto s = RunJob(std::string("--name=x --ioengine=null --size=1m --rw=randread --kb_base=1000 "
                                "--number_ios=64 ") +
                    bs);
    ASSERT_TRUE(s.status.ok());
    EXPECT_EQ(s.run->jobs().jobs[0].sizes[kRead].min, 1000u) << bs;
    EXPECT_EQ(s.run->jobs().jobs[0].sizes[kRead].max, 2000u) << bs;
  }
}

// Real fio 3.33, ioengine=null rate_iops=1000 for 2 s: 3 bw and 3 IOPS
// samples by default, 7 with bwavgtime=250, 1 with iopsavgtime=1000.
TEST(FioAvgTimeTest, WindowsSetTheSamples) {
  const std::string job =
      "--name=b --ioengine=null --size=1g --rw=read --bs=4k --rate_iops=1000 --runtime=2 "
      "--time_based";
  auto plain = RunJob(job);
  auto s = RunJob(job + " --bwavgtime=250 --iopsavgtime=1000");
  EXPECT_EQ(plain.Job(0).dir[kRead].bw.samples, 3u);
  EXPECT_EQ(plain.Job(0).dir[kRead].iops.samples, 3u);
  EXPECT_EQ(s.Job(0).dir[kRead].bw.samples, 7u);
  EXPECT_EQ(s.Job(0).dir[kRead].iops.samples, 1u);
  EXPECT_EQ(s.Job(0).dir[kRead].iops.min, 1000u);
  EXPECT_EQ(s.Job(0).dir[kRead].bw.min, 4000u);  // 250 I/Os of 4 KiB in 250 ms
}

TEST(FioLogEpochTest, UnixEpochCountsFromTheSimulatedClocksStart) {
  testing::TempDir dir;
  const std::string job =
      "--name=e --ioengine=null --size=64k --rw=read --bs=4k --startdelay=3 --write_bw_log=e";
  auto plain = RunJob(job);
  auto unix_epoch = RunJob(job + " --log_unix_epoch=1");
  auto alt = RunJob(job + " --log_alternate_epoch=1 --log_alternate_epoch_clock_id=1");
  std::vector<std::string> first;
  for (auto* s : {&plain, &unix_epoch, &alt}) {
    ASSERT_TRUE(s->run->runners()[0]->logs()->Write(dir.path).ok());
    std::ifstream in(dir.path + "/e_bw.1.log");
    std::string line;
    std::getline(in, line);
    first.push_back(line.substr(0, line.find(',')));
  }
  const uint64_t epoch_ms =
      static_cast<uint64_t>(plain.run->runners()[0]->extras().epoch.count() / 1000000);
  EXPECT_GE(epoch_ms, 3000u);
  EXPECT_EQ(std::stoull(first[1]), std::stoull(first[0]) + epoch_ms);
  EXPECT_EQ(first[2], first[1]);
}

TEST(FioReportOptionsTest, BadValuesNameTheOptionAndChangeNothing) {
  struct Bad {
    const char* option;
    const char* value;
  };
  for (const Bad& b :
       {Bad{"unified_rw_reporting", "some"}, Bad{"stats", "maybe"}, Bad{"kb_base", "1001"},
        Bad{"unit_base", "2"}, Bad{"significant_figures", "11"}, Bad{"significant_figures", "0"},
        Bad{"bwavgtime", "0"}, Bad{"iopsavgtime", "x"}, Bad{"disk_util", "2"},
        Bad{"log_unix_epoch", "yes please"}, Bad{"log_alternate_epoch_clock_id", "12"}}) {
    JobOptions o;
    const JobOptions before = o;
    Status st = ApplyOption(&o, b.option, b.value, true, "job.fio:3");
    ASSERT_FALSE(st.ok()) << b.option << "=" << b.value;
    EXPECT_EQ(st.message().rfind(std::string("job.fio:3: option '") + b.option + "'", 0), 0u)
        << st.message();
    EXPECT_EQ(o.unified_rw_reporting, before.unified_rw_reporting);
    EXPECT_EQ(o.stats, before.stats);
    EXPECT_EQ(o.kb_base, before.kb_base);
    EXPECT_EQ(o.unit_base, before.unit_base);
    EXPECT_EQ(o.sig_figs, before.sig_figs);
    EXPECT_EQ(o.bwavgtime, before.bwavgtime);
    EXPECT_FALSE(o.bwavgtime_set);
    EXPECT_EQ(o.iopsavgtime, before.iopsavgtime);
    EXPECT_EQ(o.disk_util, before.disk_util);
    EXPECT_EQ(o.log_unix_epoch, before.log_unix_epoch);
    EXPECT_EQ(o.log_alternate_epoch_clock_id, before.log_alternate_epoch_clock_id);
    EXPECT_TRUE(o.echo.empty());
  }
  // In a job file the error names the job's line.
  auto sections =
      ParseJobText("[global]\nsize=1m\n[slow]\nbwavgtime=0\n", "job.fio", ".", ProcessEnv());
  ASSERT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  ASSERT_FALSE(jobs.ok());
  EXPECT_EQ(jobs.status().message().rfind("job.fio:4: option 'bwavgtime'", 0), 0u)
      << jobs.status().message();
}

}  // namespace fio_report_options_test
}  // namespace storlab::fio
