// iozone's throughput mode: command line, phases, report format, files that
// persist between runs.
#include <gtest/gtest.h>

#include "tests/workloads/fio_test_util.h"
#include "workloads/iozone/iozone_args.h"
#include "workloads/iozone/iozone_run.h"

namespace storlab::iozone {
namespace iozone_test {

std::unique_ptr<SimHost> Host(const std::string& latency = "100us") {
  HostOptions ho;
  ho.stack = "test.toml";
  ho.stack_text = fio::testing::RamStack(latency, "1GiB", 1);
  auto h = SimHost::Create(ho);
  EXPECT_TRUE(h.ok());
  return std::move(*h);
}

TEST(IozoneArgsTest, TheSeedsCommandLine) {
  auto s = ParseIozoneCommand("iozone -T -t 4 -s 256m -r 4k -I -O -w -i0 -i1 -i2");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->threads && s->direct && s->ops && s->keep_files);
  EXPECT_EQ(s->children, 4u);
  EXPECT_EQ(s->file_size, 256u << 20);
  EXPECT_EQ(s->record_size, 4096u);
  EXPECT_EQ(s->tests, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(s->command, "iozone -T -t 4 -s 256m -r 4k -I -O -w -i0 -i1 -i2");
  auto e = ParseIozoneCommand("-t 2 -s 1024 -r 64 -e -o -i 0");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->file_size, 1024u * 1024);  // bare numbers are KiB
  EXPECT_EQ(e->record_size, 64u * 1024);
  EXPECT_TRUE(e->include_fsync && e->sync_writes);
}

TEST(IozoneArgsTest, ErrorsNameTheOption) {
  EXPECT_EQ(ParseIozoneCommand("-t 2 -i 0 -a").status().message(),
            "iozone: option '-a' is not supported by storlab sim (use -i, -t, -s, -r, -I, -O, "
            "-w, -T, -e, -o)");
  EXPECT_EQ(ParseIozoneCommand("-t 2 -i 5").status().message(),
            "iozone -i '5': storlab sim runs tests 0 (write/rewrite), 1 (read/re-read) and 2 "
            "(random read/write)");
  EXPECT_EQ(ParseIozoneCommand("-i 0 -s 1m").status().message(),
            "iozone: storlab sim runs throughput mode only: give -t N");
  EXPECT_EQ(ParseIozoneCommand("-t 2 -i 0 -s 4x").status().message(),
            "iozone -s: '4x': unknown suffix 'x' (k, m or g)");
  EXPECT_FALSE(ParseIozoneCommand("-t 2 -i0 -s 4k -r 8k").ok());
  // Found by review for the fuzz target (tests/fuzz/regression/iozone/):
  // sizes past 2^64 are errors, not an exception or a wrapped value.
  EXPECT_EQ(ParseIozoneCommand("-t 1 -i0 -s 99999999999999999999999").status().message(),
            "iozone -s: '99999999999999999999999' is too large");
  EXPECT_FALSE(ParseIozoneCommand("-t 1 -i0 -r 4 -s 18014398509481984g").ok());
}

TEST(IozoneRunTest, PhasesAndTheirFiguresOnAFixedLatencyDevice) {
  auto host = Host("100us");
  host->set_direct_bypasses_cache(true);
  auto spec = ParseIozoneCommand("-T -t 2 -s 1m -r 4k -I -O -i0 -i1 -i2");
  IozoneRun run(*host, *spec);
  auto phases = run.RunOnce();
  ASSERT_TRUE(phases.ok()) << phases.status().ToString();
  std::vector<std::string> names;
  for (const auto& p : *phases) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"initial writers", "rewriters", "readers",
                                             "re-readers", "random readers", "random writers"}));
  // One request at a time on the device (queue depth 1), two children:
  // ~10000 ops/s together: each record is about 100 us of device time.
  for (const auto& p : *phases) {
    double total = p.children[0].throughput + p.children[1].throughput;
    EXPECT_GT(total, 9700) << p.name;
    EXPECT_LT(total, 10010) << p.name;
    EXPECT_LE(p.children[0].actual, 256);
    EXPECT_GE(p.children[0].actual, 255);
  }
  // Without -w the files are gone afterwards.
  EXPECT_EQ(host->fs().Lookup("iozone.DUMMY.0"), 0u);
}

TEST(IozoneRunTest, KeptFilesSkipReReadersAndServeTheNextRun) {
  auto host = Host("10us");
  auto spec = ParseIozoneCommand("-t 2 -s 256k -r 4k -w -i0 -i1");
  IozoneRun run(*host, *spec);
  auto first = run.RunOnce();
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->size(), 3u);  // no re-readers with -w (iozone's "skip rereader")
  EXPECT_NE(host->fs().Lookup("iozone.DUMMY.1"), 0u);
  auto reads = ParseIozoneCommand("-t 2 -s 256k -r 4k -w -i1");
  IozoneRun again(*host, *reads);
  EXPECT_TRUE(again.RunOnce().ok());
  auto fresh = Host();
  IozoneRun none(*fresh, *reads);
  EXPECT_EQ(none.RunOnce().status().message(),
            "iozone: file iozone.DUMMY.0 does not exist: the tests need -i 0 (write) first");
}

TEST(IozoneReportTest, FormatIsIozones) {
  auto spec = ParseIozoneCommand("-T -t 4 -s 256m -r 4k -I -O -w -i0");
  PhaseResult p;
  p.name = "initial writers";
  for (int i = 0; i < 4; ++i) p.children.push_back({100.0 + i, 10.0 + i});
  p.parent_throughput = 45.5;
  EXPECT_EQ(IozonePhaseReport(*spec, p),
            "\n\tChildren see throughput for  4 initial writers \t=      46.00 ops/sec\n"
            "\tParent sees throughput for  4 initial writers \t=      45.50 ops/sec\n"
            "\tMin throughput per thread \t\t\t=      10.00 ops/sec \n"
            "\tMax throughput per thread \t\t\t=      13.00 ops/sec\n"
            "\tAvg throughput per thread \t\t\t=      11.50 ops/sec\n"
            "\tMin xfer \t\t\t\t\t=     100.00 ops\n");
  p.name = "random readers";
  EXPECT_NE(IozonePhaseReport(*spec, p).find("throughput for 4 random readers \t="),
            std::string::npos);
  std::string h = IozoneHeader(*spec, "nas");
  EXPECT_NE(h.find("\tThroughput test with 4 threads\n"), std::string::npos);
  EXPECT_NE(h.find("\tEach thread writes a 262144 kByte file in 4 kByte records\n"),
            std::string::npos);
  EXPECT_NE(h.find("\tCommand line used: iozone -T -t 4 -s 256m -r 4k -I -O -w -i0\n"),
            std::string::npos);
}

}  // namespace iozone_test
}  // namespace storlab::iozone
