// SsdHostInterface: controller latency and throughput, link overhead,
// payload transfers, half vs full duplex, the write path — exactly.
#include "sim/devices/ssd_host.h"

#include <gtest/gtest.h>

namespace storlab {
namespace ssd_host_test {

using namespace time_literals;

SsdConfig Link(SsdConfig::Interface iface) {
  SsdConfig c;
  c.interface = iface;
  c.link_bytes_per_s = 4.096e9;  // 4 KiB per microsecond
  c.link_command_overhead = 100_ns;
  c.read_command_time = 2_us;
  c.write_command_time = 5_us;
  c.max_read_iops = 1e6;  // 1 us of controller per read
  c.max_write_iops = 5e5;
  c.write_bytes_per_s = 0;
  return c;
}

TEST(SsdHost, CommandsCostLatencyAndControllerThroughput) {
  SsdHostInterface h(Link(SsdConfig::Interface::kNvme));
  EXPECT_EQ(h.Command(0_us, Op::kRead), 2_us);
  EXPECT_EQ(h.Command(0_us, Op::kRead), 2_us);
  EXPECT_EQ(h.Command(0_us, Op::kRead), 3_us);  // the controller's third microsecond
  EXPECT_EQ(h.Command(0_us, Op::kWrite), 5_us);
  EXPECT_EQ(h.Command(0_us, Op::kFlush), 6_us);  // light, but behind the write's 2 us
}

TEST(SsdHost, NvmeMovesPayloadsBothWaysAtOnce) {
  SsdHostInterface h(Link(SsdConfig::Interface::kNvme));
  EXPECT_EQ(h.ToHost(0_us, 10_us, 4096), 11_us);
  EXPECT_EQ(h.FromHost(0_us, 0_us, 4096), 1_us);  // the other direction is free
  EXPECT_EQ(h.ToHost(0_us, 0_us, 8192), 3_us);    // after the first read's slot
  EXPECT_EQ(h.link_busy(), 4_us);
}

TEST(SsdHost, SataSharesOneHalfDuplexLink) {
  SsdHostInterface h(Link(SsdConfig::Interface::kSata));
  EXPECT_EQ(h.ToHost(0_us, 0_us, 4096), 1_us);
  EXPECT_EQ(h.FromHost(0_us, 0_us, 4096), 2_us);
  h.Command(0_us, Op::kRead);  // its 100 ns FIS exchange uses the link too
  EXPECT_EQ(h.ToHost(0_us, 0_us, 4096), 3100_ns);
}

TEST(SsdHost, WritePathCapsWritesButNotReads) {
  SsdConfig c = Link(SsdConfig::Interface::kSata);
  c.write_bytes_per_s = 1.024e9;  // a quarter of the link
  SsdHostInterface h(c);
  EXPECT_EQ(h.FromHost(0_us, 0_us, 4096), 4_us);
  EXPECT_EQ(h.ToHost(0_us, 0_us, 4096), 2_us);
  h.Reset();
  EXPECT_EQ(h.FromHost(10_us, 10_us, 4096), 14_us);
}

}  // namespace ssd_host_test
}  // namespace storlab
