// fio's ETA line in simulated time (workloads/fio/eta.h): the lines fio
// 3.33's eta.c prints, at every simulated second, and a run unchanged by
// them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/eta.h"

namespace storlab::fio {
namespace fio_eta_test {

using testing::RamStack;
using testing::Split;

struct EtaRun {
  std::vector<std::string> lines;
  std::string json;
};

// Runs `args` on a RAM disk, taking fio's line every second of simulated
// time from the run's genesis (ticks: false runs without them).
EtaRun RunEta(const std::string& args, Nanos newline_every, bool ticks = true) {
  HostOptions ho;
  ho.stack = "test.toml";
  ho.stack_text = RamStack("100us");
  auto host = SimHost::Create(ho);
  EXPECT_TRUE(host.ok());
  auto sections = ParseCommandLine(Split(args));
  EXPECT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  EXPECT_TRUE(jobs.ok());
  FioRun run(**host, std::move(*jobs));
  EXPECT_TRUE(run.Prepare().ok());
  EtaRun out;
  EtaLine eta(run, run.layout_start(), newline_every);
  const Nanos second = Nanos::FromSeconds(1);
  if (ticks) {
    run.SetEtaTicks(run.layout_start() + second, second, [&](Nanos t) {
      std::string s = eta.At(t);
      if (!s.empty()) out.lines.push_back(s);
    });
  }
  EXPECT_TRUE(run.Run(nullptr).ok());
  out.json = FioJsonText(run, {});
  return out;
}

TEST(FioEtaTest, EtaToStrAsFio) {
  EXPECT_EQ(EtaToStr(0), "00m:00s");
  EXPECT_EQ(EtaToStr(65), "01m:05s");
  EXPECT_EQ(EtaToStr(3723), "01h:02m:03s");
  EXPECT_EQ(EtaToStr(90061), "01d:01h:01m:01s");
  EXPECT_EQ(EtaToStr(static_cast<uint64_t>(-1)), "--");
}

// fio 3.33 on a real file, the same job (--eta=always): "Jobs: 1 (f=1),
// 0B/s-8192KiB/s" while fewer than 3 s have passed (no estimate yet), then
// "...: [w(1)][60.0%][w=8200KiB/s][w=2050 IOPS][eta 00m:02s]" (its elapsed
// seconds count its own start-up too).
TEST(FioEtaTest, RateLimitedWriteLinesAsFio) {
  auto r = RunEta("--name=t --rw=randwrite --bs=4k --size=64m --rate=8m --runtime=4 --time_based",
                  Nanos(0));
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[0], "Jobs: 1 (f=1), 0B/s-8192KiB/s\r");
  EXPECT_EQ(r.lines[1], "Jobs: 1 (f=1), 0B/s-8192KiB/s\r");
  EXPECT_EQ(r.lines[2],
            "Jobs: 1 (f=1), 0B/s-8192KiB/s: [w(1)][75.0%][w=8192KiB/s][w=2048 IOPS]"
            "[eta 00m:01s]\r");
}

// The run string (check_str_update): a job in its ramp '/', one waiting
// behind a stonewall 'P', a finished one '_', a random mix 'm'; a new line
// every --eta-newline; the estimate once 3 s have passed.
TEST(FioEtaTest, RunStringStonewallAndNewlines) {
  auto r = RunEta(
      "--name=a --rw=read --bs=1m --size=64m --ramp_time=2 --runtime=1 --time_based "
      "--rate=32m --name=b --stonewall --rw=randrw --bs=4k --size=64m --runtime=3 "
      "--time_based --rate_iops=100",
      Nanos::FromSeconds(1.5));
  ASSERT_GE(r.lines.size(), 4u);
  EXPECT_NE(r.lines[0].find("[/(1),P(1)][-.-%]"), std::string::npos) << r.lines[0];
  EXPECT_EQ(r.lines.back().substr(0, 1), "\n");
  bool saw_b = false;
  for (const auto& l : r.lines) saw_b |= l.find("[_(1),m(1)]") != std::string::npos;
  EXPECT_TRUE(saw_b);
}

// The ticks only read: the run's report is byte for byte the same.
TEST(FioEtaTest, TicksChangeNothing) {
  const std::string args =
      "--name=t --rw=randrw --bs=4k --size=16m --ioengine=libaio --iodepth=8 --runtime=3 "
      "--time_based --direct=1";
  EXPECT_EQ(RunEta(args, Nanos(0)).json, RunEta(args, Nanos(0), false).json);
}

}  // namespace fio_eta_test
}  // namespace storlab::fio
