// SsdConfig: keys, units, and errors that name the file, line and key.
#include "sim/devices/ssd_config.h"

#include <gtest/gtest.h>

#include "sim/devices/ssd.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace ssd_config_test {

Status LoadError(const std::string& keys) {
  Engine e;
  BuildOptions o;
  o.data_mode.kind = DataMode::Kind::kNone;
  auto r = LoadStackText("[node.d]\ntype = \"ssd\"\n" + keys, "bad.toml", ".", e, o);
  return r.ok() ? Status() : r.status();
}

TEST(SsdConfig, DefaultsDescribeA970EvoPlus) {
  SsdConfig c;
  EXPECT_EQ(c.dies(), 32u);
  EXPECT_EQ(c.raw_bytes(), 1073741824000u);
  EXPECT_EQ(c.slc_unit_bytes(), 32768u);
  EXPECT_EQ(c.native_unit_bytes(), 98304u);
  EXPECT_TRUE(LoadError("").ok());
}

TEST(SsdConfig, ReadsEveryKeyWithItsUnit) {
  Engine e;
  BuildOptions o;
  o.data_mode.kind = DataMode::Kind::kNone;
  auto r = LoadStackText(R"([node.d]
type = "ssd"
capacity = "64GiB"
raw_capacity = "80GiB"
interface = "sata"
queue_depth = 32
link_rate = "560MB/s"
read_time = "70us"
slc_static = "1GB"
slc_dynamic = "0"
map_cache = "1MiB"
plp = true
prefill = "25%"
)",
                         "ok.toml", ".", e, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto& ssd = dynamic_cast<Ssd&>(r->stack->root());
  EXPECT_EQ(ssd.config().interface, SsdConfig::Interface::kSata);
  EXPECT_EQ(ssd.config().read_time, Nanos(70'000));
  EXPECT_DOUBLE_EQ(ssd.config().link_bytes_per_s, 560e6);
  EXPECT_TRUE(ssd.config().plp);
  EXPECT_FALSE(ssd.caps().volatile_cache);  // PLP: acknowledged writes are safe
  EXPECT_EQ(ssd.caps().queue_depth, 32u);
  EXPECT_EQ(ssd.geometry().capacity, 64ull << 30);
  EXPECT_EQ(ssd.ftl().valid_bytes(), 16ull << 30);
  ASSERT_NE(ssd.map_cache(), nullptr);
  EXPECT_EQ(ssd.map_cache()->capacity(), 64u);  // 1 MiB of 16 KiB map pages
}

TEST(SsdConfig, ErrorsNameFileLineAndKey) {
  Status st = LoadError("capacity = \"1TB\"\nplannes = 2\n");
  EXPECT_NE(st.message().find("bad.toml:4"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("plannes"), std::string::npos) << st.ToString();

  st = LoadError("read_time = \"fast\"\n");
  EXPECT_NE(st.message().find("bad.toml:3"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("'read_time'"), std::string::npos) << st.ToString();

  st = LoadError("interface = \"scsi\"\n");
  EXPECT_NE(st.message().find("'interface'"), std::string::npos) << st.ToString();
}

TEST(SsdConfig, FiguresThatDisagreeAreErrors) {
  EXPECT_NE(LoadError("interface = \"sata\"\nqueue_depth = 64\n").message().find("NCQ"),
            std::string::npos);
  EXPECT_NE(LoadError("capacity = \"1TB\"\nraw_capacity = \"1TB\"\n").message().find("spare"),
            std::string::npos);
  EXPECT_NE(LoadError("write_buffer = \"64KiB\"\n").message().find("'write_buffer'"),
            std::string::npos);
  EXPECT_NE(LoadError("page_size = \"6000\"\n").message().find("'page_size'"), std::string::npos);
  EXPECT_NE(LoadError("capacity = \"1000000001\"\n").message().find("logical_block"),
            std::string::npos);
}

}  // namespace ssd_config_test
}  // namespace storlab
