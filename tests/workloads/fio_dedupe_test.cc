// dedupe_percentage, dedupe_mode, dedupe_working_set_percentage and
// dedupe_global (io_u.c get_buf_state(), dedupe.c, init.c's checks): how
// many of a job's write buffers repeat an earlier one, and which.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/io_buffers.h"

namespace storlab::fio {
namespace fio_dedupe_test {

Result<JobSet> Build(const std::string& args) {
  auto sections = ParseCommandLine(testing::Split(args));
  if (!sections.ok()) return sections.status();
  return BuildJobs(*sections, 1);
}

JobSpec Spec(const std::string& args) {
  auto jobs = Build("--name=w --rw=write --bs=4k --size=4m " + args);
  EXPECT_TRUE(jobs.ok()) << jobs.status().message();
  return jobs->jobs.at(0);
}

// The distinct contents of `n` successive 4 KiB writes.
std::set<std::string> Writes(IoBuffers& b, int n) {
  std::set<std::string> seen;
  for (int i = 0; i < n; ++i) {
    b.BeforeWrite(0, 4096, static_cast<uint64_t>(i) * 4096, Nanos(i));
    seen.emplace(reinterpret_cast<const char*>(b.slot(0)), 4096);
  }
  return seen;
}

TEST(FioDedupeTest, APercentOfBuffersRepeat) {
  const JobSpec off = Spec("");
  IoBuffers plain(1, 4096, off.rand_seed, off.fill);
  EXPECT_EQ(Writes(plain, 1000).size(), 1000u);  // refill off: scrambled, all different

  const JobSpec half = Spec("--dedupe_percentage=50");
  EXPECT_TRUE(half.fill.refill);
  IoBuffers b(1, 4096, half.rand_seed, half.fill);
  const size_t unique = Writes(b, 1000).size();
  EXPECT_GT(unique, 450u);
  EXPECT_LT(unique, 550u);

  const JobSpec all = Spec("--dedupe_percentage=100");
  IoBuffers c(1, 4096, all.rand_seed, all.fill);
  EXPECT_EQ(Writes(c, 100).size(), 1u);
}

TEST(FioDedupeTest, AWorkingSetBoundsTheRepeatsAndGlobalSharesIt) {
  // 4 MiB × 5 % / 4 KiB = 51 pages; 90 % of 1000 writes draw from them.
  const JobSpec ws = Spec("--dedupe_percentage=90 --dedupe_mode=working_set");
  EXPECT_EQ(ws.fill.dedupe_pages, 51u);
  IoBuffers b(1, 4096, ws.rand_seed, ws.fill);
  EXPECT_LT(Writes(b, 1000).size(), 51u + 150u);

  // dedupe_global: the working sets (102 pages each) are made of both
  // jobs' first pages in turn, so the two jobs write many equal buffers;
  // without it they share none.
  auto shared = [](const std::string& global) {
    auto jobs = Build(
        "--rw=write --bs=4k --size=4m --dedupe_percentage=90 --dedupe_mode=working_set "
        "--dedupe_working_set_percentage=10 --dedupe_global=" +
        global + " --name=a --name=b");
    EXPECT_TRUE(jobs.ok()) << jobs.status().message();
    std::set<std::string> seen[2];
    for (size_t j = 0; j < 2; ++j) {
      const JobSpec& spec = jobs->jobs.at(j);
      IoBuffers b(1, 4096, spec.rand_seed, spec.fill);
      seen[j] = Writes(b, 500);
    }
    size_t both = 0;
    for (const auto& w : seen[0]) both += seen[1].count(w);
    return both;
  };
  EXPECT_GT(shared("1"), 50u);
  EXPECT_EQ(shared("0"), 0u);
}

TEST(FioDedupeTest, BadValuesAreErrorsNamingTheOption) {
  auto e = Build("--name=w --size=4m --dedupe_percentage=101");
  EXPECT_NE(e.status().message().find("dedupe_percentage"), std::string::npos);
  e = Build("--name=w --size=4m --dedupe_mode=sometimes");
  EXPECT_NE(e.status().message().find("dedupe_mode"), std::string::npos);
  e = Build("--name=w --dedupe_percentage=50 --dedupe_mode=working_set");
  EXPECT_NE(e.status().message().find("needs size="), std::string::npos) << e.status().message();
  e = Build(
      "--name=w --size=4m --dedupe_percentage=60 --dedupe_mode=working_set "
      "--dedupe_working_set_percentage=50");
  EXPECT_NE(e.status().message().find("more than 100"), std::string::npos);
}

}  // namespace fio_dedupe_test
}  // namespace storlab::fio
