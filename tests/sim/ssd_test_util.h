// A small SSD with round figures for the device tests: 4 dies, 256 MiB,
// every stage's time easy to add up by hand.
#ifndef STORLAB_TESTS_SIM_SSD_TEST_UTIL_H_
#define STORLAB_TESTS_SIM_SSD_TEST_UTIL_H_

#include <string>

#include "sim/devices/ssd.h"
#include "tests/sim/test_util.h"
#include "workloads/node_probe.h"

namespace storlab::testing {

// `overrides` holds "key = value" lines that replace (or add to) the base.
// Link: 4 KiB per µs. Channels: 4 KiB in 2.5 µs, a 32 KiB SLC unit in
// 20 µs. Reads 50 µs (SLC 30), SLC programs 200 µs per 32 KiB, native
// programs 2 ms per 96 KiB. 16 MiB static + up to 16 MiB dynamic SLC.
inline std::string SmallSsd(const std::string& overrides = "") {
  std::string base = R"([node.d]
type = "ssd"
capacity = "256MiB"
raw_capacity = "320MiB"
interface = "nvme"
queue_depth = 64
link_rate = "4.096GB/s"
link_command_overhead = "0ns"
read_command_time = "2us"
write_command_time = "5us"
max_read_iops = 0
max_write_iops = 0
write_rate = "0B/s"
channels = 2
dies_per_channel = 2
planes = 2
page_size = "16KiB"
cell_bits = 3
channel_rate = "1.6384GB/s"
read_time = "50us"
slc_read_time = "30us"
program_time = "2ms"
slc_program_time = "200us"
erase_time = "3ms"
block_size = "3MiB"
slc_static = "16MiB"
slc_dynamic = "16MiB"
idle_delay = "100ms"
gc_idle_target = "50%"
write_buffer = "1MiB"
write_buffer_timeout = "1ms"
plp = false
flush_commit_time = "1ms"
rated_pe_cycles = 3000
)";
  size_t pos = 0;
  while (pos < overrides.size()) {
    size_t end = overrides.find('\n', pos);
    if (end == std::string::npos) end = overrides.size();
    const std::string line = overrides.substr(pos, end - pos);
    pos = end + 1;
    const std::string key = line.substr(0, line.find(' '));
    const size_t at = base.find("\n" + key + " = ");
    if (at == std::string::npos) {
      base += line + "\n";
    } else {
      base.replace(at + 1, base.find('\n', at + 1) - at - 1, line);
    }
  }
  return base;
}

// SmallSsd's program rates: 4 dies × 32 KiB per 200 µs in SLC mode, 4 dies
// × 96 KiB per 2 ms native; its SLC blocks hold 1 MiB (3 MiB blocks).
constexpr double kSmallSlcMBps = 4 * 32768 / 200e-6 / 1e6;   // 655 MB/s
constexpr double kSmallNativeMBps = 4 * 98304 / 2e-3 / 1e6;  // 197 MB/s

inline Ssd& AsSsd(LoadedStack& s) { return dynamic_cast<Ssd&>(s.stack->root()); }

// Sequential writes of 1 MiB at QD8 over [off, off+len); returns MB/s.
inline double SeqWriteRate(Engine& e, Node& n, uint64_t off, uint64_t len) {
  ProbeSpec p;
  p.op = Op::kWrite;
  p.random = false;
  p.block_size = 1 << 20;
  p.queue_depth = 8;
  p.offset = off;
  p.span = len;
  p.max_ios = len >> 20;
  p.duration = Nanos::Max() - e.now() - Nanos(1);
  return RunProbe(e, n, p).bytes_per_s / 1e6;
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_SSD_TEST_UTIL_H_
