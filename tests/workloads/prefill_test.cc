// --prefill / [fs] prefill (workloads/host/fs_prefill.h): a file system
// aged to a fill level, and fio 3.33's ENOSPC during layout on it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"
#include "workloads/host/fs_prefill.h"

namespace storlab::fio::testing {
namespace prefill_test {

TEST(PrefillTest, FillsToTheLevelWithFragmentedFreeSpace) {
  ExtentFs fs(uint64_t{1} << 30);
  PrefillSummary s = PrefillFs(fs, 90, 1);
  const uint64_t target = (uint64_t{1} << 30) / 10 * 9 / 4096 * 4096;
  EXPECT_LE(s.used_bytes, target);
  EXPECT_GT(s.used_bytes + 4096, target);
  EXPECT_EQ(s.used_bytes, fs.used_bytes());
  EXPECT_EQ(s.files, fs.ids().size());
  EXPECT_GT(s.free_extents, 20u);  // holes all over the device, not one run
  // Seeded: the same seed ages the same way, another seed another way.
  ExtentFs again(uint64_t{1} << 30), other(uint64_t{1} << 30);
  EXPECT_EQ(PrefillFs(again, 90, 1).free_extents, s.free_extents);
  PrefillFs(other, 90, 2);
  EXPECT_EQ(again.file(again.ids().back()).extents[0].device_offset,
            fs.file(fs.ids().back()).extents[0].device_offset);
  EXPECT_NE(other.ids().size(), fs.ids().size());
  // 0 % leaves the file system empty, 100 % leaves no block free.
  ExtentFs empty(uint64_t{1} << 30), full(uint64_t{1} << 30);
  EXPECT_EQ(PrefillFs(empty, 0, 1).files, 0u);
  PrefillFs(full, 100, 1);
  EXPECT_EQ(full.free_bytes(), 0u);
}

HostOptions Prefilled(double percent) {
  HostOptions o;
  o.stack = "test.toml";
  o.stack_text = RamStack("20us", "256MiB");
  o.prefill = percent;
  return o;
}

Sim RunOn(const HostOptions& o, const std::vector<std::string>& args) {
  Sim s;
  auto host = SimHost::Create(o);
  EXPECT_TRUE(host.ok()) << host.status().ToString();
  s.host = std::move(*host);
  auto sections = ParseCommandLine(args);
  auto jobs = BuildJobs(*sections, 1);
  EXPECT_TRUE(jobs.ok());
  s.run = std::make_unique<FioRun>(*s.host, std::move(*jobs));
  s.status = s.run->Prepare();
  if (s.status.ok()) s.status = s.run->Run(nullptr);
  return s;
}

TEST(PrefillTest, LayoutMeetsEnospcWithFio333sMessages) {
  // 95 % of 256 MiB leaves ~12.8 MiB: a 32 MiB read job's file does not
  // fit. fio 3.33 (checked against it on a full tmpfs) prints these two
  // lines and the job ends with err=28 before any I/O.
  Sim s =
      RunOn(Prefilled(95), {"--name=r", "--ioengine=psync", "--rw=read", "--bs=4k", "--size=32m"});
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const auto msgs = s.run->Messages();
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0], "fio: ENOSPC on laying out file, stopping");
  EXPECT_EQ(msgs[1],
            "fio: pid=0, err=28/file:filesetup.c:240, func=write, error=No space left on device");
  EXPECT_EQ(s.Job(0).error, 28);
  EXPECT_EQ(s.Job(0).dir[kRead].io_bytes, 0u);
  EXPECT_EQ(s.JsonObject()["jobs"][0]["error"], 28);
  // A file that fits is laid out in the holes the aged files left.
  Sim fits =
      RunOn(Prefilled(95), {"--name=r", "--ioengine=psync", "--rw=read", "--bs=4k", "--size=8m"});
  ASSERT_TRUE(fits.status.ok());
  EXPECT_TRUE(fits.run->Messages().empty());
  EXPECT_EQ(fits.Job(0).error, 0);
  const uint32_t id = fits.host->fs().Lookup("r.0.0");
  ASSERT_NE(id, 0u);
  EXPECT_GT(fits.host->fs().file(id).extents.size(), 1u);  // fragmented
}

TEST(PrefillTest, AWriteJobMeetsEnospcDuringItsIo) {
  Sim s = RunOn(Prefilled(95),
                {"--name=w", "--ioengine=psync", "--rw=write", "--bs=64k", "--size=32m"});
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.Job(0).error, 28);
  EXPECT_GT(s.Job(0).dir[kWrite].io_bytes, 0u);
  EXPECT_LT(s.Job(0).dir[kWrite].io_bytes, 32u << 20);
}

TEST(PrefillTest, StackFileFsTableAndItsBadValues) {
  HostOptions o;
  o.stack = "aged.toml";
  o.stack_text = "[fs]\nprefill = 50\n\n" + RamStack("20us", "64MiB");
  auto host = SimHost::Create(o);
  ASSERT_TRUE(host.ok()) << host.status().ToString();
  EXPECT_EQ((*host)->prefill_percent(), 50);
  EXPECT_EQ((*host)->fs().used_bytes(), uint64_t{32} << 20);
  // --prefill wins over the file's.
  o.prefill = 0;
  host = SimHost::Create(o);
  ASSERT_TRUE(host.ok());
  EXPECT_EQ((*host)->fs().used_bytes(), 0u);
  o.stack_text = "[fs]\nprefill = 150\n\n" + RamStack("20us", "64MiB");
  host = SimHost::Create(o);
  ASSERT_FALSE(host.ok());
  EXPECT_NE(host.status().message().find("aged.toml:"), std::string::npos)
      << host.status().message();
  EXPECT_NE(host.status().message().find("prefill"), std::string::npos);
  o.stack_text = "[fs]\nprefil = 50\n\n" + RamStack("20us", "64MiB");
  host = SimHost::Create(o);
  ASSERT_FALSE(host.ok());
  EXPECT_NE(host.status().message().find("prefil"), std::string::npos) << host.status().message();
}

}  // namespace prefill_test
}  // namespace storlab::fio::testing
