// The engine flags uncached (pvsync2, io_uring: RWF_UNCACHED) and thp
// (mmap: a private mapping), as fio 3.33 sets them (job_spec_fixup.cc,
// job_runner_engines.cc).
#include <gtest/gtest.h>

#include <string>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_engine_flags_test {

using testing::RamStack;
using testing::Split;

testing::Sim RunJob(const std::string& args) {
  return testing::RunArgs(RamStack(), Split("--name=u --filename=/d/f --size=1m --bs=4k " + args));
}

// Real fio 3.33 on this kernel: `fio --name=u --filename=/tmp/u.dat
// --size=1m --bs=4k --rw=write --ioengine=pvsync2 --uncached=1` stops at
// its first write, err=95 (io_u.c:1876, Operation not supported); so does
// io_uring's read.
TEST(EngineFlagsTest, UncachedBufferedIoIsRefused) {
  for (const char* args : {"--rw=write --ioengine=pvsync2 --uncached=1",
                           "--rw=read --ioengine=io_uring --uncached=1"}) {
    auto s = RunJob(args);
    ASSERT_TRUE(s.status.ok()) << s.status.ToString();
    EXPECT_EQ(s.Job(0).error, 95) << args;
    EXPECT_EQ(s.Job(0).verror, "file:io_u.c:1876, func=io_u error, error=Operation not supported")
        << args;
    EXPECT_EQ(s.Job(0).dir[kRead].io_bytes + s.Job(0).dir[kWrite].io_bytes, 0u) << args;
  }
  // O_DIRECT: fio sets no flag.
  auto d = RunJob("--rw=write --ioengine=pvsync2 --uncached=1 --direct=1");
  ASSERT_TRUE(d.status.ok());
  EXPECT_EQ(d.Job(0).error, 0);
  EXPECT_EQ(d.Job(0).dir[kWrite].io_bytes, 1u << 20);
  auto bad = RunJob("--rw=write --ioengine=psync --uncached=1");
  EXPECT_NE(bad.status.message().find("uncached is an option of ioengine=pvsync2"),
            std::string::npos)
      << bad.status.message();
}

uint64_t DeviceBytes(const testing::Sim& s, Op op) { return s.host->device().stats().op(op).bytes; }

// thp: the stores land in private copies; the file (laid out by fio
// first) is only read, by the faults that copy its pages.
TEST(EngineFlagsTest, ThpMakesTheMappingPrivate) {
  auto shared = RunJob("--rw=write --ioengine=mmap --end_fsync=1");
  ASSERT_TRUE(shared.status.ok()) << shared.status.ToString();
  auto priv = RunJob("--rw=write --ioengine=mmap --end_fsync=1 --thp=1");
  ASSERT_TRUE(priv.status.ok()) << priv.status.ToString();
  EXPECT_EQ(priv.Job(0).dir[kWrite].io_bytes, 1u << 20);
  // The layout writes the file in both; the job's stores reach it only
  // through the shared mapping.
  EXPECT_EQ(DeviceBytes(shared, Op::kWrite) - DeviceBytes(priv, Op::kWrite), 1u << 20);
  // direct=1's msync after each store: nothing to sync in a private mapping.
  auto synced = RunJob("--rw=write --ioengine=mmap --direct=1 --thp=1");
  ASSERT_TRUE(synced.status.ok()) << synced.status.ToString();
  EXPECT_EQ(DeviceBytes(synced, Op::kWrite), DeviceBytes(priv, Op::kWrite));
  // Loads of pages already copied touch no file.
  auto rw = RunJob("--rw=rw --ioengine=mmap --thp=1 --loops=1 --time_based --runtime=20ms");
  ASSERT_TRUE(rw.status.ok()) << rw.status.ToString();
  EXPECT_GT(rw.Job(0).dir[kRead].io_bytes, 0u);
}

TEST(EngineFlagsTest, ThpBelongsToMmap) {
  auto bad = RunJob("--rw=write --ioengine=psync --thp=1");
  EXPECT_NE(bad.status.message().find("thp is an option of ioengine=mmap"), std::string::npos)
      << bad.status.message();
  auto v = RunJob("--rw=write --ioengine=mmap --thp=1 --verify=crc32c");
  EXPECT_NE(v.status.message().find("thp with verify is not supported"), std::string::npos)
      << v.status.message();
}

// userspace_reap (engines/libaio.c fio_libaio_getevents()): with
// iodepth_batch_complete_min=0 the completions are read off the ring, no
// io_getevents() per reap; with the default minimum of 1 it does nothing.
TEST(EngineFlagsTest, UserspaceReapSkipsTheReapCall) {
  const std::string aio = "--rw=randread --direct=1 --ioengine=libaio --iodepth=4 ";
  auto plain = RunJob(aio + "--iodepth_batch_complete_min=0");
  auto user = RunJob(aio + "--iodepth_batch_complete_min=0 --userspace_reap");
  auto ignored = RunJob(aio + "--userspace_reap");
  auto base = RunJob(aio);
  for (const auto* s : {&plain, &user, &ignored, &base}) ASSERT_TRUE(s->status.ok());
  EXPECT_LT(user.Job(0).dir[kRead].lat.mean(), plain.Job(0).dir[kRead].lat.mean());
  EXPECT_EQ(ignored.Job(0).dir[kRead].lat.mean(), base.Job(0).dir[kRead].lat.mean());
  auto bad = RunJob("--rw=read --ioengine=io_uring --userspace_reap");
  EXPECT_NE(bad.status.message().find("userspace_reap is an option of ioengine=libaio"),
            std::string::npos)
      << bad.status.message();
}

}  // namespace fio_engine_flags_test
}  // namespace storlab::fio
