// I/O priorities (cmdprio.h): prio=/prioclass= (backend.c td->ioprio) and
// the libaio/io_uring cmdprio_* options (engines/cmdprio.c): what each I/O
// carries, how bad values are refused, and the logs' priority column.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/cmdprio.h"

namespace storlab::fio {
namespace fio_cmdprio_test {

Result<JobSet> Build(const std::string& args) {
  auto sections = ParseCommandLine(testing::Split("--name=p --size=1m " + args));
  if (!sections.ok()) return sections.status();
  return BuildJobs(*sections, 1);
}

CmdPrio Prio(const std::string& args) {
  auto jobs = Build(args);
  EXPECT_TRUE(jobs.ok()) << jobs.status().message();
  return jobs->jobs.at(0).cmdprio;
}

TEST(FioCmdprioTest, JobPriorityAndAShareOfIos) {
  // prioclass=3 (idle), prio 0: 0x6000; prio=7 alone is best effort.
  EXPECT_EQ(Prio("--prioclass=3").job_prio(), 0x6000u);
  EXPECT_EQ(Prio("--prio=7").job_prio(), 0x4007u);
  EXPECT_EQ(Prio("").job_prio(), 0u);

  // cmdprio-percentage.fio: 20 % of the reads RT (class 1, level 0).
  CmdPrio c = Prio("--rw=randread --ioengine=libaio --prioclass=3 --cmdprio_percentage=20");
  Taus88 rng(7);
  int rt = 0;
  for (int i = 0; i < 10000; ++i) rt += c.Pick(0, 4096, rng) == 0x2000u;
  EXPECT_GT(rt, 1800);
  EXPECT_LT(rt, 2200);
  EXPECT_EQ(c.Pick(1, 4096, rng), 0x6000u);  // writes: no share (the job does none)

  // cmdprio-bssplit.fio's advanced form: 64k reads 25 % 1/1, 75 % 3/2.
  CmdPrio b = Prio(
      "--rw=randrw --ioengine=libaio --bssplit=64k/40:1024k/60,1024k/100 "
      "--cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0 --prioclass=2 --prio=7");
  int c11 = 0, c32 = 0;
  for (int i = 0; i < 10000; ++i) {
    const uint32_t p = b.Pick(0, 65536, rng);
    c11 += p == 0x2001u;
    c32 += p == 0x6002u;
  }
  EXPECT_EQ(c11 + c32, 10000);
  EXPECT_GT(c11, 2300);
  EXPECT_LT(c11, 2700);
  EXPECT_EQ(b.Pick(0, 1 << 20, rng), 0x4007u);  // 1024k/0: the job's own
  EXPECT_EQ(b.Pick(1, 1 << 20, rng), 0x4007u);
}

TEST(FioCmdprioTest, BadValuesAreErrorsNamingTheOption) {
  auto e = [](const std::string& args) {
    auto j = Build("--ioengine=libaio " + args);
    EXPECT_FALSE(j.ok()) << args;
    return j.ok() ? std::string() : j.status().message();
  };
  EXPECT_NE(e("--cmdprio_percentage=101").find("option 'cmdprio_percentage'"), std::string::npos);
  EXPECT_NE(e("--cmdprio_class=0").find("option 'cmdprio_class'"), std::string::npos);
  EXPECT_NE(e("--prio=8").find("option 'prio'"), std::string::npos);
  EXPECT_NE(e("--cmdprio_bssplit=64k/50/1").find("invalid cmdprio_bssplit format"),
            std::string::npos);
  EXPECT_NE(e("--cmdprio_bssplit=64k/60:64k/50").find("exceeds 100"), std::string::npos);
  // A value's control bytes are escaped in the message (found by fio_fuzz).
  const std::string esc = e("--cmdprio_bssplit=64k/50/1/\x1b[2J");
  EXPECT_NE(esc.find("\\x1B[2J"), std::string::npos) << esc;
  EXPECT_EQ(esc.find('\x1b'), std::string::npos) << esc;
  EXPECT_NE(e("--cmdprio_bssplit=64k/60 --cmdprio_percentage=5").find("mutually exclusive"),
            std::string::npos);
  auto psync = Build("--ioengine=psync --cmdprio_percentage=5");
  EXPECT_NE(psync.status().message().find("options of ioengine=libaio and io_uring"),
            std::string::npos);
}

TEST(FioCmdprioTest, LogsCarryEachIosPriority) {
  testing::TempDir dir;
  auto s = testing::RunArgs(
      testing::RamStack(),
      testing::Split("--name=p --filename=/dev/sdb --size=256k --bs=4k --rw=randread --direct=1 "
                     "--ioengine=libaio --iodepth=4 --prioclass=3 --cmdprio_percentage=50 "
                     "--write_lat_log=p --log_prio=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  ASSERT_TRUE(s.run->runners()[0]->logs()->Write(dir.path).ok());
  std::ifstream in(dir.path + "/p_lat.1.log");
  std::string line;
  int rt = 0, idle = 0;
  while (std::getline(in, line)) {
    rt += line.find(", 0x2000") != std::string::npos;
    idle += line.find(", 0x6000") != std::string::npos;
  }
  EXPECT_EQ(rt + idle, 64);
  EXPECT_GT(rt, 16);
  EXPECT_GT(idle, 16);
}

// stat.c add_ddir_status_json() / show_ddir_status(): the completion
// latencies of each priority, as fio 3.33 prints them when two priorities
// have samples: the job's first (engines/cmdprio.c: index 0), then cmdprio's.
TEST(FioCmdprioTest, PerPriorityLatencies) {
  auto s = testing::RunArgs(testing::RamStack(),
                            testing::Split("--name=p --size=1m --rw=randread --bs=4k "
                                           "--ioengine=libaio --iodepth=4 --prioclass=3 "
                                           "--cmdprio_percentage=30 --direct=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const DirStat& d = s.Job(0).dir[kRead];
  ASSERT_EQ(d.prios.size(), 2u);
  EXPECT_EQ(d.prios[0].ioprio, 0x6000u);
  EXPECT_EQ(d.prios[1].ioprio, 0x2000u);
  EXPECT_EQ(d.prios[0].lat.samples() + d.prios[1].lat.samples(), 256u);
  EXPECT_GT(d.prios[1].lat.samples(), 50u);
  auto j = s.JsonObject()["jobs"][0]["read"];
  ASSERT_TRUE(j.contains("prios"));
  ASSERT_EQ(j["prios"].size(), 2u);
  EXPECT_EQ(j["prios"][0]["prioclass"], 3);
  EXPECT_EQ(j["prios"][0]["prio"], 0);
  EXPECT_EQ(j["prios"][1]["prioclass"], 1);
  EXPECT_EQ(j["prios"][1]["clat_ns"]["N"], d.prios[1].lat.samples());
  EXPECT_TRUE(j["prios"][1]["clat_ns"].contains("percentile"));
  // fio's key order: prios after lat_ns, before bw_min.
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  auto at = std::find(keys.begin(), keys.end(), "prios");
  ASSERT_NE(at, keys.end());
  EXPECT_EQ(*(at - 1), "lat_ns");
  EXPECT_EQ(*(at + 1), "bw_min");
  const std::string normal = s.Normal();
  EXPECT_NE(normal.find("    clat prio 3/0 ("), std::string::npos) << normal;
  EXPECT_NE(normal.find("    clat prio 1/0 ("), std::string::npos) << normal;
  EXPECT_NE(normal.find("% of IOs) percentiles ("), std::string::npos) << normal;
  // lat_percentiles: the total latencies, under lat_ns.
  auto l = testing::RunArgs(testing::RamStack(),
                            testing::Split("--name=p --size=1m --rw=randread --bs=4k "
                                           "--ioengine=libaio --cmdprio_percentage=30 "
                                           "--lat_percentiles=1"));
  ASSERT_TRUE(l.status.ok());
  auto lj = l.JsonObject()["jobs"][0]["read"]["prios"];
  EXPECT_EQ(lj[0]["prioclass"], 0);
  EXPECT_TRUE(lj[0].contains("lat_ns"));
  // No cmdprio, or a single priority with samples: no prios.
  auto n = testing::RunArgs(testing::RamStack(),
                            testing::Split("--name=p --size=1m --rw=randread --ioengine=libaio"));
  EXPECT_FALSE(n.JsonObject()["jobs"][0]["read"].contains("prios"));
  auto w = testing::RunArgs(testing::RamStack(),
                            testing::Split("--name=p --size=1m --rw=randread --ioengine=libaio "
                                           "--cmdprio_percentage=0,50"));
  EXPECT_FALSE(w.JsonObject()["jobs"][0]["read"].contains("prios"));
  EXPECT_TRUE(w.Job(0).dir[kRead].prios.empty());
}

}  // namespace fio_cmdprio_test
}  // namespace storlab::fio
