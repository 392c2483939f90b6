// verify_state_save and verify_state_load (fio 3.33 verify-state.h;
// verify.c get_all_io_list(), write_thread_list_state(),
// verify_load_state(), verify_state_should_stop()): the state file real
// fio writes, byte for byte, and the stop of a later verification at the
// first of the last writes that had not completed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"
#include "workloads/fio/verify_state.h"

namespace storlab::fio {
namespace fio_verify_state_test {

using testing::GoldenDir;
using testing::RamStack;
using testing::Split;

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The job runs in a fresh current directory (fio reads and writes its
// state files there), put back afterwards.
struct InTempDir {
  testing::TempDir dir{"storlab_vstate"};
  std::filesystem::path was = std::filesystem::current_path();
  InTempDir() { std::filesystem::current_path(dir.path); }
  ~InTempDir() { std::filesystem::current_path(was); }
};

// Real fio 3.33: rw=write bs=4k size=64k verify=crc32c leaves
// local-w-0-verify.state: 16 writes, depth 1, the last completed at 61440.
TEST(VerifyStateTest, SavedStateIsRealFios) {
  const std::vector<uint8_t> real = ReadBytes(GoldenDir() + "verify/local-w-0-verify.state");
  ASSERT_EQ(real.size(), 192u);
  auto s = testing::RunWithHost(
      RamStack(), Split("--name=w --filename=/d/f --size=64k --bs=4k --rw=write --verify=crc32c"),
      /*keep_data=*/true);
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_EQ(s.run->runners()[0]->verify_state_file(), real);
  auto back = DecodeVerifyState(real);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->numberio, 16u);
  EXPECT_EQ(back->name, "w");
  ASSERT_EQ(back->comps.size(), 1u);
  EXPECT_EQ(back->comps[0].offset, 61440u);
  EXPECT_EQ(EncodeVerifyState(*back), real);
  EXPECT_EQ(VerifyStateFileName("a/b", 2), "local-a.b-2-verify.state");
  // verify_state_save=0, or a job that does not write: no file.
  for (const char* job : {"--rw=write --verify_state_save=0", "--rw=read"}) {
    auto n = testing::RunWithHost(
        RamStack(),
        Split(std::string("--name=w --filename=/d/f --size=64k --verify=crc32c ") + job), true);
    ASSERT_TRUE(n.status.ok()) << job;
    EXPECT_TRUE(n.run->runners()[0]->verify_state_file().empty()) << job;
  }
}

// A state whose last 4 writes (of 16) saw only the last two complete:
// verify_only with verify_state_load verifies 12 blocks and stops at the
// 13th, as real fio 3.33 does with this file (psync: 12 reads, no error).
TEST(VerifyStateTest, LoadStopsAtAWriteNotCompleted) {
  InTempDir cwd;
  HostOptions ho;
  ho.stack = "test.toml";
  ho.stack_text = RamStack();
  ho.keep_data = true;
  auto host = SimHost::Create(ho);
  ASSERT_TRUE(host.ok());
  auto run = [&](const std::string& extra) {
    auto sections = ParseCommandLine(
        Split("--name=w --filename=/d/f --size=64k --bs=4k --rw=write --verify=crc32c " + extra));
    auto jobs = BuildJobs(*sections, 1);
    auto r = std::make_unique<FioRun>(**host, std::move(*jobs));
    Status st = r->Prepare();
    if (st.ok()) st = r->Run(nullptr);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return r;
  };
  run("");
  VerifyState vs;
  vs.depth = 4;
  vs.numberio = 16;
  vs.name = "w";
  vs.comps = {{0, 61440}, {0, 57344}};
  Status st = WriteVerifyStateFile(EncodeVerifyState(vs), "w", 0);
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto r = run("--verify_only --verify_state_load=1");
  const ThreadStat& ts = r->runners()[0]->stat();
  EXPECT_EQ(ts.error, 0);
  EXPECT_EQ(ts.dir[kRead].total_ios, 12u);
  EXPECT_FALSE(VerifyStateStops(vs, 11, 0, 45056));  // not yet within the last 4
  EXPECT_TRUE(VerifyStateStops(vs, 12, 0, 49152));
  EXPECT_FALSE(VerifyStateStops(vs, 14, 0, 57344));  // seen completed
}

// No state file, or a corrupt one: fio's messages, and the job does not
// run (fio's exit status 1).
TEST(VerifyStateTest, MissingOrCorruptStateFailsTheJob) {
  InTempDir cwd;
  const std::string job =
      "--name=w --filename=/d/f --size=64k --bs=4k --rw=write --verify=crc32c --verify_only "
      "--verify_state_load=1";
  auto s = testing::RunWithHost(RamStack(), Split(job), true);
  ASSERT_TRUE(s.status.ok()) << s.status.ToString();
  EXPECT_TRUE(s.run->runners()[0]->setup_failed());
  EXPECT_EQ(s.Job(0).dir[kRead].total_ios, 0u);
  const auto msgs = s.run->Messages();
  ASSERT_FALSE(msgs.empty());
  EXPECT_EQ(msgs[0],
            "fio: open state file: No such file or directory\nfio: state file: "
            "local-w-0-verify.state (for_write=0)");
  std::vector<uint8_t> bad = EncodeVerifyState(VerifyState{.name = "w", .comps = {}});
  bad.back() ^= 1;
  ASSERT_TRUE(WriteVerifyStateFile(bad, "w", 0).ok());
  auto c = testing::RunWithHost(RamStack(), Split(job), true);
  ASSERT_TRUE(c.status.ok());
  EXPECT_TRUE(c.run->runners()[0]->setup_failed());
  ASSERT_FALSE(c.run->Messages().empty());
  EXPECT_EQ(c.run->Messages()[0], "fio: verify state is corrupt");
}

TEST(VerifyStateTest, BadValuesNameTheOption) {
  for (const char* bad : {"--verify_state_save=x", "--verify_state_load=2"}) {
    auto s = testing::RunArgs(RamStack(), Split(std::string("--name=w --filename=/d/f --size=64k "
                                                            "--verify=crc32c ") +
                                                bad));
    const std::string opt = std::string(bad).substr(2, std::string(bad).find('=') - 2);
    EXPECT_NE(s.status.message().find("option '" + opt + "'"), std::string::npos)
        << bad << ": " << s.status.message();
  }
}

}  // namespace fio_verify_state_test
}  // namespace storlab::fio
