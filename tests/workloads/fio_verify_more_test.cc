// verify_interval (verify.c get_hdr_inc(), fill_pattern_headers(),
// verify_io_u(); init.c fixup_options()), verify_backlog and
// verify_backlog_batch (io_u.c check_get_verify(), verify.c
// get_next_verify()) and verify_dump (verify.c dump_buf()), in virtual
// time on the bytes the stack returns.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/node_faults.h"
#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/verify.h"

namespace storlab::fio {
namespace fio_verify_more_test {

using testing::RamStack;
using testing::Split;

uint64_t Le(const std::vector<uint8_t>& b, size_t at, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | b[at + static_cast<size_t>(i)];
  return v;
}

TEST(VerifyIntervalTest, AHeaderEveryIntervalBytes) {
  std::vector<uint8_t> buf(4096, 0x5a);
  VerifyBlock b;
  b.offset = 8192;
  b.rand_seed = 7;
  FillVerify(VerifyKind::kCrc32c, {}, b, buf.data(), buf.size(), 1024);
  for (size_t n = 0; n < 4; ++n) {
    EXPECT_EQ(Le(buf, n * 1024, 2), 0xaccau) << n;
    EXPECT_EQ(Le(buf, n * 1024 + 4, 4), 1024u) << n;              // len: the interval
    EXPECT_EQ(Le(buf, n * 1024 + 16, 8), 8192u + n * 1024) << n;  // offset
  }
  VerifyOutcome ok =
      CheckVerify(VerifyKind::kCrc32c, {}, b, true, "f", buf.data(), buf.size(), 1024, false);
  EXPECT_FALSE(ok.failed);
  EXPECT_EQ(ok.messages, "");
  // A bad byte in the second block's data: reported for that block; the
  // blocks after it pass, and as in fio the I/O's result is the last
  // block's — unless verify_fatal stops at the bad one.
  buf[1024 + 100] ^= 1;
  VerifyOutcome bad =
      CheckVerify(VerifyKind::kCrc32c, {}, b, true, "f", buf.data(), buf.size(), 1024, false);
  EXPECT_FALSE(bad.failed);
  EXPECT_EQ(bad.messages.rfind("crc32c: verify failed at file f offset 9216, length 1024 "
                               "(requested block: offset=8192, length=4096, flags=88)\n",
                               0),
            0u)
      << bad.messages;
  ASSERT_EQ(bad.bad.size(), 1u);
  EXPECT_EQ(bad.bad[0].at, 1024u);
  VerifyOutcome fatal =
      CheckVerify(VerifyKind::kCrc32c, {}, b, true, "f", buf.data(), buf.size(), 1024, true);
  EXPECT_TRUE(fatal.failed);
  // A bad header ends the check at once.
  buf[2048] ^= 1;
  VerifyOutcome hdr =
      CheckVerify(VerifyKind::kCrc32c, {}, b, true, "f", buf.data(), buf.size(), 1024, false);
  EXPECT_TRUE(hdr.failed);
  EXPECT_EQ(hdr.bad.size(), 2u);
  EXPECT_EQ(hdr.bad[1].message,
            "verify: bad magic header accb, wanted acca at file f offset 10240, length 1024 "
            "(requested block: offset=8192, length=4096)\n");
}

testing::Sim RunVerify(const std::string& args, uint64_t corrupt = 0, Nanos at = Nanos(-1)) {
  return testing::RunWithHost(
      RamStack("100us"), Split(args), /*keep_data=*/true, [corrupt, at](SimHost& h) {
        if (at < Nanos(0)) return;
        h.engine().At(h.engine().now() + at,
                      [&h, corrupt] { h.device().faults().corrupt.insert(corrupt); });
      });
}

TEST(VerifyIntervalTest, FixupAndARunWithSmallIntervals) {
  // examples/surface-scan.fio's shape: 64 KiB writes, a header every 512 bytes.
  auto s = RunVerify(
      "--name=w --rw=write --bs=64k --size=1m --direct=1 --verify=meta "
      "--verify_pattern=0xaa555aa5 --verify_interval=512");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).error, 0);
  EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 16u);
  EXPECT_EQ(s.run->jobs().jobs[0].verify_interval, 512u);
  // init.c fixup_options(): not a factor of the write size: the gcd of the
  // sizes; varying sizes: the smallest; above it: capped.
  auto g =
      RunVerify("--name=w --rw=write --bs=4k --size=64k --verify=crc32c --verify_interval=3000");
  EXPECT_EQ(g.run->jobs().jobs[0].verify_interval, 4096u);
  auto r = RunVerify("--name=w --rw=write --bsrange=4k-16k --size=64k --verify=crc32c");
  EXPECT_EQ(r.run->jobs().jobs[0].verify_interval, 4096u);
  auto c = RunVerify("--name=w --rw=write --bs=4k --size=64k --verify=crc32c --verify_interval=8k");
  EXPECT_EQ(c.run->jobs().jobs[0].verify_interval, 4096u);
  // Too small for two headers: fio's minimum.
  auto t = RunVerify("--name=w --rw=write --bs=4k --size=64k --verify=crc32c --verify_interval=64");
  EXPECT_NE(t.status.message().find("verify_interval"), std::string::npos) << t.status.ToString();
}

