// Job files ([global], include, ${VAR}, comments) and command lines, and how
// they become jobs (numjobs clones, file names, groups).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "workloads/fio/job_file.h"
#include "workloads/fio/job_spec.h"

namespace storlab::fio {
namespace fio_job_file_test {

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& k) -> std::optional<std::string> {
    auto it = vars.find(k);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  std::string dir = t ? t : "/tmp";
  dir += "/storlab_jobfile_test";
  std::filesystem::create_directories(dir);
  return dir;
}

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(JobFileTest, GlobalSectionsCommentsAndEnvironment) {
  const char* text =
      "# a comment\n"
      "; another\n"
      "[global]\n"
      "ioengine=libaio\n"
      "size=${SZ}   ; trailing comment\n"
      "direct=1 # hash comment\n"
      "\n"
      "[first]\n"
      "rw=randwrite\n"
      "time_based\n"
      "runtime=1\n"
      "[second]\n"
      "rw=read\n"
      "numjobs=2\n";
  auto s = ParseJobText(text, "t.fio", ".", Env({{"SZ", "2m"}}));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->size(), 3u);
  EXPECT_EQ((*s)[0].name, "global");
  EXPECT_EQ((*s)[0].entries[1].value, "2m");
  EXPECT_EQ((*s)[0].entries[1].where, "t.fio:5");
  EXPECT_EQ((*s)[0].entries[2].value, "1");
  EXPECT_FALSE((*s)[1].entries[1].has_value);
  auto jobs = BuildJobs(*s, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  ASSERT_EQ(jobs->jobs.size(), 3u);
  EXPECT_EQ(jobs->jobs[0].name, "first");
  EXPECT_EQ(jobs->jobs[0].opts.size, 2u << 20);
  EXPECT_TRUE(jobs->jobs[0].direct);
  EXPECT_TRUE(jobs->jobs[0].opts.time_based);
  EXPECT_EQ(jobs->jobs[1].files, std::vector<std::string>{"second.0.0"});
  EXPECT_EQ(jobs->jobs[2].files, std::vector<std::string>{"second.1.0"});
  EXPECT_EQ(jobs->jobs[2].thread_number, 3);
  // fio's echo: globals once, each job only its own options.
  EXPECT_EQ(jobs->global_echo.size(), 3u);
  EXPECT_EQ(jobs->jobs[1].opts.echo.size(), 2u);
  EXPECT_EQ(jobs->jobs[0].opts.echo.size(), 2u);  // rw, runtime
}

TEST(JobFileTest, IncludeIsRelativeToTheIncludingFile) {
  std::string dir = TempDir();
  WriteFile(dir + "/inc.fio", "; included\nbs=8k\n");
  WriteFile(dir + "/main.fio", "[global]\ninclude inc.fio\n[j]\nsize=1m\n");
  auto s = ParseJobFile(dir + "/main.fio", Env({}));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  auto jobs = BuildJobs(*s, 1);
  ASSERT_TRUE(jobs.ok());
  EXPECT_EQ(jobs->jobs[0].max_bs(0), 8192u);
  EXPECT_EQ((*s)[0].entries[0].where, dir + "/inc.fio:2");
}

// fio's limit of 4096 jobs, and a cap on files over all jobs: a few lines
// must not ask for millions of file names.
TEST(JobFileTest, JobAndFileCountsAreCapped) {
  auto jobs = [](const std::string& text) {
    return BuildJobs(*ParseJobText(text, "n.fio", ".", Env({})), 1);
  };
  EXPECT_EQ(jobs("[a]\nsize=1m\nnumjobs=4096\n[b]\nsize=1m\n").status().message(),
            "n.fio:4: maximum number of jobs (4096) reached");
  EXPECT_EQ(jobs("[a]\nsize=1g\nnumjobs=4096\nnrfiles=4096\n").status().message(),
            "n.fio:1: more than 1048576 files over all jobs (numjobs x nrfiles)");
  EXPECT_TRUE(jobs("[a]\nsize=1g\nnumjobs=256\nnrfiles=4096\n").ok());
}

TEST(JobFileTest, ErrorsNameFileAndLine) {
  auto bad_value =
      ParseJobText("[global]\nioengine=null\n[x]\nsize=1m\nbs=fast\n", "bad.fio", ".", Env({}));
  ASSERT_TRUE(bad_value.ok());
  auto jobs = BuildJobs(*bad_value, 1);
  ASSERT_FALSE(jobs.ok());
  EXPECT_EQ(jobs.status().message(),
            "bad.fio:5: option 'bs': 'fast': expected a size (4096, 4k, 64k, 1m, 4g)");
  auto unknown = BuildJobs(*ParseJobText("[x]\nsize=1m\nbogus=2\n", "b2.fio", ".", Env({})), 1);
  EXPECT_EQ(unknown.status().message(), "b2.fio:3: unknown option 'bogus'");
  auto env = ParseJobText("[x]\nsize=${NOPE}\n", "e.fio", ".", Env({}));
  EXPECT_EQ(env.status().message(), "e.fio:2: environment variable 'NOPE' is not set");
  auto outside = ParseJobText("size=1m\n", "o.fio", ".", Env({}));
  EXPECT_EQ(outside.status().message(),
            "o.fio:1: not a job file (the first line that is not a comment is neither a "
            "[section], an include nor an option)");
  auto inc = ParseJobText("[x]\ninclude nothere.fio\n", "i.fio", "/nonexistent", Env({}));
  EXPECT_EQ(inc.status().message(), "i.fio:2: cannot open job file '/nonexistent/nothere.fio'");
}

TEST(CommandLineTest, NameStartsAJobAndGlobalsComeFirst) {
  auto s = ParseCommandLine({"--ioengine=libaio", "--direct", "1", "--name=a", "--rw=randread",
                             "--time_based", "--runtime", "10", "--name=b", "--bs=64k"});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->size(), 3u);
  EXPECT_EQ((*s)[0].entries.size(), 2u);
  EXPECT_EQ((*s)[0].entries[1].value, "1");
  EXPECT_EQ((*s)[1].name, "a");
  EXPECT_EQ((*s)[1].entries.size(), 4u);
  auto jobs = BuildJobs(*s, 1);
  ASSERT_TRUE(jobs.ok());
  EXPECT_TRUE(jobs->jobs[1].direct);
  EXPECT_EQ(jobs->jobs[1].max_bs(0), 65536u);
  // --name is echoed, as fio does on the command line.
  EXPECT_EQ(jobs->jobs[0].opts.echo[0].first, "name");
  auto bad = BuildJobs(*ParseCommandLine({"--name=x", "--iodepth=zero"}), 1);
  EXPECT_EQ(bad.status().message(),
            "command line (--iodepth): option 'iodepth': 'zero': expected an integer");
  auto unknown = BuildJobs(*ParseCommandLine({"--name=x", "--bogus=1"}), 1);
  EXPECT_EQ(unknown.status().message(), "command line (--bogus): unknown option 'bogus'");
}

