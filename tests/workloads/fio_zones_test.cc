// zonemode=strided, zonesize, zonerange, zoneskip (fio 3.33 io_u.c
// setup_strided_zone_mode(), get_next_offset()): sequential offsets are
// real fio's I/O by I/O; random ones stay in their zone (the generator is
// ours, tests/workloads/golden/zones/).
#include <gtest/gtest.h>

#include <sstream>

#include "tests/workloads/fio_test_util.h"

namespace storlab::fio {
namespace fio_zones_test {

using testing::IologIos;
using testing::RamStack;
using testing::ReadGolden;
using testing::RecordedLog;

std::vector<uint64_t> Offsets(const std::vector<std::string>& ios) {
  std::vector<uint64_t> out;
  for (const auto& io : ios) {
    std::istringstream ls(io);
    std::string op;
    uint64_t off = 0;
    ls >> op >> off;
    out.push_back(off);
  }
  return out;
}

// Sequential offsets are deterministic: real fio's, I/O by I/O.
void ExpectFiosIos(const std::string& golden, size_t n, const std::string& args) {
  auto fio = IologIos(ReadGolden("zones/" + golden));
  ASSERT_EQ(fio.size(), n);
  EXPECT_EQ(IologIos(RecordedLog(RamStack(), args)), fio);
}

TEST(FioZonesTest, StridedSequentialReadIsFios) {
  // 16k of every 128k (zonerange 64k + zoneskip 64k), wrapping to the start
  // until size= was read: the same 32 blocks 8 times.
  ExpectFiosIos("strided_read_v3.log", 256,
                "--name=z --rw=read --bs=4k --size=1m --zonemode=strided --zonesize=16k "
                "--zonerange=64k --zoneskip=64k");
}

TEST(FioZonesTest, ZoneSizeBeyondItsRangeReadsTheZoneAgain) {
  // zonesize 96k in a zonerange of 32k: each zone three times over.
  ExpectFiosIos("strided_size_gt_range_v3.log", 64,
                "--name=z --rw=read --bs=4k --size=256k --zonemode=strided --zonesize=96k "
                "--zonerange=32k --zoneskip=32k");
}

TEST(FioZonesTest, StridedRandomReadStaysInItsZoneAndCoversIt) {
  const auto fio = Offsets(IologIos(ReadGolden("zones/strided_randread_v3.log")));
  const auto ours = Offsets(IologIos(
      RecordedLog(RamStack(),
                  "--name=z --rw=randread --bs=4k --size=1m --zonemode=strided --zonesize=16k "
                  "--zonerange=64k --zoneskip=64k")));
  for (const auto* offs : {&fio, &ours}) {
    const char* who = offs == &fio ? "fio" : "storlab";
    ASSERT_EQ(offs->size(), 256u) << who;
    for (size_t i = 0; i < offs->size(); ++i) {
      // I/O i is in zone (i / 4) % 8: 16k = four 4k reads per zone.
      const uint64_t zone = (i / 4) % 8 * 128 * 1024;
      EXPECT_GE((*offs)[i], zone) << who << " I/O " << i;
      EXPECT_LT((*offs)[i], zone + 64 * 1024) << who << " I/O " << i;
    }
    // A fresh random map in each zone: no block twice within a visit.
    for (size_t i = 0; i < offs->size(); i += 4) {
      std::set<uint64_t> visit(offs->begin() + static_cast<long>(i),
                               offs->begin() + static_cast<long>(i + 4));
      EXPECT_EQ(visit.size(), 4u) << who << " zone visit at I/O " << i;
    }
  }
}

TEST(FioZonesTest, BadZoneOptionsAsFioRejectsThem) {
  auto s = testing::RunArgs(RamStack(), testing::Split("--name=z --size=1m --zonemode=strided"));
  EXPECT_NE(s.status.message().find("zonesize= must be given with zonemode=strided"),
            std::string::npos)
      << s.status.message();
  s = testing::RunArgs(RamStack(), testing::Split("--name=z --size=1m --zonesize=16k"));
  EXPECT_NE(s.status.message().find("zonemode=none and zonesize= are not compatible"),
            std::string::npos)
      << s.status.message();
  JobOptions o;
  EXPECT_EQ(ApplyOption(&o, "zonemode", "zbd", true, "j.fio:9").message(),
            "j.fio:9: option 'zonemode': 'zbd' has no meaning in storlab sim: zoned block devices "
            "(host-managed SMR, ZNS): the simulated disks and SSDs are not zoned, they have no "
            "zones, write pointers or zone resets to drive");
  EXPECT_EQ(ApplyOption(&o, "zonerange", "big", true, "j.fio:9")
                .message()
                .rfind("j.fio:9: option 'zonerange': ", 0),
            0u);
  // Two files: strided zones only work with one, fio drops them silently.
  auto two = testing::RunArgs(RamStack(),
                              testing::Split("--name=z --rw=read --bs=4k --size=256k --nrfiles=2 "
                                             "--zonemode=strided --zonesize=16k --zoneskip=64k"));
  ASSERT_TRUE(two.status.ok()) << two.status.ToString();
  EXPECT_EQ(two.Job(0).dir[kRead].io_bytes, 256u * 1024);
}

}  // namespace fio_zones_test
}  // namespace storlab::fio
