// fsync_on_close, create_fsync, max_latency and serialize_overlap
// (option_table_sync.cc, job_runner_overlap.cc),
// compared with what real fio 3.33 does on a file in /tmp (ext4).
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_io_path_test {

using testing::RamStack;
using testing::Split;

const OpStats& Disk(const testing::Sim& s, Op op) { return s.host->device().stats().op(op); }

// The error a bad value gets, from a job file: it names the file and line
// (the job's section), the option and the value; nothing runs.
std::string JobFileError(const std::string& line) {
  auto sections =
      ParseJobText("[job1]\nfilename=/d/f\nsize=16k\n" + line + "\n", "bad.fio", ".", ProcessEnv());
  EXPECT_TRUE(sections.ok());
  auto s = testing::RunJobs(RamStack(), *sections);
  EXPECT_FALSE(s.status.ok()) << line;
  return s.status.message();
}

// Real fio 3.33 (strace, rw=write bs=4k size=64k on /tmp): no fsync(2)
// without the option, one with fsync_on_close=1 (backend.c do_io() fsyncs
// each file when the I/O is done, as for end_fsync, and the close then
// skips its own: should_fsync() sees last_was_sync), one with both; a
// read-only job none (should_fsync(): not td_write()). rw=write bs=64k
// size=64m: runtime 36 ms without, 84 ms with fsync_on_close, 100 ms with
// end_fsync: the fsync is inside the runtime. Here the same: the page
// cache's dirty pages reach the disk before the job ends.
TEST(FsyncOnCloseTest, FsyncsEachFileInsideTheRuntime) {
  const std::string job = "--name=a --directory=/d --nrfiles=2 --rw=write --bs=4k --size=64k";
  auto plain = testing::RunArgs(RamStack("100us"), Split(job));
  ASSERT_TRUE(plain.status.ok()) << plain.status.message();
  auto on_close = testing::RunArgs(RamStack("100us"), Split(job + " --fsync_on_close=1"));
  ASSERT_TRUE(on_close.status.ok()) << on_close.status.message();
  auto end = testing::RunArgs(RamStack("100us"), Split(job + " --end_fsync=1"));
  ASSERT_TRUE(end.status.ok()) << end.status.message();
  auto both = testing::RunArgs(RamStack("100us"), Split(job + " --end_fsync=1 --fsync_on_close=1"));
  ASSERT_TRUE(both.status.ok()) << both.status.message();
  EXPECT_EQ(Disk(plain, Op::kFlush).ops, 0u);
  EXPECT_EQ(Disk(on_close, Op::kFlush).ops, 2u);  // one per file
  EXPECT_EQ(Disk(both, Op::kFlush).ops, 2u);
  EXPECT_EQ(Disk(on_close, Op::kWrite).bytes, 64u << 10);
  // As end_fsync: the same time, counted in the runtime.
  const auto& x = on_close.run->runners()[0]->extras();
  EXPECT_GT(x.end_fsync.count(), 100000);
  EXPECT_EQ(x.end_fsync, end.run->runners()[0]->extras().end_fsync);
  EXPECT_EQ(on_close.Json(),
            end.Json().replace(end.Json().find("\"end_fsync\""), 11, "\"fsync_on_close\""));
  // A read-only job does not fsync.
  auto read = testing::RunArgs(RamStack("100us"), Split("--name=a --filename=/d/f --rw=read "
                                                        "--size=64k --fsync_on_close=1"));
  ASSERT_TRUE(read.status.ok()) << read.status.message();
  EXPECT_EQ(Disk(read, Op::kFlush).ops, 1u);  // the layout's only (create_fsync)
}

// create_fsync (filesetup.c extend_file()): real fio 3.33 (strace, rw=read
// bs=4k size=1m on /tmp) fsyncs the file it lays out once, and not with
// create_fsync=0; rw=write overwrite=1 the same (1 and 0). A write job that
// does not lay its file out has nothing to fsync.
TEST(CreateFsyncTest, LayoutEndsWithAnFsyncUnlessOff) {
  for (const char* rw : {"--rw=read", "--rw=write --overwrite=1"}) {
    const std::string job = std::string("--name=a --filename=/d/f --bs=4k --size=1m ") + rw;
    auto on = testing::RunArgs(RamStack("100us"), Split(job));
    ASSERT_TRUE(on.status.ok()) << on.status.message();
    auto off = testing::RunArgs(RamStack("100us"), Split(job + " --create_fsync=0"));
    ASSERT_TRUE(off.status.ok()) << off.status.message();
    EXPECT_EQ(Disk(on, Op::kFlush).ops, 1u) << rw;
    EXPECT_EQ(Disk(off, Op::kFlush).ops, 0u) << rw;
    EXPECT_EQ(Disk(off, Op::kWrite).bytes, Disk(on, Op::kWrite).bytes) << rw;
  }
}

// max_latency (io_u.c account_io_completion(), lat_fatal()): real fio 3.33,
// rw=write bs=4k size=1m max_latency=1us on /tmp: the first write (48 µs)
// ends the job, "fio: latency of 48110 nsec exceeds specified max (1000
// nsec): /tmp/h5/f write 0 4096", err=110 (ETIMEDOUT, "func=max latency
// exceeded"), 4096 bytes written; max_latency=10s,1ns with rw=randrw: a
// write ends it (reads may take 10 s); rw=read max_latency=10s: all 256
// reads, err=0.
TEST(MaxLatencyTest, ALateIoEndsTheJob) {
  const std::string job = "--name=a --filename=/d/f --bs=4k --size=1m ";
  auto s =
      testing::RunArgs(RamStack("100us"), Split(job + "--rw=write --direct=1 --max_latency=50us"));
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.Job(0).error, ETIMEDOUT);
  EXPECT_NE(s.Job(0).verror.find("func=max latency exceeded"), std::string::npos);
  EXPECT_EQ(s.Job(0).dir[kWrite].io_bytes, 4096u);
  const auto& msgs = s.run->runners()[0]->messages();
  ASSERT_FALSE(msgs.empty());
  EXPECT_NE(msgs[0].find("exceeds specified max (50000 nsec): /d/f write 0 4096"),
            std::string::npos)
      << msgs[0];
  // Buffered writes take no 100 µs: the job runs to its end.
  auto fast = testing::RunArgs(RamStack("100us"), Split(job + "--rw=write --max_latency=90us"));
  ASSERT_TRUE(fast.status.ok()) << fast.status.message();
  EXPECT_EQ(fast.Job(0).error, 0);
  EXPECT_EQ(fast.Job(0).dir[kWrite].io_bytes, 1u << 20);
  // Per direction: direct reads of 100 µs pass a limit of 1 s.
  auto mix = testing::RunArgs(RamStack("100us"),
                              Split(job + "--rw=randrw --direct=1 --max_latency=1s,50us"));
  ASSERT_TRUE(mix.status.ok()) << mix.status.message();
  EXPECT_EQ(mix.Job(0).error, ETIMEDOUT);
  EXPECT_EQ(mix.Job(0).dir[kWrite].total_ios, 1u);
  auto reads = testing::RunArgs(RamStack("100us"),
                                Split(job + "--rw=read --direct=1 --max_latency=1s,50us"));
  ASSERT_TRUE(reads.status.ok()) << reads.status.message();
  EXPECT_EQ(reads.Job(0).error, 0);
  EXPECT_EQ(reads.Job(0).dir[kRead].io_bytes, 1u << 20);
}

