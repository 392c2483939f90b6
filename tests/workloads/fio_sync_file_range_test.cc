// sync_file_range (fio 3.33 io_u.c get_rw_ddir(), do_sync_file_range();
// SimHost::SyncFileRange(), PageCache::SyncFileRange(), fs/sync.c): every
// N writes a sync_file_range() over what the job wrote to the file, with
// the flags given — WRITE starts writeback, WAIT_AFTER waits for it; none
// flushes the device.
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_sync_file_range_test {

using testing::RamStack;
using testing::Split;

// 64 MiB of buffered 1 MiB writes to a disk of 100 MiB/s: the cache takes
// them far faster than the disk unless the job syncs.
testing::Sim Write(const std::string& extra) {
  return testing::RunArgs(RamStack("1ms", "1GiB", 32, "100MiB/s"),
                          Split("--name=w --filename=/d/f --rw=write --bs=1m --size=64m " + extra));
}

uint64_t DeviceWrites(const testing::Sim& s) {
  return s.host->device().stats().op(Op::kWrite).bytes;
}

TEST(SyncFileRangeTest, WriteAndWaitAfterPacesTheWriterToTheDisk) {
  auto plain = Write("");
  auto synced = Write("--sync_file_range=write,wait_after:8");
  ASSERT_TRUE(plain.status.ok()) << plain.status.ToString();
  ASSERT_TRUE(synced.status.ok()) << synced.status.ToString();
  // One call after every 8th write but the last (the job ends there), each
  // a sync latency sample; real fio 3.33 counts them (past its array) as
  // short writes: "issued rwts: total=0,64,0,0 short=0,7,0,0".
  EXPECT_EQ(synced.Job(0).sync_lat.samples(), 7u);
  EXPECT_NE(synced.Normal().find("issued rwts: total=0,64,0,0 short=0,7,0,0"), std::string::npos)
      << synced.Normal();
  EXPECT_EQ(plain.Job(0).sync_lat.samples(), 0u);
  // The job waited for the disk: well under the cache's rate, near 100 MiB/s.
  EXPECT_GT(synced.Job(0).dir[kWrite].runtime_ms, 5 * plain.Job(0).dir[kWrite].runtime_ms);
  EXPECT_GE(synced.Job(0).dir[kWrite].runtime_ms, 500u);
  EXPECT_GE(DeviceWrites(synced), 56u << 20);  // all but the last 8 written back at least
  // fdatasync= shows the same way, in short reads ("short=7,0,0,0").
  auto fdatasync = Write("--fdatasync=8");
  EXPECT_NE(fdatasync.Normal().find("issued rwts: total=0,64,0,0 short=7,0,0,0"),
            std::string::npos);
  // No device flush: the data went out as writes only.
  EXPECT_EQ(synced.host->device().stats().op(Op::kFlush).ops, 0u);
}

// WRITE alone starts writeback and returns: the job keeps the cache's pace.
TEST(SyncFileRangeTest, WriteAloneDoesNotWait) {
  auto plain = Write("");
  auto started = Write("--sync_file_range=write:8");
  ASSERT_TRUE(started.status.ok()) << started.status.ToString();
  EXPECT_EQ(started.Job(0).sync_lat.samples(), 7u);
  EXPECT_LT(started.Job(0).dir[kWrite].runtime_ms, 3 * plain.Job(0).dir[kWrite].runtime_ms + 5);
  EXPECT_GT(DeviceWrites(started) + 1, DeviceWrites(plain));
}

TEST(SyncFileRangeTest, BadValuesNameTheOption) {
  for (const char* v : {"write,flush", "write:x", "sync"}) {
    auto s = Write(std::string("--sync_file_range=") + v);
    EXPECT_NE(s.status.message().find("option 'sync_file_range'"), std::string::npos)
        << v << ": " << s.status.message();
  }
}

}  // namespace fio_sync_file_range_test
}  // namespace storlab::fio
