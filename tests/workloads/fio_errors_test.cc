// continue_on_error, ignore_error and error_dump (fio 3.33 td_error.c,
// io_u.c io_completed, backend.c break_on_this_error): which I/O errors a
// job counts and goes on after, and how fio reports them (the "errors"
// line, total_err / first_error in JSON and terse). The golden files are
// real fio's, writing to /dev/full (tests/workloads/golden/README.md).
#include <gtest/gtest.h>

#include <cerrno>
#include <regex>

#include "sim/node_faults.h"
#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_errors_test {

using testing::RamStack;
using testing::ReadGolden;
using testing::Split;

ErrorPolicy Policy(const std::vector<std::pair<std::string, std::string>>& opts) {
  JobOptions o;
  for (const auto& [k, v] : opts) EXPECT_TRUE(ApplyOption(&o, k, v, true, "j.fio:3").ok()) << k;
  return o.errors;
}

TEST(FioErrorPolicyTest, ContinueOnErrorAndIgnoreErrorAsFioParsesThem) {
  EXPECT_EQ(Policy({{"continue_on_error", "none"}}).continue_mask, 0u);
  EXPECT_EQ(Policy({{"continue_on_error", "read"}}).continue_mask, 1u);
  EXPECT_EQ(Policy({{"continue_on_error", "write"}}).continue_mask, 2u);
  EXPECT_EQ(Policy({{"continue_on_error", "io"}}).continue_mask, 3u);
  EXPECT_EQ(Policy({{"continue_on_error", "verify"}}).continue_mask, 4u);
  EXPECT_EQ(Policy({{"continue_on_error", "all"}}).continue_mask, 0xffffu);
  EXPECT_EQ(Policy({{"continue_on_error", "1"}}).continue_mask, 0xffffu);
  EXPECT_EQ(Policy({{"continue_on_error", "0"}}).continue_mask, 0u);
  // Defaults: EIO and EILSEQ go on, others end the job.
  ErrorPolicy io = Policy({{"continue_on_error", "io"}});
  EXPECT_TRUE(io.NonFatal(ErrorPolicy::kReadType, EIO));
  EXPECT_FALSE(io.NonFatal(ErrorPolicy::kWriteType, ENOSPC));
  EXPECT_FALSE(io.NonFatal(ErrorPolicy::kVerifyType, EILSEQ));  // not named
  EXPECT_EQ(ErrorPolicy::Type(kRead, EILSEQ), ErrorPolicy::kVerifyType);
  EXPECT_EQ(ErrorPolicy::Type(kRead, EIO), ErrorPolicy::kReadType);
  EXPECT_EQ(ErrorPolicy::Type(2, EIO), ErrorPolicy::kWriteType);  // fsync
  // enospc-pressure.fio: a list replaces the default and names its type.
  ErrorPolicy w = Policy({{"continue_on_error", "write"}, {"ignore_error", ",ENOSPC:28:-5"}});
  EXPECT_EQ(w.continue_mask, 2u);
  EXPECT_EQ(w.ignore[1], (std::vector<int>{ENOSPC, ENOSPC, EIO}));
  EXPECT_TRUE(w.NonFatal(ErrorPolicy::kWriteType, ENOSPC));
  ErrorPolicy v = Policy({{"ignore_error", ",,EIO"}});
  EXPECT_EQ(v.continue_mask, 4u);  // ignore_error alone turns its types on
  // In the order given: continue_on_error replaces what ignore_error set.
  EXPECT_EQ(Policy({{"ignore_error", "EIO"}, {"continue_on_error", "none"}}).continue_mask, 0u);
}

TEST(FioErrorPolicyTest, BadValuesNameTheOptionAndLine) {
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "continue_on_error", "sometimes", true, "j.fio:4").message(),
            "j.fio:4: option 'continue_on_error': 'sometimes' is not one of none, read, write, "
            "io, verify, all, 0, 1");
  EXPECT_EQ(ApplyOption(&o, "ignore_error", ",EBADXX", true, "j.fio:5").message(),
            "j.fio:5: option 'ignore_error': unknown error 'EBADXX' (an errno name "
            "EPERM..ERANGE, or its number)");
  EXPECT_EQ(ApplyOption(&o, "ignore_error", "EIO,EIO,EIO,EIO", true, "j.fio:6").message(),
            "j.fio:6: option 'ignore_error': at most three lists (read,write,verify), each "
            "errors separated by ':'");
  EXPECT_FALSE(ApplyOption(&o, "ignore_error", "0", true, "j.fio:7").ok());
  EXPECT_FALSE(ApplyOption(&o, "ignore_error", "EILSEQ", true, "j.fio:7").ok());  // as fio
}