TEST(VerifyIntervalTest, ABadBlockInsideAnIoIsReportedAndOnlyFatalWithVerifyFatal) {
  // The disk's 512-byte block at 4608 goes bad: data of the first 1 KiB
  // verify block of the I/O at 4096; the I/O's last block is good.
  const std::string job =
      "--name=w --rw=write --bs=4k --size=64k --direct=1 --verify=crc32c --verify_interval=1k ";
  auto s = RunVerify(job, 4608, Nanos(1000000));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).error, 0);
  EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 16u);
  const auto& m = s.run->runners()[0]->messages();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[0],
            "crc32c: verify failed at file w.0.0 offset 4096, length 1024 (requested block: "
            "offset=4096, length=4096, flags=88)");
  auto f = RunVerify(job + "--verify_fatal=1", 4608, Nanos(1000000));
  EXPECT_EQ(f.Job(0).error, 84);
  EXPECT_EQ(f.Job(0).dir[kRead].total_ios, 2u);
}

TEST(VerifyBacklogTest, VerifiesDuringTheWrites) {
  const std::string job = "--name=w --rw=write --bs=4k --size=64k --verify=crc32c ";
  // Every 4 blocks written, the 4 read back — but the job stops issuing
  // once its 16th write is issued (backend.c do_io(): io_issue_bytes, which
  // verify reads do not count), so the last 4 wait for the verify pass.
  auto s = RunVerify(job + "--verify_backlog=4 --do_verify=0");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).error, 0);
  EXPECT_EQ(s.Job(0).dir[kWrite].total_ios, 16u);
  EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 12u);
  auto v = RunVerify(job + "--verify_backlog=4");
  EXPECT_EQ(v.Job(0).dir[kRead].total_ios, 16u);
  // verify_backlog_batch=2: 2 reads each time the backlog is a multiple of
  // 4 after a write (after writes 4, 6, 8, 10, 12 and 14).
  auto b = RunVerify(job + "--verify_backlog=4 --verify_backlog_batch=2 --do_verify=0");
  EXPECT_EQ(b.Job(0).dir[kRead].total_ios, 12u);
  auto p = RunVerify(job + "--verify_backlog=4 --verify_backlog_batch=2");
  EXPECT_EQ(p.Job(0).dir[kRead].total_ios, 16u);
  EXPECT_EQ(p.Job(0).error, 0);
}

TEST(VerifyBacklogTest, ACorruptedBlockIsCaughtByTheBacklog) {
  // Block 1 (written at 0.1-0.2 ms) goes bad at 0.25 ms; the backlog
  // reads it back after the 4th write, long before the writes end.
  auto s = RunVerify(
      "--name=w --rw=write --bs=4k --size=64k --direct=1 --verify=crc32c --verify_backlog=4 "
      "--do_verify=0",
      4096, Nanos(250000));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.Job(0).error, 84);
  EXPECT_LT(s.Job(0).dir[kWrite].total_ios, 16u);  // it stopped the writes
}

TEST(VerifyDumpTest, DumpsReceivedAndExpected) {
  const std::string job =
      "--name=w --rw=write --bs=4k --size=64k --direct=1 --verify=crc32c --verify_dump=1 ";
  // A bad header: its block as hdr_fail.
  auto h = RunVerify(job, 4096, Nanos(1000000));
  const JobRunner& hr = *h.run->runners()[0];
  ASSERT_EQ(hr.verify_dumps().size(), 1u);
  EXPECT_EQ(hr.verify_dumps()[0].name, "w.0.0.4096.hdr_fail");
  EXPECT_EQ(hr.verify_dumps()[0].bytes.size(), 4096u);
  EXPECT_EQ(hr.messages().at(1), "       hdr_fail data dumped as w.0.0.4096.hdr_fail");
  // Bad data: what was read and what was written, differing in one byte.
  auto d = RunVerify(job, 4608, Nanos(1000000));
  const JobRunner& dr = *d.run->runners()[0];
  ASSERT_EQ(dr.verify_dumps().size(), 2u);
  EXPECT_EQ(dr.verify_dumps()[0].name, "w.0.0.4096.received");
  EXPECT_EQ(dr.verify_dumps()[1].name, "w.0.0.4096.expected");
  const auto& got = dr.verify_dumps()[0].bytes;
  const auto& want = dr.verify_dumps()[1].bytes;
  ASSERT_EQ(got.size(), 4096u);
  ASSERT_EQ(want.size(), 4096u);
  size_t diff = 0;
  for (size_t i = 0; i < got.size(); ++i) diff += got[i] != want[i];
  EXPECT_EQ(diff, 1u);
  EXPECT_EQ(got[512], static_cast<uint8_t>(~want[512]));
}

}  // namespace fio_verify_more_test
}  // namespace storlab::fio
