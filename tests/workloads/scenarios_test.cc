// The failure-story scenarios (workloads/scenarios/): each runs, and the
// facts it tells are the run's — asserted on the figures it prints them from.
#include <gtest/gtest.h>

#include "workloads/scenarios/scenario.h"

namespace storlab::scenarios {
namespace {

const std::vector<std::string> kNotes = {"--name=notes", "--rw=write", "--bs=4k", "--size=1m",
                                         "--ioengine=psync"};

std::vector<std::string> With(std::vector<std::string> a, const std::string& extra) {
  a.push_back(extra);
  return a;
}

TEST(ScenariosTest, WithoutFsyncEveryWriteIsLostWithOneAtTheEndNone) {
  const Nanos cut = Nanos::FromSeconds(0.1);
  auto none = RunAndCut("hdd-7200", kNotes, cut, {});
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_TRUE(none->oracle.ok()) << none->oracle.Summary();
  EXPECT_EQ(none->write_ios, 256u);
  EXPECT_EQ(none->page_cache_dirty, 1u << 20) << "all of it still dirty in the page cache";
  EXPECT_EQ(none->oracle.blocks_older * none->oracle_block, 1u << 20);
  EXPECT_EQ(none->oracle.blocks_newest, 0u);

  auto end = RunAndCut("hdd-7200", With(kNotes, "--end_fsync=1"), cut, {});
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(end->oracle.blocks_newest * end->oracle_block, 1u << 20);
  EXPECT_EQ(end->oracle.blocks_older, 0u);
  EXPECT_GT(end->job_time, none->job_time * 10);

  // fsync=1 syncs after each write before the next: the last one has none.
  auto each = RunAndCut("hdd-7200", With(kNotes, "--fsync=1"), cut, {});
  ASSERT_TRUE(each.ok());
  EXPECT_EQ(each->oracle.blocks_older * each->oracle_block, 4096u);
  EXPECT_GT(each->job_time, end->job_time * 10);
}

TEST(ScenariosTest, EveryScenarioRunsAndIsDeterministic) {
  ASSERT_EQ(Scenarios().size(), 5u);
  for (const auto& s : Scenarios()) {
    // The seed's test B: a minute of 16 jobs, twice; the demo's acceptance
    // test (tests/cli/demo_acceptance_test.sh) checks that cell.
    if (s.name == "nas-inflation" || s.name == "thin-full") continue;
    auto a = s.run({});
    ASSERT_TRUE(a.ok()) << s.name << ": " << a.status().message();
    EXPECT_EQ(a->rfind(std::string(s.name) + ": ", 0), 0u) << *a;
    auto b = s.run({});
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(*a, *b) << s.name;
  }
  EXPECT_EQ(FindScenario("nope"), nullptr);
}

TEST(ScenariosTest, UsbPullLosesTheCopyUnlessSynced) {
  auto out = FindScenario("usb-pull")->run({});
  ASSERT_TRUE(out.ok());
  EXPECT_NE(out->find("none of the copy reached the disk"), std::string::npos) << *out;
  EXPECT_NE(out->find("256.0 MiB were kept, 0 B lost"), std::string::npos) << *out;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STORLAB_SLOW_BUILD 1
#endif
#endif
#ifndef STORLAB_SLOW_BUILD
TEST(ScenariosTest, NasInflationExplainsTheBufferedFigureAndDirectStaysUnderTheLink) {
  auto out = FindScenario("nas-inflation")->run({});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_NE(out->find("The host page cache absorbed"), std::string::npos) << *out;
  EXPECT_NE(out->find("With O_DIRECT every write crosses the network"), std::string::npos) << *out;
}
TEST(ScenariosTest, ThinFullFailsEveryVmAndQueueingWaitsTheTimeoutFirst) {
  auto out = FindScenario("thin-full")->run({});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_NE(out->find("vm.2 wrote 71.6 GB in 406.240 s, then stopped"), std::string::npos) << *out;
  EXPECT_NE(out->find("the VMs hung 60.000 s longer first"), std::string::npos) << *out;
}
#endif

}  // namespace
}  // namespace storlab::scenarios
