// create_on_open, io_submit_mode and buffer_pattern (fio 3.33 filesetup.c
// setup_files, rate-submit.c, lib/pattern.c parse_and_fill_pattern,
// verify.c fill_buffer_pattern). The golden files are real fio's
// (tests/workloads/golden/README.md).
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <sstream>

#include "sim/virtual_driver.h"
#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/fio_pattern.h"

namespace storlab::fio {
namespace fio_submit_data_test {

using testing::RamStack;
using testing::ReadGolden;
using testing::Split;

std::vector<uint8_t> Bytes(std::initializer_list<int> v) {
  std::vector<uint8_t> out;
  for (int b : v) out.push_back(static_cast<uint8_t>(b));
  return out;
}

TEST(FioPatternTest, ParsesWhatFiosParseAndFillPatternParses) {
  EXPECT_EQ(*ParseFioPattern("0x01"), Bytes({1}));
  EXPECT_EQ(*ParseFioPattern("0xabc"), Bytes({0x0a, 0xbc}));  // real fio writes 0a bc
  EXPECT_EQ(*ParseFioPattern("0xff0x14"), Bytes({0xff, 0x14}));
  EXPECT_EQ(*ParseFioPattern("-1"), Bytes({0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(*ParseFioPattern("0"), Bytes({0}));
  EXPECT_EQ(*ParseFioPattern("258"), Bytes({2, 1}));
  EXPECT_EQ(*ParseFioPattern("\"abc\"0x0102"), Bytes({'a', 'b', 'c', 1, 2}));
  EXPECT_EQ(*ParseFioPattern("7\"x\""), Bytes({7, 'x'}));
  for (const char* bad : {"", "0xzz", "\"\"", "\"abc", "pattern", "2147483648", "'file'", "%o"}) {
    EXPECT_FALSE(ParseFioPattern(bad).ok()) << bad;
  }
  EXPECT_FALSE(ParseFioPattern(std::string(1100, '1').insert(0, "0x")).ok());  // > 512 bytes
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "buffer_pattern", "0xzz", true, "j.fio:2").message(),
            "j.fio:2: option 'buffer_pattern': not a \"string\", 0xHEX or a number at '0xzz'");
  EXPECT_EQ(ApplyOption(&o, "buffer_pattern", "'f'", true, "j.fio:3").message(),
            "j.fio:3: option 'buffer_pattern': a pattern read from a host file ('NAME') is not "
            "modelled by storlab sim");
}

// Runs `args` on a RAM disk that keeps data; returns the first `len` bytes
// of file `name` as the stack holds them.
std::string RunAndRead(const std::string& args, const std::string& name, uint64_t len,
                       testing::Sim* out = nullptr) {
  testing::Sim s = testing::RunWithHost(RamStack("10us"), Split(args), /*keep_data=*/true);
  EXPECT_TRUE(s.status.ok()) << s.status.ToString();
  std::string data(len, '\0');
  const uint32_t id = s.host->fs().Lookup(name);
  EXPECT_NE(id, 0u);
  bool done = false;
  s.host->FileIo(
      id, Op::kRead, 0, len, /*direct=*/true, [&](Status st) { done = st.ok(); }, 0,
      reinterpret_cast<uint8_t*>(data.data()));
  VirtualDriver(s.host->engine()).RunUntilIdle();
  EXPECT_TRUE(done);
  if (out) *out = std::move(s);
  return data;
}

TEST(FioBufferPatternTest, WritesCarryThePatternAsRealFiosDo) {
  const std::string fio = ReadGolden("pattern/abc_0102.bin");  // 8 KiB real fio wrote
  ASSERT_EQ(fio.size(), 8192u);
  const std::string ours = RunAndRead(
      "--name=x --filename=p --rw=write --bs=4k --size=8k --direct=1 "
      "--buffer_pattern=\"abc\"0x0102",
      "p", 8192);
  EXPECT_EQ(ours, fio);  // the pattern starts again at each block
  // Without it, the data is fio's scrambled random buffer.
  EXPECT_NE(RunAndRead("--name=x --filename=p --rw=write --bs=4k --size=8k --direct=1", "p", 8192),
            fio);
}

TEST(FioBufferPatternTest, VerifyWritesItsOwnDataAndChecksIt) {
  // verify.c fill_verify_pattern(): with verify=crc32c and no
  // verify_pattern, a block is the header and random bytes, not the
  // buffer pattern (real fio's block: golden pattern/abc_0102_crc32c.bin).
  const std::string fio = ReadGolden("pattern/abc_0102_crc32c.bin");
  ASSERT_EQ(fio.substr(0, 2), "\xca\xac");  // fio's header magic
  EXPECT_EQ(fio.substr(44, 5).find("abc"), std::string::npos);
  testing::Sim s;
  const std::string ours = RunAndRead(
      "--name=x --filename=p --rw=write --bs=4k --size=8k --direct=1 --verify=crc32c "
      "--buffer_pattern=\"abc\"0x0102",
      "p", 8192, &s);
  EXPECT_EQ(ours.substr(0, 2), "\xca\xac");
  EXPECT_EQ(ours.substr(44, 5).find("abc"), std::string::npos);
  EXPECT_EQ(s.Job(0).error, 0);  // and the verify pass found it all
  EXPECT_EQ(s.Job(0).dir[kRead].io_bytes, 8192u);
}

TEST(FioBufferPatternTest, LaidOutFilesCarryItToo) {
  // A read job's file is laid out with the pattern (filesetup.c
  // extend_file() writes a filled buffer of max_bs over and over).
  const std::string ours =
      RunAndRead("--name=x --filename=p --rw=read --bs=4k --size=8k --buffer_pattern=\"abc\"0x0102",
                 "p", 8192);
  EXPECT_EQ(ours, ReadGolden("pattern/abc_0102.bin"));
}

TEST(FioSubmitModeTest, OffloadLetsASyncEngineKeepItsDepth) {
  // 64 reads of 100 µs: inline, psync does one at a time; offloaded to
  // iodepth=4 workers, four at a time.
  const std::string job = "--name=r --rw=randread --bs=4k --size=256k --direct=1 --iodepth=4 ";
  auto in = testing::RunArgs(RamStack("100us"), Split(job + "--ioengine=psync"));
  auto off =
      testing::RunArgs(RamStack("100us"), Split(job + "--ioengine=psync --io_submit_mode=offload"));
  ASSERT_TRUE(in.status.ok() && off.status.ok()) << off.status.ToString();
  EXPECT_EQ(in.Job(0).dir[kRead].io_bytes, 256u * 1024);
  EXPECT_EQ(off.Job(0).dir[kRead].io_bytes, 256u * 1024);
  EXPECT_GE(in.Job(0).total_run_time_ms, 6u);
  EXPECT_LE(off.Job(0).total_run_time_ms, 2u);
  EXPECT_EQ(in.Job(0).io_u_map[2], 0u);  // depth 4 bucket
  EXPECT_GT(off.Job(0).io_u_map[2], 0u);
  // libaio already keeps iodepth in flight: offloaded, the virtual-time
  // result is the same.
  auto aio = testing::RunArgs(RamStack("100us"), Split(job + "--ioengine=libaio"));
  auto aio_off = testing::RunArgs(RamStack("100us"),
                                  Split(job + "--ioengine=libaio --io_submit_mode=offload"));
  EXPECT_EQ(aio.run->runners()[0]->extras().end, aio_off.run->runners()[0]->extras().end);
  // io_uring refuses, as fio's FIO_NO_OFFLOAD; a bad value names the choices.
  auto ur =
      testing::RunArgs(RamStack(), Split(job + "--ioengine=io_uring --io_submit_mode=offload"));
  EXPECT_NE(ur.status.message().find("io_uring: can't be used with offloaded submit"),
            std::string::npos)
      << ur.status.message();
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "io_submit_mode", "async", true, "j.fio:4").message(),
            "j.fio:4: option 'io_submit_mode': 'async' is not one of inline, offload");
}

// The gaps between the issue times of an iolog's reads (v3: in µs).
std::vector<double> Gaps(const std::string& log) {
  std::istringstream in(log);
  std::string line;
  std::vector<double> t, gaps;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    double at = 0;
    std::string file, op;
    if (ls >> at >> file >> op && op == "read") t.push_back(at);
  }
  for (size_t i = 1; i < t.size(); ++i) gaps.push_back(t[i] - t[i - 1]);
  return gaps;
}

