// lockmem (fio 3.33 memory.c fio_pin_memory(), fio_unpin_memory();
// job_runner_lockmem.cc): memory a job mlock()s while it runs, which the
// simulated host's page cache cannot use — its dirty limits shrink with
// it (mm/page-writeback.c global_dirtyable_memory()).
#include <gtest/gtest.h>

#include <string>

#include "sim/layers/page_cache/page_cache.h"
#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_lockmem_test {

using testing::Split;

// A slow disk under a host of 1 GiB: a buffered writer of 256 MiB fits
// under the dirty limit (20 % of 1 GiB) only while no memory is locked.
std::string SlowHost() {
  return "[host]\nmem = \"1GiB\"\n\n" + testing::RamStack("1ms", "2GiB", 32, "50MiB/s");
}

testing::Sim Write(const std::string& extra) {
  return testing::RunArgs(SlowHost(), Split("--name=w --filename=/d/f --rw=write --bs=1m "
                                            "--size=128m " +
                                            extra));
}

TEST(LockmemTest, LockedMemoryShrinksWhatTheCacheAbsorbs) {
  auto plain = Write("");
  ASSERT_TRUE(plain.status.ok()) << plain.status.ToString();
  auto locked = Write("--lockmem=768m");
  ASSERT_TRUE(locked.status.ok()) << locked.status.ToString();
  // Without the lock the writes land in the cache (far faster than the
  // disk's 50 MiB/s); with 3/4 of the memory locked they are throttled
  // towards the disk's rate.
  const uint64_t fast = plain.Job(0).dir[kWrite].runtime_ms;
  const uint64_t slow = locked.Job(0).dir[kWrite].runtime_ms;
  EXPECT_LT(fast * 3, slow) << fast << " vs " << slow;
  // The lock ends with the job: the cache's limits are the host's again.
  const PageCache* cache = locked.host->page_cache();
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->limits().dirtyable, plain.host->page_cache()->limits().dirtyable);
}

TEST(LockmemTest, NoMoreThanTheMemoryLess128MiB) {
  auto s = Write("--lockmem=4g");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  bool said = false;
  for (const std::string& m : s.run->Messages())
    said |= m == "fio: limiting mlocked memory to 896MiB";
  EXPECT_TRUE(said);
}

TEST(LockmemTest, BadSizeNamesTheOption) {
  auto s = Write("--lockmem=lots");
  EXPECT_NE(s.status.message().find("option 'lockmem'"), std::string::npos) << s.status.message();
}

}  // namespace fio_lockmem_test
}  // namespace storlab::fio