// serialize_overlap (backend.c io_u_submit(), in_flight_overlap()): real
// fio 3.33, libaio direct=1 iodepth=8, randwrite norandommap bs=4k on a 16
// KiB file, io_size=4m (1024 writes): IO depths 1: 0.1 %, 2: 0.2 %, 4:
// 0.4 %, 8 (5-8): 99.3 % without; 1: 21.5 %, 2: 67.3 %, 4: 11.2 % with it
// (4 blocks: never more than 4 writes in flight); with iodepth_batch=4,
// 1: 4.9 %, 2: 69.8 %, 4: 25.1 %. Here on sata-ssd 99.3 % at 8, then 24.0
// / 66.4 / 9.6 %, and 5.2 / 71.9 / 22.9 % (the RAM disk below: the same
// bound).
TEST(SerializeOverlapTest, OverlappingWritesWaitForTheOnesInFlight) {
  const std::string job =
      "--name=a --filename=/d/f --rw=randwrite --norandommap --bs=4k "
      "--size=16k --io_size=4m --ioengine=libaio --direct=1 --iodepth=8";
  auto plain = testing::RunArgs(RamStack("100us"), Split(job));
  ASSERT_TRUE(plain.status.ok()) << plain.status.message();
  auto ser = testing::RunArgs(RamStack("100us"), Split(job + " --serialize_overlap=1"));
  ASSERT_TRUE(ser.status.ok()) << ser.status.message();
  const auto& p = plain.Job(0);
  const auto& q = ser.Job(0);
  EXPECT_EQ(p.dir[kWrite].total_ios, 1024u);
  EXPECT_EQ(q.dir[kWrite].total_ios, 1024u);
  EXPECT_GT(p.io_u_map[3], 1000u);  // depth 5-8 (fio's "8" bucket)
  EXPECT_EQ(q.io_u_map[3], 0u);     // never above 4: every block is in flight
  EXPECT_EQ(q.io_u_map[0] + q.io_u_map[1] + q.io_u_map[2], 1024u);
  // Fewer writes in flight: a longer run on this fixed-latency disk.
  EXPECT_GT(ser.run->runners()[0]->extras().io_end, plain.run->runners()[0]->extras().io_end);
  // Off for a job that only reads, or at iodepth=1 (init.c): nothing changes.
  const std::string reads =
      "--name=a --filename=/d/f --rw=randread --norandommap --bs=4k "
      "--size=16k --io_size=1m --ioengine=libaio --direct=1 --iodepth=8";
  auto r0 = testing::RunArgs(RamStack("100us"), Split(reads));
  auto r1 = testing::RunArgs(RamStack("100us"), Split(reads + " --serialize_overlap=1"));
  ASSERT_TRUE(r0.status.ok() && r1.status.ok());
  EXPECT_EQ(r0.Job(0).io_u_map, r1.Job(0).io_u_map);
  EXPECT_EQ(r0.Job(0).dir[kRead].clat.mean(), r1.Job(0).dir[kRead].clat.mean());
}

TEST(IoPathOptionsTest, BadValuesNameTheOptionAndTheJob) {
  for (const char* bad : {"fsync_on_close=2", "create_fsync=maybe", "max_latency=abc",
                          "max_latency=1s,2s,3s,4s", "max_latency=-5", "serialize_overlap=on2"}) {
    const std::string msg = JobFileError(bad);
    const std::string opt = std::string(bad).substr(0, std::string(bad).find('='));
    EXPECT_NE(msg.find("bad.fio:4"), std::string::npos) << bad << ": " << msg;
    EXPECT_NE(msg.find("option '" + opt + "'"), std::string::npos) << bad << ": " << msg;
  }
}

}  // namespace fio_io_path_test
}  // namespace storlab::fio
