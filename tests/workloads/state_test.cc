// storlab sim --state (workloads/host/host_state.h, docs/state.md): a run
// on a restored state behaves exactly as the second half of one run, and a
// state that does not fit is refused without being changed.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sim/devices/ram_disk.h"
#include "sim/node_kind.h"
#include "sim/state_dir.h"
#include "tests/sim/fault_env.h"
#include "tests/workloads/fio_test_util.h"
#include "tests/workloads/state_test_util.h"
#include "workloads/host/host_state.h"

namespace storlab::fio::testing {
namespace state_test {

TEST(StateTest, SsdRestoredEqualsOneRun) {
  // A DRAM-less SATA SSD: B reads what A wrote, so it reads flash (the
  // mapping says where), through the map cache A left warm.
  HostOptions o = Catalog("sata-ssd-dramless");
  const std::vector<std::string> common = {"--ioengine=libaio", "--iodepth=8", "--direct=1",
                                           "--filename=f", "--size=96m"};
  const auto a = Cat(common, {"--name=a", "--rw=write", "--bs=128k"});
  const auto b = Cat(common, {"--name=b", "--rw=read", "--bs=4k", "--io_size=24m"});
  ExpectSameAsOneRun(o, a, b);
  // And the state matters: on a fresh drive B reads unmapped blocks.
  StateRun fresh = RunWithState(o, b, "");
  TempDir tmp("storlab_state");
  ASSERT_TRUE(RunWithState(o, a, tmp.path + "/s").save.ok());
  StateRun restored = RunWithState(o, b, tmp.path + "/s");
  EXPECT_NE(Figures(fresh.sim, "b")["read"]["clat_ns"]["mean"],
            Figures(restored.sim, "b")["read"]["clat_ns"]["mean"]);
}

TEST(StateTest, HddWithPageCacheRestoredEqualsOneRun) {
  // Buffered I/O through the host page cache (64 MiB of RAM: B finds part
  // of A's file cached, the rest on the disk) on a 7200 rpm HDD.
  HostOptions o = Catalog("hdd-7200");
  o.mem_bytes = uint64_t{64} << 20;
  const std::vector<std::string> common = {"--ioengine=psync", "--filename=f", "--size=48m"};
  ExpectSameAsOneRun(o, Cat(common, {"--name=a", "--rw=write", "--bs=1m", "--end_fsync=1"}),
                     Cat(common, {"--name=b", "--rw=read", "--bs=64k"}));
}

TEST(StateTest, ARebootDropsThePageCacheButKeepsTheFiles) {
  // --reboot: a power cycle of the idle machine. B finds A's file but not
  // its pages: it reads the disk, as on a fresh machine after the layout.
  HostOptions o = Catalog("hdd-7200");
  const std::vector<std::string> common = {"--ioengine=psync", "--filename=f", "--size=48m"};
  const auto a = Cat(common, {"--name=a", "--rw=write", "--bs=1m", "--end_fsync=1"});
  const auto b = Cat(common, {"--name=b", "--rw=read", "--bs=1m"});
  TempDir tmp("storlab_state");
  ASSERT_TRUE(RunWithState(o, a, tmp.path + "/s").save.ok());
  std::filesystem::copy(tmp.path + "/s", tmp.path + "/t");
  StateRun warm = RunWithState(o, b, tmp.path + "/s");
  StateRun cold = RunWithState(o, b, tmp.path + "/t", nullptr, /*reboot=*/true);
  ASSERT_TRUE(warm.sim.status.ok() && cold.sim.status.ok());
  EXPECT_TRUE(warm.sim.run->layout().empty());
  EXPECT_TRUE(cold.sim.run->layout().empty());
  const double warm_bw = Figures(warm.sim, "b")["read"]["bw_bytes"];
  const double cold_bw = Figures(cold.sim, "b")["read"]["bw_bytes"];
  EXPECT_GT(warm_bw, 5 * cold_bw);  // page-cache hits against the platters
  EXPECT_LT(cold_bw, 300e6);
}

TEST(StateTest, HddDirectRestoredEqualsOneRun) {
  // O_DIRECT: the disk's head, read-ahead buffer and write cache carry over.
  HostOptions o = Catalog("hdd-7200");
  const std::vector<std::string> common = {"--ioengine=psync", "--direct=1", "--filename=f",
                                           "--size=32m"};
  ExpectSameAsOneRun(o, Cat(common, {"--name=a", "--rw=write", "--bs=256k", "--end_fsync=1"}),
                     Cat(common, {"--name=b", "--rw=read", "--bs=4k", "--io_size=4m"}));
}

TEST(StateTest, WiresAndVirtualDisksRestoredEqualOneRun) {
  // A USB UAS bridge (link), an iSCSI session and a VM's virtual disk keep
  // nothing once idle: the drive behind them carries the state.
  const std::vector<std::string> common = {"--ioengine=libaio", "--iodepth=4", "--direct=1",
                                           "--filename=f", "--size=16m"};
  const auto a = Cat(common, {"--name=a", "--rw=write", "--bs=256k", "--end_fsync=1"});
  // (Sequential: fio seeds a job's offsets from its number, which differs
  // between one run of two jobs and two runs of one.)
  const auto b = Cat(common, {"--name=b", "--rw=read", "--bs=16k", "--io_size=4m"});
  ExpectSameAsOneRun(Catalog("usb3-uas-hdd"), a, b);
  HostOptions vm;
  vm.stack = "test.toml";
  vm.stack_text =
      "[node.vm]\ntype = \"vm\"\nchild = \"lun\"\ncache = \"none\"\n"
      "[node.lun]\ntype = \"iscsi\"\nchild = \"disk\"\n"
      "[node.disk]\ntype = \"hdd\"\ncapacity = \"1GiB\"\n";
  ExpectSameAsOneRun(vm, a, b);
}

TEST(StateTest, RamDiskWithDataRestoredEqualsOneRunAndKeepsTheData) {
  // keep_data: the RAM store's bytes carry over.
  HostOptions o;
  o.stack = "test.toml";
  o.stack_text = RamStack("20us", "64MiB", 4, "500MB/s");
  o.keep_data = true;
  const std::vector<std::string> common = {"--ioengine=psync", "--direct=1", "--filename=f",
                                           "--size=8m", "--bs=64k"};
  ExpectSameAsOneRun(o, Cat(common, {"--name=a", "--rw=write"}),
                     Cat(common, {"--name=b", "--rw=read"}));
  // What A wrote is what the restored disk holds.
  TempDir tmp("storlab_state");
  StateRun a = RunWithState(o, Cat(common, {"--name=a", "--rw=write"}), tmp.path + "/s");
  ASSERT_TRUE(a.save.ok());
  auto host = SimHost::Create(o);
  ASSERT_TRUE(host.ok());
  ASSERT_TRUE(RestoreHostState(**host, tmp.path + "/s").ok());
  std::vector<uint8_t> want(8 << 20), got(8 << 20);
  auto* before = NodeAs<RamDisk>(&a.sim.host->device());
  auto* after = NodeAs<RamDisk>(&(*host)->device());
  ASSERT_TRUE(before && after);
  ASSERT_TRUE(before->store().Read(0, want.size(), want.data()).ok());
  ASSERT_TRUE(after->store().Read(0, got.size(), got.data()).ok());
  EXPECT_NE(want, std::vector<uint8_t>(want.size()));
  EXPECT_EQ(got, want);
  EXPECT_EQ((*host)->fs().Lookup("f"), a.sim.host->fs().Lookup("f"));
}

TEST(StateTest, TheSameStateAndJobGiveTheSameBytes) {
  // Determinism: two runs from copies of one state agree.
  HostOptions o = Catalog("hdd-7200");
  TempDir tmp("storlab_state");
  const std::vector<std::string> job = {"--name=a",       "--ioengine=psync", "--direct=1",
                                        "--rw=randwrite", "--bs=4k",          "--size=4m",
                                        "--filename=f",   "--io_size=512k"};
  ASSERT_TRUE(RunWithState(o, job, tmp.path + "/s").save.ok());
  std::filesystem::copy(tmp.path + "/s", tmp.path + "/t");
  StateRun x = RunWithState(o, job, tmp.path + "/s");
  StateRun y = RunWithState(o, job, tmp.path + "/t");
  ASSERT_TRUE(x.sim.status.ok() && y.sim.status.ok());
  EXPECT_EQ(Figures(x.sim, "a").dump(), Figures(y.sim, "a").dump());
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

const std::vector<std::string> kSmallJob = {"--name=a",    "--ioengine=psync", "--direct=1",
                                            "--rw=write",  "--bs=64k",         "--size=1m",
                                            "--filename=f"};

HostOptions Ram() {
  HostOptions o;
  o.stack = "test.toml";
  o.stack_text = RamStack("20us", "64MiB");
  return o;
}

TEST(StateTest, AnotherFormatVersionIsRefusedNamingDirAndVersions) {
  TempDir tmp("storlab_state");
  const std::string dir = tmp.path + "/s";
  ASSERT_TRUE(RunWithState(Ram(), kSmallJob, dir).save.ok());
  std::string m = ReadFile(dir + "/MANIFEST");
  const std::string ours = "format " + std::to_string(StateImage::kFormat) + "\n";
  const std::string other = "format " + std::to_string(StateImage::kFormat + 1) + "\n";
  const size_t at = m.find(ours);
  ASSERT_NE(at, std::string::npos) << m;
  m.replace(at, ours.size(), other);
  WriteFile(dir + "/MANIFEST", m);
  StateRun r = RunWithState(Ram(), kSmallJob, dir);
  EXPECT_EQ(r.sim.status.message(), "state " + dir + ": format " +
                                        std::to_string(StateImage::kFormat + 1) +
                                        ", this storlab (" + std::string("0.1.0") +
                                        ") reads format " + std::to_string(StateImage::kFormat));
  EXPECT_EQ(ReadFile(dir + "/MANIFEST"), m);  // refused, not changed
}

TEST(StateTest, AnotherStackIsRefusedNamingDirAndTheDifference) {
  TempDir tmp("storlab_state");
  const std::string dir = tmp.path + "/s";
  ASSERT_TRUE(RunWithState(Ram(), kSmallJob, dir).save.ok());
  const std::string before = ReadFile(dir + "/MANIFEST");
  HostOptions other = Ram();
  other.stack_text = RamStack("30us", "64MiB");
  StateRun r = RunWithState(other, kSmallJob, dir);
  EXPECT_EQ(
      r.sim.status.message().rfind("state " + dir + " was saved from a different stack: line ", 0),
      0u)
      << r.sim.status.message();
  EXPECT_NE(r.sim.status.message().find("`latency = \"20us\"`, this run's is `latency = \"30us\"`"),
            std::string::npos)
      << r.sim.status.message();
  // The host's memory is part of what a state must match.
  HostOptions mem = Ram();
  mem.mem_bytes = uint64_t{1} << 30;
  r = RunWithState(mem, kSmallJob, dir);
  EXPECT_NE(r.sim.status.message().find("host mem = 1073741824"), std::string::npos)
      << r.sim.status.message();
  EXPECT_EQ(ReadFile(dir + "/MANIFEST"), before);
}

TEST(StateTest, TruncatedOrCorruptFilesAreRefusedNamingTheFile) {
  TempDir tmp("storlab_state");
  const std::string dir = tmp.path + "/s";
  ASSERT_TRUE(RunWithState(Ram(), kSmallJob, dir).save.ok());
  const std::string fs = ReadFile(dir + "/fs.state");
  WriteFile(dir + "/fs.state", fs.substr(0, fs.size() - 3));
  StateRun r = RunWithState(Ram(), kSmallJob, dir);
  EXPECT_NE(r.sim.status.message().find("state " + dir + ": fs.state has "), std::string::npos)
      << r.sim.status.message();
  std::string bad = fs;
  bad[bad.size() / 2] ^= 0x55;
  WriteFile(dir + "/fs.state", bad);
  r = RunWithState(Ram(), kSmallJob, dir);
  EXPECT_EQ(r.sim.status.message(),
            "state " + dir + ": fs.state does not match its checksum in the MANIFEST (corrupt)");
  // A directory that is not a state is never taken over.
  TempDir other("storlab_state");
  WriteFile(other.path + "/notes.txt", "mine");
  r = RunWithState(Ram(), kSmallJob, other.path);
  EXPECT_NE(r.sim.status.message().find("not a storlab state"), std::string::npos);
  EXPECT_EQ(ReadFile(other.path + "/notes.txt"), "mine");
}

TEST(StateTest, AnInterruptedSaveKeepsThePreviousState) {
  TempDir tmp("storlab_state");
  const std::string dir = tmp.path + "/s";
  ASSERT_TRUE(RunWithState(Ram(), kSmallJob, dir).save.ok());
  const std::string manifest = ReadFile(dir + "/MANIFEST");
  // The disk fills up in the middle of the save, then the rename fails,
  // then the fsync: each time the state before stays whole.
  for (int fault = 0; fault < 3; ++fault) {
    storlab::testing::FaultEnv env;
    if (fault == 0) env.space_left = 100;
    if (fault == 1) env.rename_errno = EIO;
    if (fault == 2) env.sync_errno = EIO;
    StateRun r = RunWithState(Ram(), kSmallJob, dir, &env);
    ASSERT_TRUE(r.sim.status.ok()) << r.sim.status.ToString();
    EXPECT_TRUE(r.restored);
    EXPECT_FALSE(r.save.ok()) << fault;
    EXPECT_NE(r.save.message().find("saving state " + dir), std::string::npos) << r.save.message();
    EXPECT_EQ(ReadFile(dir + "/MANIFEST"), manifest) << fault;
    EXPECT_FALSE(std::filesystem::exists(dir + ".tmp")) << fault;
  }
  // And it still restores: the run goes on from the first run's clock.
  StateRun r = RunWithState(Ram(), kSmallJob, dir);
  ASSERT_TRUE(r.sim.status.ok()) << r.sim.status.ToString();
  EXPECT_TRUE(r.restored);
  EXPECT_TRUE(r.save.ok());
  EXPECT_NE(ReadFile(dir + "/MANIFEST"), manifest);  // a later clock
}

TEST(StateTest, ASaveInterruptedBetweenItsRenamesRestoresFromTheOldState) {
  TempDir tmp("storlab_state");
  const std::string dir = tmp.path + "/s";
  ASSERT_TRUE(RunWithState(Ram(), kSmallJob, dir).save.ok());
  std::filesystem::rename(dir, dir + ".old");
  StateRun r = RunWithState(Ram(), kSmallJob, dir);
  ASSERT_TRUE(r.sim.status.ok()) << r.sim.status.ToString();
  EXPECT_TRUE(r.restored);
  ASSERT_TRUE(r.save.ok()) << r.save.ToString();
  EXPECT_TRUE(std::filesystem::exists(dir + "/MANIFEST"));
  EXPECT_FALSE(std::filesystem::exists(dir + ".old"));
}

}  // namespace state_test
}  // namespace storlab::fio::testing