// Fills a 1 MiB file system, then a job writes 64 KiB more: every write
// fails with ENOSPC, as real fio's writes to /dev/full.
testing::Sim RunFull(const std::string& opts) {
  auto sections =
      ParseCommandLine(Split("--ioengine=psync --direct=1 --name=fill --rw=write "
                             "--size=1m --name=coe --rw=write --bs=4k --size=64k " +
                             opts));
  EXPECT_TRUE(sections.ok());
  return testing::RunJobs(RamStack("10us", "1MiB"), *sections);
}

// The line of `text` that starts with `start`, up to its pid (real fio's
// pid and date differ from run to run).
std::string Line(const std::string& text, const std::string& start) {
  size_t p = text.find(start);
  if (p == std::string::npos) return "";
  std::string line = text.substr(p, text.find('\n', p) - p);
  return line.substr(0, line.find(": pid="));
}

TEST(FioContinueOnErrorTest, NonFatalErrorsAreCountedAndTheJobGoesOn) {
  auto s = RunFull("--continue_on_error=write --ignore_error=,ENOSPC");
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& t = s.Job(1);
  EXPECT_EQ(t.error, 0);  // cleared: storlab sim exits 0, as fio does
  EXPECT_EQ(t.dir[kWrite].total_ios, 16u);
  EXPECT_EQ(t.dir[kWrite].io_bytes, 0u);
  EXPECT_EQ(t.total_err_count, 16u);
  EXPECT_EQ(t.first_error, ENOSPC);
  EXPECT_TRUE(s.run->runners()[1]->messages().empty());  // no error_dump
  // The report, line for line as real fio's for the same errors.
  const std::string fio = ReadGolden("errors/coe_enospc.txt");
  const std::string normal = s.Normal();
  const std::string ours = normal.substr(normal.find("coe: (groupid"));  // after fill's
  for (const char* l : {"coe: (groupid=0, jobs=1): err=28 (", "     issued rwts:", "     errors"}) {
    EXPECT_EQ(Line(ours, l), Line(fio, l)) << l;
  }
  // JSON: the same keys, in fio's order, and the same figures.
  auto golden = nlohmann::ordered_json::parse(ReadGolden("errors/coe_enospc.json"))["jobs"][0];
  auto ours_j = s.JsonObject()["jobs"][1];
  std::vector<std::string> want, got;
  for (auto it = golden.begin(); it != golden.end(); ++it) want.push_back(it.key());
  for (auto it = ours_j.begin(); it != ours_j.end(); ++it) got.push_back(it.key());
  EXPECT_EQ(got, want);
  for (const char* k : {"error", "total_err", "first_error"}) EXPECT_EQ(ours_j[k], golden[k]) << k;
  // Terse: the two figures after the latency buckets.
  const std::string terse = FioTerseReport(*s.run, 3);
  const std::string coe_line = Line(terse, "3;fio-3.33;coe;");
  EXPECT_EQ(coe_line.substr(coe_line.size() - 7), "%;16;28") << coe_line;
  // error_dump=1 says each error.
  auto d = RunFull("--continue_on_error=write --ignore_error=,ENOSPC --error_dump=1");
  EXPECT_EQ(d.run->runners()[1]->messages().size(), 16u);
}

TEST(FioContinueOnErrorTest, AnErrorNotInTheListEndsTheJobAndIsCounted) {
  auto s = RunFull("--continue_on_error=write");  // ENOSPC is not EIO
  ASSERT_TRUE(s.status.ok());
  const ThreadStat& t = s.Job(1);
  EXPECT_EQ(t.error, ENOSPC);
  EXPECT_EQ(t.total_err_count, 1u);
  const std::string fio = ReadGolden("errors/coe_fatal.txt");
  const std::string normal = s.Normal();
  const std::string ours = normal.substr(normal.find("coe: (groupid"));
  EXPECT_EQ(Line(ours, "     errors"), Line(fio, "     errors"));
  EXPECT_EQ(Line(ours, "     issued rwts:"), Line(fio, "     issued rwts:"));
  // Without continue_on_error: no count, no errors line (fio's default).
  auto n = RunFull("");
  EXPECT_EQ(n.Job(1).total_err_count, 0u);
  EXPECT_EQ(Line(n.Normal(), "     errors"), "");
  EXPECT_FALSE(n.JsonObject()["jobs"][1].contains("total_err"));
}

