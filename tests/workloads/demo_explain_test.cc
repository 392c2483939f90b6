// The explanation reads each model's figures through its typed accessors
// (sim/node_kind.h): a ZFS pool's sentence carries the bytes its txgs
// wrote, which a lookup by a misspelt name ("txg_physical_bytes") printed
// as 0.0 GB.
#include "workloads/demo_explain.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "sim/layers/zfs/zfs.h"
#include "tests/workloads/fio_test_util.h"

namespace storlab::demo {
namespace demo_explain_test {

TEST(DemoExplainTest, AZfsPoolsSentenceCarriesWhatItsTxgsWrote) {
  HostOptions ho;
  ho.stack = "ssd-zfs";
  auto host = SimHost::Create(ho);
  ASSERT_TRUE(host.ok()) << host.status().message();
  auto sections = fio::ParseCommandLine(
      fio::testing::Split("--name=w --rw=write --bs=1m --size=3g --end_fsync=1"));
  ASSERT_TRUE(sections.ok());
  auto jobs = fio::BuildJobs(*sections, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  fio::FioRun run(**host, std::move(*jobs));
  ASSERT_TRUE(run.Prepare().ok());
  ASSERT_TRUE(run.Run(nullptr).ok());

  const ZfsPool* zfs = nullptr;
  for (const auto& n : (*host)->stack().nodes()) {
    if (const ZfsPool* z = NodeAs<ZfsPool>(n.get())) zfs = z;
  }
  ASSERT_NE(zfs, nullptr);
  const uint64_t wrote = zfs->counters().physical_bytes;
  ASSERT_GT(wrote, 1'000'000'000u);
  char expect[96];
  std::snprintf(expect, sizeof expect, "into its transaction groups and wrote %.1f GB in %llu txgs",
                static_cast<double>(wrote) / 1e9,
                static_cast<unsigned long long>(zfs->counters().txgs));
  const std::string s = ExplainRun(run, 1000, StackLimit(run));
  EXPECT_NE(s.find(expect), std::string::npos) << expect << "\n" << s;
}

}  // namespace demo_explain_test
}  // namespace storlab::demo
