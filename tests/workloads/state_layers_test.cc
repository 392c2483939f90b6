// storlab sim --state for the layers (docs/state.md, "What each node
// keeps"): for each node type, a state saved and restored at once comes
// back byte for byte, and A then B with --state equals A and B stonewalled
// in one run (sequential jobs: fio seeds random offsets from the job
// number, which differs between one run of two jobs and two runs of one).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/workloads/state_test_util.h"

namespace storlab::fio::testing {
namespace {

HostOptions Stack(const std::string& text) {
  HostOptions o;
  o.stack = "test.toml";
  o.stack_text = text;
  return o;
}

const std::vector<std::string> kDirect = {"--ioengine=libaio", "--iodepth=4", "--direct=1"};

TEST(StateLayersTest, ThinPoolKeepsItsMappings) {
  // Two thin volumes' worth of address space over a 256 MiB pool on an
  // HDD: B's new chunks are allocated after A's, and B reads A's mapped
  // chunks from the disk (a fresh pool would answer zeros at once).
  const HostOptions o = Stack(
      "[node.thin]\ntype = \"thin\"\nchild = \"disk\"\nvirtual_size = \"1GiB\"\n"
      "pool_size = \"256MiB\"\n"
      "[node.disk]\ntype = \"hdd\"\ncapacity = \"1GiB\"\n");
  const auto a = Cat(kDirect, {"--name=a", "--filename=f", "--rw=write", "--bs=256k", "--size=24m",
                               "--end_fsync=1"});
  const auto b = Cat(kDirect, {"--name=b", "--filename=g", "--rw=write", "--bs=64k", "--size=8m",
                               "--end_fsync=1"});
  const auto files = ExpectRoundTrip(o, a);
  EXPECT_NE(std::find(files.begin(), files.end(), "node-thin.state"), files.end());
  ExpectSameAsOneRun(o, a, b);
  ExpectSameAsOneRun(o, a,
                     Cat(kDirect, {"--name=b", "--filename=f", "--rw=read", "--bs=16k",
                                   "--size=24m", "--io_size=4m"}));
}

}  // namespace
}  // namespace storlab::fio::testing