TEST(JobSpecTest, ClonesFilesGroupsAndFixups) {
  auto s = ParseCommandLine({"--name=w", "--numjobs=3", "--directory=/d0:/d1", "--size=8m",
                             "--ioengine=psync", "--iodepth=16", "--name=r", "--stonewall",
                             "--filename=shared", "--size=4m", "--rw=randrw", "--rwmixread=70",
                             "--name=n", "--new_group", "--nrfiles=2", "--filesize=1m"});
  auto jobs = BuildJobs(*s, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  ASSERT_EQ(jobs->jobs.size(), 5u);
  EXPECT_EQ(jobs->jobs[0].files[0], "/d0/w.0.0");
  // init.c add_job() numbers the clones from the last down: real fio 3.33
  // gives thread 2 /d0/w.2.0 and thread 3 /d1/w.1.0 (checked by the thread
  // number in the verify headers each wrote).
  EXPECT_EQ(jobs->jobs[1].files[0], "/d0/w.2.0");
  EXPECT_EQ(jobs->jobs[2].files[0], "/d1/w.1.0");
  EXPECT_EQ(jobs->jobs[0].iodepth, 1u);  // a sync engine caps it
  EXPECT_EQ(jobs->jobs[0].opts.iodepth, 16);
  ASSERT_EQ(jobs->notes.size(), 3u);
  EXPECT_EQ(jobs->jobs[3].files[0], "shared");
  EXPECT_EQ(jobs->jobs[3].groupid, 1);
  EXPECT_EQ(jobs->jobs[3].segment, 1);
  EXPECT_EQ(jobs->jobs[3].rwmixread, 70);
  EXPECT_TRUE(jobs->jobs[3].do_read && jobs->jobs[3].do_write && jobs->jobs[3].random);
  EXPECT_EQ(jobs->jobs[4].groupid, 2);
  EXPECT_EQ(jobs->jobs[4].segment, 1);
  EXPECT_EQ(jobs->jobs[4].files, (std::vector<std::string>{"n.0.0", "n.0.1"}));
  EXPECT_EQ(jobs->jobs[4].file_size, 1u << 20);
  EXPECT_EQ(jobs->jobs[4].io_size, 2u << 20);
  // randrepeat=1: offsets do not depend on --seed; randrepeat=0: they do.
  auto again = BuildJobs(*s, 99);
  EXPECT_EQ(again->jobs[0].rand_seed, jobs->jobs[0].rand_seed);
  auto norep = ParseCommandLine({"--name=x", "--randrepeat=0", "--size=1m"});
  EXPECT_NE(BuildJobs(*norep, 1)->jobs[0].rand_seed, BuildJobs(*norep, 2)->jobs[0].rand_seed);
}

TEST(JobSpecTest, InconsistentJobsAreRefused) {
  // init.c fixup_options(): fio warns and turns time_based off (cpp_null.fio).
  auto tb = BuildJobs(*ParseCommandLine({"--name=x", "--time_based", "--size=1m"}), 1);
  ASSERT_TRUE(tb.ok()) << tb.status().ToString();
  EXPECT_FALSE(tb->jobs[0].opts.time_based);
  EXPECT_EQ(tb->notes,
            std::vector<std::string>{"fio: time_based requires a runtime/timeout setting"});
  EXPECT_FALSE(BuildJobs(*ParseCommandLine({"--rw=read"}), 1).ok());  // no job at all
}

}  // namespace fio_job_file_test
}  // namespace storlab::fio
