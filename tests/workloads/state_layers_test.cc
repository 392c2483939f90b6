// storlab sim --state for the layers (docs/state.md, "What each node
// keeps"): for each node type, a state saved and restored at once comes
// back byte for byte, and A then B with --state equals A and B stonewalled
// in one run (sequential jobs: fio seeds random offsets from the job
// number, which differs between one run of two jobs and two runs of one).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/layers/raid/raid_node.h"
#include "sim/node_kind.h"
#include "sim/profile/catalog.h"
#include "tests/workloads/state_test_util.h"

namespace storlab::fio::testing {
namespace state_layers_test {

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

TEST(StateLayersTest, CacheDeviceKeepsItsBlocksAndWhatSmqLearnt) {
  // lvmcache writeback with smq on a RAM cache device over an HDD: A's
  // random writes land in the cache (smq's fast promotion of whole blocks)
  // and teach the hotspot queue; B reads them back from the cache device,
  // and its misses are promoted at the levels A's ticks left.
  const HostOptions o = Stack(
      "[node.cache]\ntype = \"cache\"\nchildren = [\"fast\", \"disk\"]\n"
      "mode = \"writeback\"\npolicy = \"smq\"\nsize = \"32MiB\"\nblock_size = \"64KiB\"\n"
      "dirty_expire = \"0s\"\n"
      "[node.fast]\ntype = \"ram\"\ncapacity = \"64MiB\"\nlatency = \"20us\"\n"
      "[node.disk]\ntype = \"hdd\"\ncapacity = \"1GiB\"\n");
  const auto a = Cat(kDirect, {"--name=a", "--filename=f", "--rw=randwrite", "--bs=64k",
                               "--size=48m", "--io_size=24m", "--end_fsync=1"});
  const auto b = Cat(kDirect, {"--name=b", "--filename=f", "--rw=read", "--bs=64k", "--size=48m"});
  ExpectRoundTrip(o, a);
  ExpectSameAsOneRun(o, a, b);
  // And it matters: after a reboot-free restore B hits in the cache.
  TempDir tmp("storlab_state");
  ASSERT_TRUE(RunWithState(o, a, tmp.path + "/s").save.ok());
  StateRun restored = RunWithState(o, b, tmp.path + "/s");
  StateRun fresh = RunWithState(o, b, "");
  ASSERT_TRUE(restored.sim.status.ok() && fresh.sim.status.ok());
  EXPECT_NE(Figures(restored.sim, "b")["read"]["bw_bytes"],
            Figures(fresh.sim, "b")["read"]["bw_bytes"]);
}

TEST(StateLayersTest, RamCacheKeepsItsBlocksInLruOrder) {
  // A cache in RAM (a drive's buffer or a server's page cache), lru,
  // writeback with dirty data that never expires: the dirty blocks, their
  // data and the LRU order carry over.
  HostOptions o = Stack(
      "[node.cache]\ntype = \"cache\"\nchildren = [\"disk\"]\nmode = \"writeback\"\n"
      "policy = \"lru\"\nsize = \"16MiB\"\ndirty_expire = \"0s\"\n"
      "dirty_background = 0.5\ndirty_limit = 0.7\n"
      "[node.disk]\ntype = \"hdd\"\ncapacity = \"1GiB\"\n");
  o.keep_data = true;
  const auto a = Cat(kDirect, {"--name=a", "--filename=f", "--rw=randwrite", "--bs=16k",
                               "--size=32m", "--io_size=6m"});
  const auto b = Cat(
      kDirect, {"--name=b", "--filename=f", "--rw=read", "--bs=16k", "--size=32m", "--io_size=8m"});
  ExpectRoundTrip(o, a);
  ExpectSameAsOneRun(o, a, b);
}

TEST(StateLayersTest, RaidKeepsHeadsAndADegradedArray) {
  // md RAID1 of two HDDs: the read balancer steers by where each head
  // rests, which A leaves behind.
  const HostOptions o = Stack(
      "[node.array]\ntype = \"raid\"\nlevel = 1\nchildren = [\"disk\"]\n"
      "[node.disk]\ntype = \"hdd\"\ncapacity = \"1GiB\"\ncount = 2\n");
  const auto a = Cat(kDirect, {"--name=a", "--filename=f", "--rw=write", "--bs=256k", "--size=16m",
                               "--end_fsync=1"});
  const auto b = Cat(
      kDirect, {"--name=b", "--filename=f", "--rw=read", "--bs=16k", "--size=16m", "--io_size=4m"});
  ExpectRoundTrip(o, a);
  ExpectSameAsOneRun(o, a, b);
  // A failed member stays failed: the restored array is degraded.
  TempDir tmp("storlab_state");
  auto host = SimHost::Create(o);
  ASSERT_TRUE(host.ok());
  auto* raid = NodeAs<RaidNode>((*host)->stack().Find("array"));
  ASSERT_NE(raid, nullptr);
  ASSERT_TRUE(raid->FailMember(1).ok());
  ASSERT_TRUE(SaveHostState(**host, tmp.path + "/s").ok());
  auto again = SimHost::Create(o);
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE(RestoreHostState(**again, tmp.path + "/s").ok());
  auto* restored = NodeAs<RaidNode>((*again)->stack().Find("array"));
  ASSERT_NE(restored, nullptr);
  EXPECT_TRUE(restored->degraded());
  EXPECT_FALSE(restored->array().InSync(1));
  EXPECT_TRUE(restored->array().InSync(0));
}

TEST(StateLayersTest, Raid5OverAnNfsServerCacheRestoredEqualsOneRun) {
  // The NAS: NFS over 1GbE (the link's timelines and the server's page
  // cache carry over) to md RAID5 of four HDDs.
  HostOptions o = Catalog("nas-1gbe-raid5");
  o.mem_bytes = uint64_t{64} << 20;
  const auto a = Cat(kDirect, {"--name=a", "--filename=f", "--rw=write", "--bs=1m", "--size=32m",
                               "--end_fsync=1"});
  const auto b = Cat(kDirect, {"--name=b", "--filename=f", "--rw=read", "--bs=64k", "--size=32m"});
  ExpectRoundTrip(o, a);
  ExpectSameAsOneRun(o, a, b);
}

TEST(StateLayersTest, ZfsKeepsItsBlocksSpaceMapsAndArc) {
  // A ZFS mirror of two HDDs with lz4: B reads A's records from the ARC
  // (what fits) and the rest where A's txgs put them; a rewrite allocates
  // after A's blocks.
  const HostOptions o = Stack(
      "[node.pool]\ntype = \"zfs\"\nlayout = \"mirror\"\nchildren = [\"disk\"]\n"
      "arc_size = \"16MiB\"\nmem = \"1GiB\"\n"
      "[node.disk]\ntype = \"hdd\"\ncapacity = \"1GiB\"\ncount = 2\n");
  const auto a = Cat(kDirect, {"--name=a", "--filename=f", "--rw=write", "--bs=128k", "--size=32m",
                               "--end_fsync=1"});
  ExpectRoundTrip(o, a);
  ExpectSameAsOneRun(
      o, a, Cat(kDirect, {"--name=b", "--filename=f", "--rw=read", "--bs=128k", "--size=32m"}));
  ExpectSameAsOneRun(o, a,
                     Cat(kDirect, {"--name=b", "--filename=f", "--rw=write", "--bs=128k",
                                   "--size=32m", "--end_fsync=1"}));
}

TEST(StateLayersTest, QcowImageKeepsItsClustersAndL2Cache) {
  // A VM (cache=none) on a qcow2 image on an HDD: A's first writes
  // allocate clusters at the image's end; B writes more (allocating after
  // them) and reads A's, through the L2 cache A left.
  const HostOptions o = Stack(
      "[node.vm]\ntype = \"vm\"\nchild = \"img\"\ncache = \"none\"\n"
      "[node.img]\ntype = \"qcow2\"\nchild = \"disk\"\nsize = \"512MiB\"\n"
      "[node.disk]\ntype = \"hdd\"\ncapacity = \"1GiB\"\n");
  const auto a = Cat(kDirect, {"--name=a", "--filename=f", "--rw=randwrite", "--bs=4k",
                               "--size=64m", "--io_size=2m"});
  const auto b = Cat(
      kDirect, {"--name=b", "--filename=f", "--rw=read", "--bs=64k", "--size=64m", "--io_size=8m"});
  ExpectRoundTrip(o, a);
  ExpectSameAsOneRun(o, a, b);
}

TEST(StateLayersTest, EsxiVmdkKeepsItsZeroedBlocks) {
  // An ESXi VM on a lazy-zeroed VMDK (vmdk_blocks.h) on an HDD: A's random
  // writes zero the 1 MiB VMFS blocks they touch first; B's writes find
  // A's blocks zeroed and zero only the new ones.
  const HostOptions o = Stack(
      "[node.vm]\ntype = \"vm\"\nchild = \"disk\"\nhypervisor = \"esxi\"\n"
      "[node.disk]\ntype = \"hdd\"\ncapacity = \"1GiB\"\n");
  const auto a = Cat(kDirect, {"--name=a", "--filename=f", "--rw=randwrite", "--bs=4k",
                               "--size=64m", "--io_size=1m"});
  const auto b = Cat(kDirect, {"--name=b", "--filename=f", "--rw=randwrite", "--bs=4k",
                               "--size=64m", "--io_size=1m"});
  ExpectRoundTrip(o, a);
  ExpectSameAsOneRun(o, a, b);
}

TEST(StateLayersTest, FaultsRmwAndConcatRestoredEqualOneRun) {
  // Latency spikes drawn from the faults layer's generator (it goes on
  // where A left it), over a 4 KiB read-modify-write layer over two RAM
  // disks joined end to end.
  HostOptions o = Stack(
      "[node.faults]\ntype = \"faults\"\nchild = \"rmw\"\nspike_probability = 0.2\n"
      "spike_latency = \"2ms\"\n"
      "[node.rmw]\ntype = \"rmw\"\nchild = \"both\"\nunit = \"4KiB\"\n"
      "[node.both]\ntype = \"concat\"\nchildren = [\"ram\"]\n"
      "[node.ram]\ntype = \"ram\"\ncapacity = \"64MiB\"\nlatency = \"20us\"\ncount = 2\n");
  o.keep_data = true;
  const auto a = Cat(kDirect, {"--name=a", "--filename=f", "--rw=write", "--bs=2k", "--size=8m"});
  const auto b = Cat(kDirect, {"--name=b", "--filename=f", "--rw=read", "--bs=2k", "--size=8m"});
  ExpectRoundTrip(o, a);
  ExpectSameAsOneRun(o, a, b);
}

TEST(StateLayersTest, EveryCatalogStackCanSave) {
  for (const CatalogEntry& e : storlab::Catalog()) {
    auto host = SimHost::Create(Catalog(std::string(e.name)));
    ASSERT_TRUE(host.ok()) << e.name << ": " << host.status().ToString();
    EXPECT_TRUE(CheckHostCanSave(**host).ok()) << e.name;
  }
}

}  // namespace state_layers_test
}  // namespace storlab::fio::testing
