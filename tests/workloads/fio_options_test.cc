// Option parsing: every option of the table, fio's value syntax, and errors
// that name the option and the place (command line or file:line).
#include <gtest/gtest.h>

#include "workloads/fio/fio_units.h"
#include "workloads/fio/job_spec.h"
#include "workloads/fio/options.h"

namespace storlab::fio {
namespace fio_options_test {

using namespace time_literals;

JobOptions Apply(std::initializer_list<std::pair<const char*, const char*>> kv) {
  JobOptions o;
  for (auto [k, v] : kv) {
    Status st = ApplyOption(&o, k, v ? v : "", v != nullptr, "test");
    EXPECT_TRUE(st.ok()) << k << "=" << (v ? v : "") << ": " << st.ToString();
  }
  return o;
}

std::string Error(const char* k, const char* v, const char* where = "job.fio:7") {
  JobOptions o;
  Status st = ApplyOption(&o, k, v ? v : "", v != nullptr, where);
  EXPECT_FALSE(st.ok()) << k;
  return st.message();
}

TEST(FioUnitsTest, SizesAreFiosCompatibilityMode) {
  EXPECT_EQ(*ParseFioSize("4096"), 4096u);
  EXPECT_EQ(*ParseFioSize("4k"), 4096u);
  EXPECT_EQ(*ParseFioSize("4K"), 4096u);
  EXPECT_EQ(*ParseFioSize("4kb"), 4096u);
  EXPECT_EQ(*ParseFioSize("64k"), 65536u);
  EXPECT_EQ(*ParseFioSize("1m"), 1u << 20);
  EXPECT_EQ(*ParseFioSize("4g"), 4ull << 30);
  EXPECT_EQ(*ParseFioSize("16G"), 16ull << 30);
  EXPECT_EQ(*ParseFioSize("256m"), 256u << 20);
  EXPECT_EQ(*ParseFioSize("4KiB"), 4000u);  // fio's kb_base=1024 reverses SI/IEC
  EXPECT_EQ(*ParseFioSize("1.5k"), 1536u);
  EXPECT_FALSE(ParseFioSize("fast").ok());
  EXPECT_FALSE(ParseFioSize("4q").ok());
  EXPECT_FALSE(ParseFioSize("").ok());
}

TEST(FioUnitsTest, TimesHaveADefaultUnit) {
  EXPECT_EQ(*ParseFioTime("60", TimeUnit::kSeconds), 60_s);
  EXPECT_EQ(*ParseFioTime("60s", TimeUnit::kSeconds), 60_s);
  EXPECT_EQ(*ParseFioTime("2m", TimeUnit::kSeconds), 120_s);
  EXPECT_EQ(*ParseFioTime("500ms", TimeUnit::kSeconds), 500_ms);
  EXPECT_EQ(*ParseFioTime("100", TimeUnit::kMicroseconds), 100_us);
  EXPECT_EQ(*ParseFioTime("1h", TimeUnit::kSeconds), 3600_s);
  EXPECT_FALSE(ParseFioTime("soon", TimeUnit::kSeconds).ok());
  EXPECT_FALSE(ParseFioTime("5y", TimeUnit::kSeconds).ok());
}

TEST(FioUnitsTest, BoolsAndInts) {
  EXPECT_TRUE(*ParseFioBool("1"));
  EXPECT_FALSE(*ParseFioBool("0"));
  EXPECT_TRUE(*ParseFioBool("true"));
  EXPECT_FALSE(ParseFioBool("2").ok());
  EXPECT_EQ(*ParseFioInt("16"), 16);
  EXPECT_EQ(*ParseFioInt("1k"), 1024);
  EXPECT_FALSE(ParseFioInt("1.5").ok());
}

TEST(FioUnitsTest, Num2StrMatchesFio) {
  // Values as fio 3.33 prints them (see tests/workloads/golden/*.txt).
  EXPECT_EQ(Num2Str(4096, 4, 1, true, "B"), "4096B");
  EXPECT_EQ(Num2Str(65536, 4, 1, true, "B"), "64.0KiB");
  EXPECT_EQ(Num2Str(16 << 20, 4, 1, true, "B"), "16.0MiB");
  EXPECT_EQ(Num2Str(8159232, 4, 1, true, "B"), "7968KiB");
  EXPECT_EQ(Num2Str(8159232, 4, 1, false, "B"), "8159kB");
  EXPECT_EQ(Num2Str(299593142, 4, 1, true, "B/s"), "286MiB/s");
  EXPECT_EQ(Num2Str(299593142, 4, 1, false, "B/s"), "300MB/s");
  EXPECT_EQ(Num2Str(29467, 4, 1, false, ""), "29.5k");
  EXPECT_EQ(Num2Str(4571, 4, 1, false, ""), "4571");
  EXPECT_EQ(Num2Str(3299600, 6, 1, false, ""), "3299.6k");
}

TEST(FioOptionsTest, EverySupportedOptionParses) {
  JobOptions o = Apply({{"name", "j"},
                        {"description", "a job"},
                        {"rw", "randrw"},
                        {"rwmixread", "70"},
                        {"bs", "64k"},
                        {"size", "4g"},
                        {"filesize", "1g"},
                        {"nrfiles", "4"},
                        {"numjobs", "16"},
                        {"iodepth", "32"},
                        {"ioengine", "posixaio"},
                        {"direct", "1"},
                        {"runtime", "60"},
                        {"time_based", nullptr},
                        {"ramp_time", "2s"},
                        {"startdelay", "1"},
                        {"loops", "3"},
                        {"end_fsync", "1"},
                        {"fsync", "8"},
                        {"directory", "/mnt/a:/mnt/b"},
                        {"filename", "f1"},
                        {"overwrite", "1"},
                        {"invalidate", "0"},
                        {"group_reporting", nullptr},
                        {"randrepeat", "0"},
                        {"randseed", "42"},
                        {"random_generator", "lfsr"},
                        {"norandommap", nullptr},
                        {"verify", "0"},
                        {"thinktime", "100"},
                        {"thinktime_blocks", "4"},
                        {"rate", "1m,2m"},
                        {"rate_iops", "500"},
                        {"stonewall", nullptr},
                        {"new_group", nullptr},
                        {"thread", nullptr}});
  EXPECT_EQ(o.name, "j");
  EXPECT_EQ(o.description, "a job");
  EXPECT_EQ(o.rw, "randrw");
  EXPECT_EQ(o.rwmixread, 70);
  EXPECT_EQ(o.bs, (DirValues{65536, 65536, 65536}));
  EXPECT_EQ(o.size, 4ull << 30);
  EXPECT_EQ(o.filesize, 1ull << 30);
  EXPECT_EQ(o.nrfiles, 4);
  EXPECT_EQ(o.numjobs, 16);
  EXPECT_EQ(o.iodepth, 32);
  EXPECT_EQ(o.ioengine, "posixaio");
  EXPECT_TRUE(o.direct);
  EXPECT_EQ(o.runtime, 60_s);
  EXPECT_TRUE(o.time_based);
  EXPECT_EQ(o.ramp_time, 2_s);
  EXPECT_EQ(o.startdelay, 1_s);
  EXPECT_EQ(o.loops, 3);
  EXPECT_TRUE(o.end_fsync);
  EXPECT_EQ(o.fsync_blocks, 8);
  EXPECT_EQ(o.directory, "/mnt/a:/mnt/b");
  EXPECT_EQ(o.filename, "f1");
  EXPECT_TRUE(o.overwrite);
  EXPECT_FALSE(o.invalidate);
  EXPECT_TRUE(o.group_reporting);
  EXPECT_FALSE(o.randrepeat);
  EXPECT_EQ(o.randseed, 42);
  EXPECT_EQ(o.random_generator, "lfsr");
  EXPECT_TRUE(o.norandommap);
  EXPECT_EQ(o.thinktime, 100_us);
  EXPECT_EQ(o.thinktime_blocks, 4);
  EXPECT_EQ(o.rate, (DirValues{1 << 20, 2 << 20, 2 << 20}));
  EXPECT_EQ(o.rate_iops, (DirValues{500, 500, 500}));
  EXPECT_TRUE(o.stonewall);
  EXPECT_TRUE(o.new_group);
  EXPECT_TRUE(o.thread);
  // The echo keeps what was written, in order, without bare flags.
  ASSERT_GE(o.echo.size(), 3u);
  EXPECT_EQ(o.echo[0], (std::pair<std::string, std::string>{"name", "j"}));
  for (const auto& [k, v] : o.echo) EXPECT_NE(k, "time_based");
}

TEST(FioOptionsTest, AliasesInversesAndEngines) {
  JobOptions o = Apply({{"readwrite", "randwrite"}, {"blocksize", "8k"}, {"timeout", "10"}});
  EXPECT_EQ(o.rw, "randwrite");
  EXPECT_EQ(o.bs[1], 8192u);
  EXPECT_EQ(o.runtime, Nanos(10'000'000'000));
  EXPECT_FALSE(Apply({{"buffered", "1"}}).direct);
  EXPECT_TRUE(Apply({{"buffered", "0"}}).direct);
  EXPECT_EQ(Apply({{"rwmixwrite", "30"}}).rwmixread, 70);
  EXPECT_TRUE(Apply({{"fdatasync", "4"}}).fdatasync_blocks == 4);
  for (const char* e : {"sync", "psync", "libaio", "io_uring", "posixaio", "null"}) {
    EXPECT_EQ(Apply({{"ioengine", e}}).ioengine, e);
  }
  for (const char* g : {"tausworthe", "lfsr", "tausworthe64"}) {
    EXPECT_EQ(Apply({{"random_generator", g}}).random_generator, g);
  }
  for (const char* rw : {"read", "write", "randread", "randwrite", "rw", "readwrite", "randrw"}) {
    EXPECT_EQ(Apply({{"rw", rw}}).rw, rw);
  }
  EXPECT_EQ(Apply({{"size", "50%"}}).size_percent, 50);
}

TEST(FioOptionsTest, PerDirectionValuesFollowFio) {
  EXPECT_EQ(Apply({{"bs", "8k,32k"}}).bs, (DirValues{8192, 32768, 32768}));
  EXPECT_EQ(Apply({{"bs", "8k,32k,"}}).bs, (DirValues{8192, 32768, 4096}));
  EXPECT_EQ(Apply({{"bs", ",8k"}}).bs, (DirValues{4096, 8192, 8192}));
  EXPECT_EQ(Apply({{"bs", "8k,"}}).bs, (DirValues{8192, 4096, 4096}));
}

TEST(FioOptionsTest, UnknownOptionsAreErrorsThatNameThem) {
  EXPECT_EQ(Error("bogus", "1"), "job.fio:7: unknown option 'bogus'");
  EXPECT_EQ(Error("iodepht", "4"), "job.fio:7: unknown option 'iodepht' (did you mean 'iodepth'?)");
  EXPECT_EQ(Error("nowait", "maybe"),
            "job.fio:7: option 'nowait': 'maybe': expected a boolean (0 or 1)");
}

TEST(FioOptionsTest, BadValuesNameTheOptionAndThePlace) {
  EXPECT_EQ(Error("bs", "fast"),
            "job.fio:7: option 'bs': 'fast': expected a size (4096, 4k, 64k, 1m, 4g)");
  EXPECT_EQ(Error("iodepth", "0", "command line (--iodepth)"),
            "command line (--iodepth): option 'iodepth': '0' out of range [1, 65536]");
  EXPECT_EQ(Error("rwmixread", "200"),
            "job.fio:7: option 'rwmixread': '200' out of range [0, 100]");
  EXPECT_EQ(Error("rw", "sideways"),
            "job.fio:7: option 'rw': 'sideways' is not one of read, write, trim, randread, "
            "randwrite, randtrim, rw, readwrite, randrw, trimwrite, randtrimwrite");
  EXPECT_EQ(Error("ioengine", "libblkio"),
            "job.fio:7: option 'ioengine': 'libblkio' (Block device through libblkio) is not "
            "supported by storlab sim");
  EXPECT_EQ(Error("verify", "md6"),
            "job.fio:7: option 'verify': 'md6' is not one of 0, md5, crc64, crc32, crc32c-intel, "
            "crc32c, crc16, crc7, sha1, sha256, sha512, sha3-224, sha3-256, sha3-384, sha3-512, "
            "xxhash, meta, pattern, null");
  EXPECT_EQ(Error("direct", nullptr), "job.fio:7: option 'direct' requires a value");
  EXPECT_EQ(Error("direct", "maybe"),
            "job.fio:7: option 'direct': 'maybe': expected a boolean (0 or 1)");
  EXPECT_EQ(Error("runtime", "5y"),
            "job.fio:7: option 'runtime': '5y': unknown time unit 'y' (use us, ms, s, m, h, d)");
  EXPECT_EQ(Error("size", "200%"),
            "job.fio:7: option 'size': '200%': a percentage must be 1% to 100%");
  EXPECT_EQ(Error("bs", "1k,2k,3k,4k"),
            "job.fio:7: option 'bs': '1k,2k,3k,4k': at most three values (read,write,trim)");
}

TEST(FioOptionsTest, HelpComesFromTheTable) {
  std::string all = OptionHelp("");
  for (const auto& d : OptionTable()) {
    EXPECT_NE(all.find(std::string(d.name)), std::string::npos) << d.name;
  }
  std::string rw = OptionHelp("rw");
  EXPECT_NE(rw.find("randrw"), std::string::npos);
  EXPECT_NE(rw.find("default              : read"), std::string::npos);
  EXPECT_NE(OptionHelp("iodepth").find("range                : 1 - 65536"), std::string::npos);
}

}  // namespace fio_options_test
}  // namespace storlab::fio
