// Options fio 3.33 has that change nothing a simulated run shows:
// log_entries (stat.c get_new_log(): the first chunk of a log's samples)
// and allow_mounted_write (backend.c check_mount_writes(): no simulated
// block device is mounted). Accepted, checked, and without effect.
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_accepted_options_test {

using testing::RamStack;
using testing::Split;

TEST(AcceptedOptionsTest, SameRunWithThem) {
  const std::string job =
      "--name=a --filename=/dev/sdb --size=1m --bs=4k --rw=randwrite --ioengine=libaio "
      "--iodepth=4 --write_bw_log=a --log_avg_msec=10";
  auto plain = testing::RunArgs(RamStack(), Split(job));
  ASSERT_TRUE(plain.status.ok()) << plain.status.ToString();
  for (const char* extra : {" --log_entries=1024", " --log_entries=1048576",
                            " --allow_mounted_write=1", " --allow_mounted_write=0"}) {
    auto s = testing::RunArgs(RamStack(), Split(job + extra));
    ASSERT_TRUE(s.status.ok()) << extra << ": " << s.status.ToString();
    EXPECT_EQ(s.Job(0).dir[kWrite].total_ios, plain.Job(0).dir[kWrite].total_ios) << extra;
    EXPECT_EQ(s.Job(0).dir[kWrite].runtime_ms, plain.Job(0).dir[kWrite].runtime_ms) << extra;
    EXPECT_EQ(s.run->runners()[0]->logs()->bw_window_ms(),
              plain.run->runners()[0]->logs()->bw_window_ms());
  }
}

// options.c: log_entries from DEF_LOG_ENTRIES (1024) to MAX_LOG_ENTRIES.
TEST(AcceptedOptionsTest, BadValuesNameTheOption) {
  for (const char* bad : {"--log_entries=1023", "--log_entries=1048577", "--log_entries=x",
                          "--allow_mounted_write=2"}) {
    auto s = testing::RunArgs(RamStack(),
                              Split(std::string("--name=a --filename=/d/f --size=1m ") + bad));
    const std::string opt = std::string(bad).substr(2, std::string(bad).find('=') - 2);
    EXPECT_NE(s.status.message().find("option '" + opt + "'"), std::string::npos)
        << bad << ": " << s.status.message();
  }
}

}  // namespace fio_accepted_options_test
}  // namespace storlab::fio