// A job whose disk goes away (every request fails with EIO) at `at`, or,
// with `corrupt`, whose block at 4 KiB goes bad then.
testing::Sim RunDetached(const std::string& args, Nanos at, bool corrupt = false) {
  return testing::RunWithHost(RamStack("100us"), Split(args), corrupt, [at, corrupt](SimHost& h) {
    h.engine().At(h.engine().now() + at, [&h, corrupt] {
      if (corrupt) {
        h.device().faults().corrupt.insert(4096);
      } else {
        h.device().faults().detached = true;
      }
    });
  });
}

TEST(FioContinueOnErrorTest, ReadErrorsWithTheDefaultListAndAnAsyncEngine) {
  const std::string job =
      "--name=r --rw=read --bs=4k --size=256k --direct=1 --ioengine=libaio --iodepth=4 ";
  // The disk goes away after ~10 reads: the other 54 fail with EIO.
  auto s = RunDetached(job + "--continue_on_error=read", Nanos(250'000));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& t = s.Job(0);
  EXPECT_EQ(t.error, 0);
  EXPECT_EQ(t.dir[kRead].total_ios, 64u);
  EXPECT_GT(t.total_err_count, 40u);
  EXPECT_EQ(t.dir[kRead].io_bytes + t.total_err_count * 4096, 256u * 1024);
  EXPECT_EQ(t.first_error, EIO);
  // An async engine sets no error text: fio prints "err= 5 ()".
  EXPECT_NE(s.Normal().find("r: (groupid=0, jobs=1): err= 5 (): pid=0"), std::string::npos);
  EXPECT_EQ(s.JsonObject()["jobs"][0]["error"], EIO);
  // continue_on_error=write does not cover reads: the first error ends it.
  auto w = RunDetached(job + "--continue_on_error=write", Nanos(250'000));
  EXPECT_EQ(w.Job(0).error, EIO);
  EXPECT_EQ(w.Job(0).total_err_count, 0u);  // not a type it continues on
  EXPECT_LT(w.Job(0).dir[kRead].total_ios, 20u);
}

TEST(FioContinueOnErrorTest, VerifyErrorsGoOnWithContinueOnErrorVerify) {
  // As fio_verify_test's CorruptedBlockIsFiosVerifyError: block 1 goes bad
  // before the verify pass reads it.
  const std::string job = "--name=w --rw=write --bs=4k --size=64k --direct=1 --verify=crc32c ";
  auto s = RunDetached(job + "--continue_on_error=verify", Nanos(1'000'000), true);
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& t = s.Job(0);
  EXPECT_EQ(t.error, 0);
  EXPECT_EQ(t.dir[kRead].total_ios, 16u);  // the whole verify pass
  EXPECT_EQ(t.total_err_count, 1u);
  EXPECT_EQ(t.first_error, EILSEQ);
  EXPECT_FALSE(s.run->runners()[0]->messages().empty());  // verify says what it found
  EXPECT_NE(s.Normal().find("errors    : total=1, first_error=84/<Invalid or incomplete "
                            "multibyte or wide character>"),
            std::string::npos);
  // verify_fatal=1 ends the pass there, without an error.
  auto f = RunDetached(job + "--continue_on_error=verify --verify_fatal=1", Nanos(1'000'000), true);
  EXPECT_EQ(f.Job(0).error, 0);
  EXPECT_EQ(f.Job(0).dir[kRead].total_ios, 2u);
  // continue_on_error=io does not cover verify errors.
  auto io = RunDetached(job + "--continue_on_error=io", Nanos(1'000'000), true);
  EXPECT_EQ(io.Job(0).error, EILSEQ);
}

}  // namespace fio_errors_test
}  // namespace storlab::fio
