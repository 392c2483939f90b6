// The seed table machinery: cells, the runner, the explanation computed from
// the stats, CSV and the gnuplot chart.
#include "workloads/demo.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "workloads/demo_plot.h"
#include "workloads/fio/job_file.h"
#include "workloads/fio/job_spec.h"

namespace storlab::demo {
namespace demo_test {

std::string TempDir() {
  std::string dir = ::testing::TempDir() + "storlab_demo_test";
  std::filesystem::create_directories(dir);
  return dir;
}

// A NAS-like stack: a 117.7 MB/s device behind the host page cache, on a
// host whose dirty limits hold all of test B's 4 GiB (64 GiB of RAM), so a
// short run shows the inflation a 60 s run shows with less RAM.
std::string SlowStackFile() {
  std::string path = TempDir() + "/slow.toml";
  std::ofstream(path) << "[host]\nmem = \"64GiB\"\n"
                         "[node.link]\ntype = \"link\"\nkind = \"ethernet-1g\"\nchild = \"disk\"\n"
                         "[node.disk]\ntype = \"ram\"\ncapacity = \"64GiB\"\n";
  return path;
}

DemoOptions Quick(std::vector<Cell> cells) {
  DemoOptions o;
  o.cells = std::move(cells);
  o.jobs_dir = STORLAB_JOBS_DIR;
  o.runtime = Nanos(3'000'000'000);
  o.threads = 2;
  return o;
}

TEST(DemoTest, TheTwelvePublishedCells) {
  const auto& cells = SeedCells();
  ASSERT_EQ(cells.size(), 12u);
  EXPECT_EQ(cells[5].test, 'B');
  EXPECT_EQ(cells[5].option, "nas");
  EXPECT_EQ(cells[5].published_mbps, 4897);
  double sum = 0;
  for (const auto& c : cells) sum += c.published_mbps;
  EXPECT_DOUBLE_EQ(sum,
                   430 + 17.9 + 80.6 + 75.7 + 2328 + 4897 + 267 + 135 + 651 + 70.7 + 379 + 195);
}

// The job files are the seed's commands, option for option (they were once
// mangled by a formatter that took them for C++; this catches it).
TEST(DemoTest, TheSeedJobFilesAreThePublishedCommands) {
  struct Want {
    const char* file;
    uint64_t bs, size;
    size_t jobs;
    uint32_t iodepth;
  };
  for (const Want& w :
       {Want{"seed-a.fio", 4096, 4ull << 30, 1, 1}, Want{"seed-b.fio", 65536, 256ull << 20, 16, 16},
        Want{"seed-c.fio", 1 << 20, 16ull << 30, 1, 1}}) {
    SCOPED_TRACE(w.file);
    std::string path = STORLAB_JOBS_DIR;
    path.append("/").append(w.file);
    auto sections = fio::ParseJobFile(path, fio::ProcessEnv());
    ASSERT_TRUE(sections.ok()) << sections.status().ToString();
    auto set = fio::BuildJobs(*sections, 1);
    ASSERT_TRUE(set.ok()) << set.status().ToString();
    ASSERT_EQ(set->jobs.size(), w.jobs);
    for (const fio::JobSpec& j : set->jobs) {
      EXPECT_EQ(j.name, "random-write");
      EXPECT_TRUE(j.do_write && !j.do_read && j.random);
      EXPECT_EQ(j.max_bs(1), w.bs);
      EXPECT_EQ(j.file_size, w.size);
      EXPECT_EQ(j.iodepth, w.iodepth);
      EXPECT_EQ(j.engine, fio::EngineKind::kPosixaio);
      EXPECT_FALSE(j.direct);
      EXPECT_TRUE(j.opts.time_based);
      EXPECT_TRUE(j.opts.end_fsync);
      EXPECT_EQ(j.opts.runtime, Nanos(60'000'000'000));
    }
  }
}

TEST(DemoTest, AnInflatedCellIsExplainedFromItsOwnStats) {
  auto results = RunDemo(Quick({{'B', "nas", SlowStackFile(), 4897}}), nullptr);
  ASSERT_EQ(results.size(), 1u);
  const CellResult& r = results[0];
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_NEAR(r.limit_mbps, 117.7, 1.0);  // the 1GbE link's payload rate
  EXPECT_GT(r.simulated_mbps, 2 * r.limit_mbps);
  EXPECT_TRUE(r.flagged);
  for (const char* part : {"fio counted", "crossed link 'link'", "host page cache absorbed",
                           "rewrote pages that were still dirty", "end_fsync ran for"}) {
    EXPECT_NE(r.explanation.find(part), std::string::npos) << part << "\n" << r.explanation;
  }
  std::string report = DemoReport(results);
  EXPECT_NE(report.find("B/nas: fio counted"), std::string::npos);
}

TEST(DemoTest, AnNfsMountIsLimitedByItsLinkAndExplainedFromItsRpcs) {
  DemoOptions o = Quick({{'B', "nas", "nfs-1gbe", 4897}});
  o.host_mem = kSeedHostMem;
  auto results = RunDemo(o, nullptr);
  const CellResult& r = results[0];
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_NEAR(r.limit_mbps, 117.7, 0.5);  // 1448 of every 1538 bytes of 1 Gb/s
  EXPECT_TRUE(r.flagged);
  for (const char* part : {"crossed the network to the NFS server 'nfs'", "WRITE RPCs",
                           "COMMITs took", "The dirty limits never throttled the writers"}) {
    EXPECT_NE(r.explanation.find(part), std::string::npos) << part << "\n" << r.explanation;
  }
}

// The NVMe option's node is a stack file beside the job files; a bare name
// resolves there.
TEST(DemoTest, TheSeedNvmeNodeLoadsFromTheJobsDirectory) {
  auto results = RunDemo(Quick({{'A', "nvme", "seed-nvme-node.toml", 430}}), nullptr);
  ASSERT_TRUE(results[0].status.ok()) << results[0].status.ToString();
  EXPECT_GT(results[0].simulated_mbps, 0);
}

TEST(DemoTest, MissingStacksAndDirectIoAreReportedHonestly) {
  auto results = RunDemo(Quick({{'A', "none", "no-such-stack", 1}}), nullptr);
  EXPECT_FALSE(results[0].status.ok());
  std::string report = DemoReport(results);
  EXPECT_NE(report.find("0 of 0 cells run"), std::string::npos);
  EXPECT_NE(report.find("1 did not run"), std::string::npos);
  EXPECT_EQ(DemoCsv(results), "test,option,published_mbps,simulated_mbps,ratio\nA,none,1,,\n");
}

TEST(DemoTest, ResultsDoNotDependOnTheThreadCount) {
  std::vector<Cell> cells = {{'A', "x", SlowStackFile(), 17.9}, {'C', "x", SlowStackFile(), 70.7}};
  DemoOptions one = Quick(cells), two = Quick(cells);
  one.threads = 1;
  // 1 s of each job, not 3: whether one thread or two run the cells
  // cannot depend on how long each cell runs, and each still measures.
  one.runtime = two.runtime = Nanos(1'000'000'000);
  auto a = RunDemo(one, nullptr), b = RunDemo(two, nullptr);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_GT(a[i].simulated_mbps, 0) << i;
    EXPECT_EQ(a[i].simulated_mbps, b[i].simulated_mbps);
    EXPECT_EQ(a[i].explanation, b[i].explanation);
  }
  std::string csv = DemoCsv(a);
  EXPECT_EQ(csv.rfind("test,option,published_mbps,simulated_mbps,ratio\nA,x,17.9,", 0), 0u) << csv;
}

TEST(DemoPlotTest, GnuplotDrawsPngAndSvg) {
  std::vector<CellResult> results(2);
  results[0].cell = {'A', "nvme", "nvme-gen3", 430};
  results[0].simulated_mbps = 400;
  results[1].cell = {'B', "nas", "nas", 4897};
  results[1].status = Status::NotFound("missing");
  std::string data = PlotData(results);
  EXPECT_NE(data.find("\"A nvme\" 430.000 400.000000"), std::string::npos) << data;
  EXPECT_NE(data.find("\"B nas\" 4897.000 NaN"), std::string::npos);
  std::string script = PlotScript("d.dat", "o.png", "o.svg");
  EXPECT_NE(script.find("set terminal pngcairo"), std::string::npos);
  EXPECT_NE(script.find("set terminal svg"), std::string::npos);
  EXPECT_EQ(GnuplotString("it's"), "'it''s'");
  if (PreparePlotDir(TempDir()).code() == Status::Code::kNotFound) GTEST_SKIP() << "no gnuplot";
  std::string dir = TempDir() + "/plot";
  ASSERT_TRUE(WritePlot(dir, results).ok());
  EXPECT_TRUE(std::ifstream(dir + "/seed-table.png").good());
  EXPECT_TRUE(std::ifstream(dir + "/seed-table.svg").good());
}

// `storlab demo --plot "x'; touch PWNED; echo '"` ran the command: the
// directory went into system("mkdir -p '...'") and gnuplot's command line.
// A name with quotes, spaces, $(...) and a newline is only a name now.
TEST(DemoPlotTest, DirectoryNamesAreNeverRunAsCommands) {
  std::vector<CellResult> results(1);
  results[0].cell = {'A', "nvme", "nvme-gen3", 430};
  results[0].simulated_mbps = 400;
  const std::string base = TempDir() + "/hostile";
  std::filesystem::remove_all(base);
  std::filesystem::create_directories(base);
  const std::string name = "x'; touch PWNED; echo '\n\"y\" $(touch PWNED2) `touch PWNED3`";
  const std::string dir = base + "/" + name + "/sub dir";
  Status st = WritePlot(dir, results);
  if (st.code() == Status::Code::kNotFound) GTEST_SKIP() << "no gnuplot";
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(std::filesystem::exists(dir + "/seed-table.png"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/seed-table.svg"));
  for (const auto& e : std::filesystem::recursive_directory_iterator(base)) {
    const std::string f = e.path().filename().string();
    EXPECT_TRUE(f != "PWNED" && f != "PWNED2" && f != "PWNED3") << e.path();
  }
  for (const char* f : {"PWNED", "PWNED2", "PWNED3"}) {
    EXPECT_FALSE(std::filesystem::exists(f)) << f << " was created: a shell ran";
  }
}

}  // namespace demo_test
}  // namespace storlab::demo
