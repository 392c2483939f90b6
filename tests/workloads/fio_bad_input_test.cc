// Hostile and careless fio input (issue 14): unaligned buffered I/O, host
// overrides read as [host] is, jobs that count no I/O, fio options storlab
// does not support, names that name nothing, files that are not job files,
// and the newly supported io_size, number_ios, create_only, bs_unaligned.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/fio_known_options.h"
#include "workloads/fio/job_spec.h"

namespace storlab::fio {
namespace fio_bad_input_test {

using testing::RamStack;
using testing::RunArgs;

std::string Messages(const testing::Sim& s) {
  std::string out;
  for (const auto& m : s.run->Messages()) out += m + "\n";
  return out;
}

// Real fio runs --bs=3000 buffered (5592 I/Os over 16 MiB); only O_DIRECT
// needs alignment.
TEST(FioBadInputTest, BufferedIoNeedsNoAlignment) {
  for (const char* rw : {"write", "randwrite", "read", "randread", "randrw"}) {
    auto s = RunArgs(RamStack("10us"), {"--name=j", std::string("--rw=") + rw, "--bs=3000",
                                        "--size=16m", "--end_fsync=1"});
    ASSERT_TRUE(s.status.ok()) << rw << ": " << s.status.ToString();
    const ThreadStat& ts = s.Job(0);
    EXPECT_EQ(ts.error, 0) << rw << ": " << ts.verror;
    EXPECT_EQ(ts.dir[kRead].total_ios + ts.dir[kWrite].total_ios, 5592u) << rw;
  }
  auto direct = RunArgs(RamStack("10us"),
                        {"--name=j", "--rw=write", "--bs=3000", "--size=16m", "--direct=1"});
  ASSERT_TRUE(direct.status.ok());
  EXPECT_EQ(direct.Job(0).error, 22);  // EINVAL, as fio reports it
}

// --host-mem=0 deadlocked silently; 1k was accepted.
TEST(FioBadInputTest, HostOverridesAreCheckedAsTheHostTable) {
  auto make = [](std::optional<uint64_t> mem, std::optional<uint32_t> cores,
                 const std::string& host = "") {
    HostOptions o;
    o.stack = "h.toml";
    o.stack_text = host + RamStack();
    o.mem_bytes = mem;
    o.cores = cores;
    auto h = SimHost::Create(o);
    return h.ok() ? Status() : h.status();
  };
  EXPECT_EQ(make(0, std::nullopt).message(),
            "--host-mem: [host], key 'mem': size 0 is less than the minimum, 64.0 MiB "
            "(67108864 bytes)");
  EXPECT_NE(make(1024, std::nullopt).message().find("key 'mem'"), std::string::npos);
  EXPECT_NE(make(std::nullopt, 0).message().find("--host-cores: [host], key 'cores'"),
            std::string::npos);
  EXPECT_NE(make(std::nullopt, 2000).message().find("[1, 1024]"), std::string::npos);
  EXPECT_NE(make(uint64_t{512} << 20, std::nullopt, "[host]\nused_mem = \"1GiB\"\n")
                .message()
                .find("key 'used_mem': must be less than mem"),
            std::string::npos);
  EXPECT_TRUE(make(uint64_t{1} << 30, 2).ok());
  // A dirty limit of 0 would let no write in.
  EXPECT_NE(make(std::nullopt, std::nullopt, "[host]\ndirty_ratio = 0\n")
                .message()
                .find("key 'dirty_ratio': must be more than 0"),
            std::string::npos);
}

// (A job that deadlocks is an error now: sim/watchdog.h.) A job whose
// thinktime spans its runtime after the ramp counts nothing: say why.
TEST(FioBadInputTest, AJobThatCountsNoIoSaysWhy) {
  auto s =
      RunArgs(RamStack("100us"), {"--name=j", "--rw=read", "--size=1m", "--ramp_time=1",
                                  "--runtime=1", "--time_based", "--thinktime=10s", "--direct=1"});
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).dir[kRead].io_bytes, 0u);
  EXPECT_NE(Messages(s).find("job 'j' completed no I/O: after ramp_time=1s (whose I/O fio does "
                             "not count), its runtime=1s ended before it issued an I/O "
                             "(thinktime=10s)"),
            std::string::npos)
      << Messages(s);
}

