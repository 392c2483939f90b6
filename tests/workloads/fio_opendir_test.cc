// opendir= (workloads/fio/opendir.h): the files below a directory of the
// simulated file system as the run is prepared. Real fio 3.33 on a tree of
// a (64 KiB), sub/b (128 KiB) and a symlink: "fio: opendir added 2 files",
// rw=read reads 192 KiB without size=, 64 KiB with size=64k; with
// filename= as well, 3 files; a missing directory fails the job.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_opendir_test {

using testing::RamStack;
using testing::Split;

struct OpendirRun {
  std::unique_ptr<SimHost> host;
  std::unique_ptr<FioRun> run;
  Status status;
};

// A host whose file system holds /d/a, /d/sub/b and /e/c (as an earlier
// run would have left them), or --prefill's aged files.
OpendirRun RunOn(const std::string& args, double prefill = 0) {
  OpendirRun r;
  HostOptions ho;
  ho.stack = "test.toml";
  ho.stack_text = RamStack("100us", "256MiB");
  if (prefill > 0) ho.prefill = prefill;
  auto host = SimHost::Create(ho);
  EXPECT_TRUE(host.ok()) << host.status().message();
  r.host = std::move(*host);
  ExtentFs& fs = r.host->fs();
  if (prefill == 0) {
    const std::pair<const char*, uint64_t> files[] = {
        {"/d/a", 65536}, {"/d/sub/b", 131072}, {"/e/c", 65536}};
    for (const auto& [name, size] : files) EXPECT_TRUE(fs.Allocate(fs.Create(name), size).ok());
  }
  auto sections = ParseCommandLine(Split(args));
  EXPECT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  if (!jobs.ok()) {
    r.status = jobs.status();
    return r;
  }
  r.run = std::make_unique<FioRun>(*r.host, std::move(*jobs));
  r.status = r.run->Prepare();
  if (r.status.ok()) r.status = r.run->Run(nullptr);
  return r;
}

bool HasNote(const OpendirRun& r, const std::string& text) {
  const std::vector<std::string> notes = r.run->Messages();
  return std::find(notes.begin(), notes.end(), text) != notes.end();
}

TEST(FioOpendirTest, AddsEveryFileBelowTheDirectory) {
  OpendirRun r = RunOn("--name=o --opendir=/d/ --rw=read");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(HasNote(r, "fio: opendir added 2 files"));
  const JobSpec& spec = r.run->runners()[0]->spec();
  EXPECT_EQ(spec.files, (std::vector<std::string>{"/d/a", "/d/sub/b"}));
  EXPECT_EQ(r.run->runners()[0]->stat().dir[0].io_bytes, 196608u);
  r = RunOn("--name=o --opendir=/d --rw=read --size=64k");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.run->runners()[0]->stat().dir[0].io_bytes, 65536u);
  r = RunOn("--name=o --filename=/e/c --opendir=/d --rw=read --size=64k");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(HasNote(r, "fio: opendir added 3 files"));
  EXPECT_EQ(r.run->runners()[0]->spec().files.size(), 3u);
}

TEST(FioOpendirTest, FindsPrefillsAgedFiles) {
  OpendirRun r = RunOn("--name=o --opendir=.prefill --rw=randread --number_ios=100", 20);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.run->runners()[0]->spec().files.size(), r.host->prefill().files);
  EXPECT_GT(r.host->prefill().files, 1u);
  EXPECT_EQ(r.run->runners()[0]->stat().dir[0].total_ios, 100u);
}

TEST(FioOpendirTest, NoFileBelowIsAnError) {
  OpendirRun r = RunOn("--name=o --opendir=/nodir --rw=read");
  ASSERT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message().find("opendir=/nodir: no file below it"), std::string::npos)
      << r.status.message();
}

}  // namespace fio_opendir_test
}  // namespace storlab::fio