TEST(FioRateProcessTest, PoissonGapsAreExponentialWithTheRatesMean) {
  const std::string job =
      "--name=p --rw=randread --bs=4k --size=64m --direct=1 --time_based --runtime=4 "
      "--rate_iops=500 ";
  for (const char* process : {"linear", "poisson"}) {
    auto gaps = Gaps(testing::RecordedLog(RamStack("10us"), job + "--rate_process=" + process));
    ASSERT_GT(gaps.size(), 1500u) << process;
    double sum = 0, sq = 0;
    for (double g : gaps) sum += g;
    const double mean = sum / static_cast<double>(gaps.size());
    for (double g : gaps) sq += (g - mean) * (g - mean);
    const double cv = std::sqrt(sq / static_cast<double>(gaps.size())) / mean;
    EXPECT_NEAR(mean, 2000, 120) << process;  // 500 IOPS: 2 ms apart on average
    if (std::string(process) == "linear") {
      EXPECT_LT(cv, 0.05) << process;
    } else {
      EXPECT_NEAR(cv, 1.0, 0.1) << process;  // an exponential's spread is its mean
    }
  }
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "rate_process", "bursty", true, "j.fio:5").message(),
            "j.fio:5: option 'rate_process': 'bursty' is not one of linear, poisson");
}