// Real fio options storlab does not model were "unknown option", as if a
// typo; fio 3.33's whole list tells them apart. Every one of its 293 job
// options is now modelled or has its reason (fio_no_meaning.cc): none
// may answer "does not support" (with any value: a bad value is its own
// error), and one that is not in the list is still a typo.
TEST(FioBadInputTest, EveryFioOptionIsModelledOrSaysWhyNot) {
  EXPECT_EQ(FioJobOptions().size(), 293u);
  for (std::string_view k : FioJobOptions()) {
    for (const char* v : {"1", "0", "4k", ""}) {
      JobOptions o;
      Status st = ApplyOption(&o, k, v, *v != '\0', "j.fio:3");
      EXPECT_EQ(st.message().find("does not support"), std::string::npos) << st.message();
    }
  }
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "wiat_for", "x", true, "j.fio:3").message(),
            "j.fio:3: unknown option 'wiat_for' (did you mean 'wait_for'?)");
  EXPECT_TRUE(IsFioCommandLineOption("eta-newline"));
  EXPECT_TRUE(IsFioCommandLineOption("output"));
  EXPECT_FALSE(IsFioJobOption("output"));
  EXPECT_EQ(FioVersion(), "fio-3.33");
}

TEST(FioBadInputTest, NewlySupportedOptionsWork) {
  // io_size beyond the file wraps around it, as in fio.
  auto wrap = RunArgs(RamStack("10us"), {"--name=j", "--rw=write", "--bs=4k", "--size=1m",
                                         "--io_size=4m", "--direct=1"});
  ASSERT_TRUE(wrap.status.ok()) << wrap.status.ToString();
  EXPECT_EQ(wrap.Job(0).dir[kWrite].total_ios, 1024u);
  EXPECT_EQ(wrap.run->runners()[0]->extras().passes, 4u);
  auto limit = RunArgs(RamStack("10us"),
                       {"--name=j", "--rw=randread", "--size=1m", "--number_ios=10", "--direct=1"});
  ASSERT_TRUE(limit.status.ok());
  EXPECT_EQ(limit.Job(0).dir[kRead].total_ios, 10u);
  auto create =
      RunArgs(RamStack("10us"), {"--name=j", "--rw=read", "--size=1m", "--create_only=1"});
  ASSERT_TRUE(create.status.ok());
  EXPECT_EQ(create.Job(0).dir[kRead].total_ios, 0u);
  EXPECT_EQ(create.run->layout().size(), 1u);  // laid out, then nothing
  EXPECT_EQ(Messages(create).find("completed no I/O"), std::string::npos);
  auto unaligned = RunArgs(RamStack("10us"), {"--name=j", "--size=1m", "--bs_unaligned"});
  EXPECT_TRUE(unaligned.status.ok()) << unaligned.status.ToString();
}

TEST(FioBadInputTest, NamesThatNameNothingAreErrors) {
  for (const char* v : {"::::", ":"}) {
    auto s = RunArgs(RamStack(), {"--name=j", "--size=1m", std::string("--filename=") + v});
    EXPECT_NE(s.status.message().find("option 'filename': '" + std::string(v) + "' names no file"),
              std::string::npos)
        << s.status.message();
  }
  auto d = RunArgs(RamStack(), {"--name=j", "--size=1m", "--directory=::"});
  EXPECT_NE(d.status.message().find("names no directory"), std::string::npos);
}

// `include /etc/shadow` printed its first line as an option name.
TEST(FioBadInputTest, FilesThatAreNotJobFilesAreNotQuoted) {
  const std::string dir = ::testing::TempDir() + "storlab_bad_input";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/shadow") << "root:$6$SECRETHASH:19000:0:99999:7:::\n";
  std::ofstream(dir + "/main.fio") << "; a job\ninclude shadow\n[j]\nsize=1m\n";
  auto s = ParseJobFile(dir + "/main.fio", ProcessEnv());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("shadow:1: not a job file"), std::string::npos)
      << s.status().message();
  EXPECT_EQ(s.status().message().find("SECRET"), std::string::npos) << s.status().message();
  auto direct = ParseJobFile(dir + "/shadow", ProcessEnv());
  EXPECT_EQ(direct.status().message().find("SECRET"), std::string::npos);
  // A bad header in a job file: a short, printable prefix of it.
  auto header =
      ParseJobText("[j]\n[" + std::string(5000, 'x') + "\x1b[2J\n", "h.fio", ".", ProcessEnv());
  EXPECT_LT(header.status().message().size(), 200u) << header.status().message();
  EXPECT_NE(header.status().message().find("h.fio:2: bad section header '[xxx"), std::string::npos);
}

// The progress line read "245.1 of ~62 s" with stonewall segments.
TEST(FioBadInputTest, ExpectedTimeSumsStonewallSegments) {
  auto sections = ParseCommandLine({"--runtime=30", "--time_based", "--size=1m", "--name=a",
                                    "--name=b", "--stonewall", "--ramp_time=2", "--name=c",
                                    "--stonewall", "--startdelay=5"});
  ASSERT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  EXPECT_EQ(ExpectedTime(*jobs), Nanos::FromSeconds(30 + 32 + 35));
}

}  // namespace fio_bad_input_test
}  // namespace storlab::fio
