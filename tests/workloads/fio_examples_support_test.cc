// What fio's example job files need from storlab sim beyond the options:
// one-line reasons for the engines and options that have no meaning for a
// simulated stack (fio_no_meaning.h), and --max-runtime's cap on a job set
// (run_cap.h).
#include <gtest/gtest.h>

#include <string>

#include "workloads/fio/fio_known_options.h"
#include "workloads/fio/fio_no_meaning.h"
#include "workloads/fio/job_file.h"
#include "workloads/fio/job_spec.h"
#include "workloads/fio/options.h"
#include "workloads/fio/run_cap.h"

namespace storlab::fio {
namespace fio_examples_support_test {

using namespace time_literals;

std::string Error(const char* k, const char* v) {
  JobOptions o;
  Status st = ApplyOption(&o, k, v, true, "job.fio:2");
  EXPECT_FALSE(st.ok()) << k << "=" << v;
  return st.message();
}

TEST(FioNoMeaningTest, EnginesAndOptionsSayWhy) {
  EXPECT_EQ(Error("ioengine", "net"),
            "job.fio:2: option 'ioengine': 'net' has no meaning in storlab sim: network I/O over "
            "TCP/UDP sockets, no storage stack");
  EXPECT_EQ(Error("ioengine", "dev-dax"),
            "job.fio:2: option 'ioengine': 'dev-dax' has no meaning in storlab sim: device DAX: "
            "loads and stores to persistent memory, no block I/O");
  EXPECT_EQ(Error("numa_cpu_nodes", "0"),
            "job.fio:2: option 'numa_cpu_nodes' has no meaning in storlab sim: pins to host NUMA "
            "nodes; the simulated host has none");
  EXPECT_EQ(Error("ioengine", "sg"),
            "job.fio:2: option 'ioengine': 'sg' has no meaning in storlab sim: SCSI generic "
            "passthrough (SG_IO READ/WRITE/VERIFY/WRITE SAME CDBs to /dev/sg or /dev/sd): the "
            "simulated devices take block requests, they have no SCSI command set");
  // An engine over a local file that could be modelled is "not supported".
  EXPECT_EQ(Error("ioengine", "xnvme"),
            "job.fio:2: option 'ioengine': 'xnvme' (NVMe through xNVMe) is not supported by "
            "storlab sim");
  // The file system engines are modelled (job_runner_fileops.cc).
  for (const char* e : {"falloc", "ftruncate", "filecreate", "filestat", "filedelete", "pvsync",
                        "pvsync2", "vsync", "mmap", "splice"}) {
    JobOptions fo;
    EXPECT_TRUE(ApplyOption(&fo, "ioengine", e, true, "job.fio:2").ok()) << e;
  }
  // nrfiles has no limit of its own (filecreate-ioengine.fio asks for 31250).
  JobOptions o;
  EXPECT_TRUE(ApplyOption(&o, "nrfiles", "31250", true, "job.fio:2").ok());
}

// Every option listed as meaningless is one fio 3.33 has, that storlab sim
// does not implement, and its error gives the reason.
TEST(FioNoMeaningTest, EveryListedOptionIsFiosAndNotImplemented) {
  const std::vector<std::string_view> names = NoMeaningOptions();
  EXPECT_GE(names.size(), 55u);
  for (std::string_view n : names) {
    const std::string name(n);
    // nfs_url: the nfs engine's, which Debian's fio 3.33 is built without
    // (libnfs), so its --cmdhelp does not list it; nfs.fio uses it.
    if (name != "nfs_url") {
      EXPECT_TRUE(IsFioJobOption(n)) << name;
    }
    EXPECT_EQ(FindOption(n), nullptr) << name;
    EXPECT_NE(
        Error(name.c_str(), "1").find("option '" + name + "' has no meaning in storlab sim: "),
        std::string::npos)
        << name;
  }
  EXPECT_EQ(Error("hostname", "localhost"),
            "job.fio:2: option 'hostname' has no meaning in storlab sim: net/rdma engine option: "
            "a network peer, no storage stack");
  EXPECT_EQ(Error("clocksource", "cpu"),
            "job.fio:2: option 'clocksource' has no meaning in storlab sim: how fio reads the time "
            "of day: storlab's clock is the simulation's own");
}

TEST(FioNoMeaningTest, ThreadsIsTiobenchsAndChangesNothing) {
  JobOptions o;
  ASSERT_TRUE(ApplyOption(&o, "threads", "1", true, "job.fio:2").ok());
  EXPECT_EQ(o.tiobench_threads, 1);
  EXPECT_FALSE(o.thread);
  EXPECT_NE(Error("threads", "-1").find("out of range"), std::string::npos);
}

JobSet Jobs(const std::string& text) {
  auto sections = ParseJobText(text, "job.fio", ".", ProcessEnv());
  EXPECT_TRUE(sections.ok()) << sections.status().message();
  auto jobs = BuildJobs(*sections, 1);
  EXPECT_TRUE(jobs.ok()) << jobs.status().message();
  return *jobs;
}

TEST(RunCapTest, CapsRuntimeRampAndSizeDrivenJobs) {
  JobSet set = Jobs(
      "[long]\nsize=1g\nruntime=900\ntime_based\nramp_time=5\n"
      "[sized]\nsize=10g\n"
      "[short]\nsize=1m\nruntime=10ms\n");
  std::string line = CapRuntime(&set, 50_ms);
  EXPECT_EQ(line,
            "storlab sim: --max-runtime=50ms capped 2 of 3 jobs (runtime was: 900s, none: "
            "size-driven): not a full run\n");
  EXPECT_EQ(set.jobs[0].opts.runtime, 50_ms);
  EXPECT_EQ(set.jobs[0].opts.ramp_time, 50_ms);
  EXPECT_TRUE(set.jobs[0].opts.time_based);
  EXPECT_EQ(set.jobs[1].opts.runtime, 50_ms);
  EXPECT_EQ(set.jobs[2].opts.runtime, 10_ms);  // already shorter: untouched
  // The echo keeps what the file said.
  EXPECT_EQ(set.jobs[0].opts.echo[1].second, "900");
}

TEST(RunCapTest, NothingToCapSaysNothing) {
  JobSet set = Jobs("[short]\nsize=1m\nruntime=10ms\n");
  EXPECT_EQ(CapRuntime(&set, 1_s), "");
  EXPECT_EQ(set.jobs[0].opts.runtime, 10_ms);
}

}  // namespace fio_examples_support_test
}  // namespace storlab::fio