TEST(FioCreateOnOpenTest, AWriteJobLaysOutNothingAndAllocatesAsItWrites) {
  auto s = testing::RunArgs(
      RamStack("10us"), Split("--name=c --filename=c1 --rw=write --size=64k --create_on_open=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_TRUE(s.run->layout().empty());  // no "Laying out IO file"
  EXPECT_EQ(s.Job(0).dir[kWrite].io_bytes, 64u * 1024);
  EXPECT_EQ(s.host->fs().file(s.host->fs().Lookup("c1")).size, 64u * 1024);
  auto laid =
      testing::RunArgs(RamStack("10us"), Split("--name=c --filename=c1 --rw=write --size=64k"));
  EXPECT_EQ(laid.run->layout().size(), 1u);
}

TEST(FioCreateOnOpenTest, AReadJobFindsAnEmptyFileAsRealFioDoes) {
  auto s = testing::RunArgs(
      RamStack("10us"), Split("--name=c --filename=c1 --rw=read --size=64k --create_on_open=1"));
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  const ThreadStat& t = s.Job(0);
  EXPECT_EQ(t.error, EIO);
  EXPECT_EQ(t.verror, "file:backend.c:471, func=full resid, error=Input/output error");
  const std::string fio = ReadGolden("errors/create_on_open_read.txt");
  auto line = [](const std::string& text, const std::string& start) {
    size_t p = text.find(start);
    return p == std::string::npos ? "" : text.substr(p, text.find('\n', p) - p);
  };
  const std::string ours = s.Normal();
  EXPECT_EQ(line(ours, "     issued rwts"), line(fio, "     issued rwts"));
  const std::string head = "c: (groupid=0, jobs=1): err= 5 (file:backend.c:471, func=full resid";
  EXPECT_NE(ours.find(head), std::string::npos) << ours;
  EXPECT_NE(fio.find(head), std::string::npos);
}

}  // namespace fio_submit_data_test
}  // namespace storlab::fio
