// The faults of the control language through the service (what the NBD
// plugin's control socket and the FUSE mount's .storlab/control run):
// detach/attach, delay, corrupt (caught by the export's oracle on read),
// ignore-fua, and media-error refused on a node that is not a faults node.
#include <gtest/gtest.h>

#include <cstdio>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "sim/serve/service.h"
#include "tests/serve/serve_test_util.h"

namespace storlab {
namespace service_faults_test {

using testing::Io;
using testing::ManualClock;
using testing::ServeStack;
using testing::Start;

bool StartsWith(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

TEST(ServiceFaults, EveryFaultAnswersOneLine) {
  ManualClock clock(true);
  ServiceOptions o;
  o.stack = ServeStack("mirror.toml");
  o.clock = &clock;
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  auto md = svc->OpenSession(0);
  auto d1 = svc->OpenSession(2);
  std::vector<uint8_t> w(65536, 0x5a), r(65536);
  ASSERT_TRUE(md->Do(Io(Op::kWrite, 0, w.size(), w.data())).ok());

  std::string a = svc->Control("detach disk.1");
  EXPECT_TRUE(StartsWith(a, "detach: 'disk.1' is detached: every new request to it gets EIO")) << a;
  EXPECT_EQ(d1->Do(Io(Op::kRead, 0, 4096, r.data())).code(), Status::Code::kIoError);
  EXPECT_EQ(svc->Control("detach disk.1"), "error: detach: 'disk.1' is detached");
  a = svc->Control("attach disk.1");
  EXPECT_EQ(a, "attach: 'disk.1' is attached again, with the contents it had");
  ASSERT_TRUE(d1->Do(Io(Op::kRead, 0, r.size(), r.data())).ok());
  EXPECT_EQ(r, w);

  a = svc->Control("delay disk.0 1ms for 1s");
  EXPECT_EQ(a,
            "delay: requests that reach 'disk.0' in the next 1s wait 1ms before it acts on them");
  a = svc->Control("ignore-fua md");
  EXPECT_TRUE(StartsWith(a, "ignore-fua: 'md' drops the FUA flag of writes from now on")) << a;
  a = svc->Control("media-error disk.0 0+4KiB");
  EXPECT_TRUE(StartsWith(a,
                         "error: media-error: 'disk.0' is a ram node: media errors are a "
                         "faults node's"))
      << a;
  a = svc->Control("delay disk.0 1ms");
  EXPECT_TRUE(StartsWith(a, "error: control: delay: expected 4 words, got 2")) << a;
}

TEST(ServiceFaults, TheOracleCatchesACorruptedBlockOnRead) {
  ManualClock clock(true);
  ServiceOptions o;
  o.stack = ServeStack("mirror.toml");
  o.clock = &clock;
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  auto md = svc->OpenSession(0);
  std::vector<uint8_t> w(8192, 0x33), r(8192);
  ASSERT_TRUE(md->Do(Io(Op::kWrite, 0, w.size(), w.data())).ok());
  // The mirror's reads go to either member: corrupt the block on both.
  EXPECT_TRUE(StartsWith(svc->Control("corrupt disk.0 4KiB"),
                         "corrupt: the 512-byte block at "
                         "4096 of 'disk.0' reads back"));
  EXPECT_TRUE(StartsWith(svc->Control("corrupt disk.1 4KiB"), "corrupt: "));
  ASSERT_TRUE(md->Do(Io(Op::kRead, 0, r.size(), r.data())).ok());  // no error: silent
  EXPECT_NE(r, w);
  EXPECT_EQ(r[4096], 0x33 ^ 0xff);
  auto j = svc->Stats();
  EXPECT_EQ(j["service"]["oracle"][0]["export"], "md");
  EXPECT_EQ(j["service"]["oracle"][0]["read_violations"], 1);
  // The check runs on the thread that answers, before it answers: through
  // Submit (FUSE's path) the reply already finds the violation counted.
  std::promise<int> counted;
  md->Submit(Io(Op::kRead, 0, r.size(), r.data()), [&](Status st) {
    EXPECT_TRUE(st.ok()) << st.ToString();
    counted.set_value(svc->Stats()["service"]["oracle"][0]["read_violations"].get<int>());
  });
  EXPECT_EQ(counted.get_future().get(), 2);
}

// A stack file's [stack] faults run in real time after Start(): here a
// member fails 50 ms in, which the export then shows (the answer to failing
// it again); a bad line refuses the service, naming its file and line.
TEST(ServiceFaults, TheStackFilesFaultsRunAfterStart) {
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/scheduled.toml";
  std::string text =
      "[stack]\nexports = [\"md\"]\nfaults = [\"50ms: fail disk.1\"]\n"
      "[node.md]\ntype = \"raid\"\nlevel = 1\nchildren = [\"disk\"]\n"
      "[node.disk]\ntype = \"ram\"\ncapacity = \"16MiB\"\ncount = 2\n";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  ManualClock clock(false);
  ServiceOptions o;
  o.stack = path;
  o.clock = &clock;
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  EXPECT_EQ(svc->Control("replace disk.1"),
            "error: replace: 'disk.1' has not failed (fail it first)");
  clock.Advance(100'000'000);
  EXPECT_TRUE(testing::Eventually([&] {
    return svc->Control("replace disk.1").rfind("replace: 'disk.1' is back in its slot", 0) == 0;
  }));
  svc.reset();

  text.replace(text.find("fail disk.1"), 11, "fail disk.9");
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  auto bad = Service::Create(o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("scheduled.toml:3: [stack] faults '50ms: fail disk.9': "
                                        "fail: no node 'disk.9'"),
            std::string::npos)
      << bad.status().message();
}

}  // namespace service_faults_test
}  // namespace storlab
