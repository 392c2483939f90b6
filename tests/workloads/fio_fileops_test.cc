// The file system engines (job_runner_fileops.cc): falloc (engines/falloc.c
// fio_fallocate_queue()), ftruncate (engines/ftruncate.c), filecreate,
// filestat and filedelete (engines/fileoperations.c), and openfiles=
// (io_u.c get_next_file_rr()): what each does to the simulated file system,
// what it costs, and that none of it reaches the device.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_fileops_test {

using testing::RamStack;
using testing::RecordedLog;
using testing::RunArgs;
using testing::RunInDir;
using testing::Split;

uint64_t DiskOps(const testing::Sim& s, Op op) { return s.host->device().stats().op(op).ops; }

TEST(FioFileOpsTest, FallocWritesAllocateReadsKeepTheSizeTrimsPunch) {
  // fallocate=none: the file starts empty; each write is fallocate(0).
  auto w = RunInDir("--ioengine=falloc --rw=randwrite --bs=4k --size=256k --fallocate=none");
  const auto& f = w.host->fs().file(w.host->fs().Lookup("/d/t.0.0"));
  EXPECT_EQ(f.allocated, 256u << 10);
  EXPECT_EQ(f.size, 256u << 10);
  const ThreadStat& ts = w.Job(0);
  EXPECT_EQ(ts.dir[kWrite].total_ios, 64u);
  EXPECT_EQ(ts.dir[kWrite].clat.min(), 1450u);  // engines.cc: the measured call
  EXPECT_EQ(ts.dir[kWrite].clat.max(), 1450u);
  EXPECT_EQ(DiskOps(w, Op::kWrite), 0u);  // no data reaches the device

  // Reads are fallocate(KEEP_SIZE) past the size; trims punch holes.
  auto r = RunInDir("--ioengine=falloc --rw=read --bs=4k --size=64k --fallocate=truncate");
  const auto& g = r.host->fs().file(r.host->fs().Lookup("/d/t.0.0"));
  EXPECT_EQ(g.allocated, 64u << 10);
  EXPECT_EQ(DiskOps(r, Op::kRead), 0u);
  auto t = RunInDir("--ioengine=falloc --rw=randtrim --bs=4k --size=64k");
  const auto& h = t.host->fs().file(t.host->fs().Lookup("/d/t.0.0"));
  EXPECT_EQ(h.allocated, 0u);
  EXPECT_EQ(h.size, 64u << 10);
  EXPECT_EQ(t.Job(0).dir[kTrim].clat.min(), 37600u);
  EXPECT_EQ(DiskOps(t, Op::kTrim), 0u);  // no discard mount option
}

TEST(FioFileOpsTest, FtruncateSetsTheSizeToEachOffsetAndRefusesReads) {
  auto w = RunInDir("--ioengine=ftruncate --rw=write --bs=4k --size=64k");
  const auto& f = w.host->fs().file(w.host->fs().Lookup("/d/t.0.0"));
  EXPECT_EQ(f.size, 60u << 10);  // the last write's offset
  EXPECT_EQ(w.Job(0).dir[kWrite].clat.max(), 1530u);
  EXPECT_EQ(DiskOps(w, Op::kWrite), 0u);
  auto r = RunInDir("--ioengine=ftruncate --rw=read --bs=4k --size=64k");
  EXPECT_EQ(r.Job(0).error, EINVAL);
}

TEST(FioFileOpsTest, CreateStatDeleteTimeTheirCallOncePerFile) {
  auto c = RunInDir("--ioengine=filecreate --nrfiles=10 --filesize=4k --openfiles=1");
  const ThreadStat& cs = c.Job(0);
  EXPECT_EQ(cs.dir[kRead].clat.samples(), 10u);  // one per open; the I/Os take none
  EXPECT_EQ(cs.dir[kRead].clat.min(), 55600u);
  EXPECT_EQ(cs.dir[kRead].lat.samples(), 0u);
  EXPECT_EQ(cs.dir[kRead].io_bytes, 10u * 4096);
  for (int i = 0; i < 10; ++i) {
    uint32_t id = c.host->fs().Lookup("/d/t.0." + std::to_string(i));
    ASSERT_NE(id, 0u) << i;
    EXPECT_EQ(c.host->fs().file(id).size, 0u);  // created empty, no layout
  }

  auto st = RunInDir("--ioengine=filestat --nrfiles=4 --filesize=4k --stat_type=lstat");
  EXPECT_EQ(st.Job(0).dir[kRead].clat.samples(), 4u);
  EXPECT_EQ(st.Job(0).dir[kRead].clat.max(), 1780u);

  auto d = RunInDir("--ioengine=filedelete --nrfiles=4 --filesize=4k --rw=write");
  EXPECT_EQ(d.Job(0).dir[kWrite].clat.samples(), 4u);  // a writing job's direction
  EXPECT_EQ(d.Job(0).dir[kWrite].clat.min(), 67100u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(d.host->fs().Lookup("/d/t.0." + std::to_string(i)), 0u);
  EXPECT_EQ(d.host->fs().used_bytes(), 0u);
}

TEST(FioFileOpsTest, OpenfilesKeepsAFileUntilItsPassIsDone) {
  // Round robin over two open files alternates; with openfiles=1 the
  // second file opens when the first is done (write_iolog's order).
  auto files = [](const std::string& log) {
    std::istringstream in(log);
    std::string line, out;
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string t, file, op;
      if (ls >> t >> file >> op && op == "read") out += file.substr(file.size() - 1);
    }
    return out;
  };
  const std::string base = "--name=t --directory=/d --nrfiles=2 --filesize=8k --bs=4k";
  EXPECT_EQ(files(RecordedLog(RamStack(), base)), "0101");
  EXPECT_EQ(files(RecordedLog(RamStack(), base + " --openfiles=1")), "0011");
}

TEST(FioFileOpsTest, UnlinkRemovesTheFilesWhenTheJobIsDone) {
  auto s = RunInDir("--rw=write --bs=4k --size=64k --unlink=1");
  EXPECT_EQ(s.host->fs().Lookup("/d/t.0.0"), 0u);
  auto bad = RunArgs(RamStack(), Split("--name=t --openfiles=-1"));
  EXPECT_NE(bad.status.message().find("openfiles"), std::string::npos) << bad.status.message();
}

}  // namespace fio_fileops_test
}  // namespace storlab::fio
