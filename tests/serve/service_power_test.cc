// A power cut through the control channel in the middle of writes: every
// request in flight is answered (EIO), everything flushed survives, and the
// oracle checks the device back with no violation.
#include <gtest/gtest.h>

#include <thread>

#include "sim/serve/service.h"
#include "tests/serve/serve_test_util.h"

namespace storlab {
namespace service_power_test {

using testing::Io;
using testing::Start;

using testing::ManualClock;

TEST(ServicePowerCut, FlushedDataSurvivesAndInFlightRequestsAreAnswered) {
  ManualClock clock(/*auto_jump=*/true);
  ServiceOptions o;
  o.stack = testing::ServeStack("writeback.toml");
  o.clock = &clock;
  // No compensation: with a clock moved by hand, the overhead it would
  // measure (and deduct) is the test's, and C could complete at once.
  o.compensate.mode = CompensationOptions::Mode::kOff;
  auto created = Service::Create(o);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  Service& svc = **created;
  ASSERT_TRUE(svc.Start().ok());
  auto s = svc.OpenSession(0);
  std::vector<uint8_t> a(65536, 0xaa), b(65536, 0xbb), c(65536, 0xcc);
  // A: written and flushed.
  ASSERT_TRUE(s->Do(Io(Op::kWrite, 0, a.size(), a.data())).ok());
  ASSERT_TRUE(s->Do(Io(Op::kFlush, 0, 0, nullptr)).ok());
  // B: written, still dirty in the cache. From here the clock moves only by
  // hand, so the cache's 30 s expiry cannot destage it.
  clock.set_auto_jump(false);
  {
    std::atomic<bool> done{false};
    std::thread w([&] {
      EXPECT_TRUE(s->Do(Io(Op::kWrite, 1 << 20, b.size(), b.data())).ok());
      done = true;
    });
    while (!done) {
      clock.Advance(10'000);
      std::this_thread::yield();
    }
    w.join();
  }
  // C: a FUA write, in flight when the power goes.
  Status c_answer = Status::Internal("no answer");
  std::thread t([&] { c_answer = s->Do(Io(Op::kWrite, 2 << 20, c.size(), c.data(), kFua)); });
  ASSERT_TRUE(
      testing::Eventually([&] { return svc.Stats()["service"]["exports"][0]["in_flight"] == 1; }));
  std::string answer = svc.Control("power-cut");
  t.join();
  EXPECT_EQ(c_answer.code(), Status::Code::kAborted);
  EXPECT_EQ(answer.find("power-cut: 1 requests in flight answered with EIO"), 0u) << answer;
  EXPECT_NE(answer.find(", 0 violations"), std::string::npos) << answer;
  clock.set_auto_jump(true);
  // After the cut: A is there; B's blocks hold B or what was there before.
  std::vector<uint8_t> r(65536);
  ASSERT_TRUE(s->Do(Io(Op::kRead, 0, r.size(), r.data())).ok());
  EXPECT_EQ(r, a);
  ASSERT_TRUE(s->Do(Io(Op::kRead, 1 << 20, r.size(), r.data())).ok());
  EXPECT_TRUE(r == b || r == std::vector<uint8_t>(65536, 0));
  auto j = svc.Stats()["service"];
  EXPECT_EQ(j["power_cuts"], 1);
  EXPECT_EQ(j["oracle"][0]["last_power_cut"]["violations"], 0);
  EXPECT_GT(j["oracle"][0]["last_power_cut"]["blocks_older"], 0);  // B was lost, as allowed
  EXPECT_EQ(j["oracle"][0]["read_violations"], 0);
  // It keeps serving, and can be cut again.
  ASSERT_TRUE(s->Do(Io(Op::kWrite, 0, b.size(), b.data(), kFua)).ok());
  answer = svc.Control("power-cut");
  EXPECT_NE(answer.find(", 0 violations"), std::string::npos) << answer;
  ASSERT_TRUE(s->Do(Io(Op::kRead, 0, r.size(), r.data())).ok());
  EXPECT_EQ(r, b);
}

TEST(ServicePowerCut, WithoutDataThereIsNoOracleButRequestsAreStillAnswered) {
  ManualClock clock(true);
  ServiceOptions o;
  o.stack = testing::ServeStack("writeback.toml");
  o.store.kind = DataMode::Kind::kNone;
  o.clock = &clock;
  auto created = Service::Create(o);
  ASSERT_TRUE(created.ok());
  Service& svc = **created;
  ASSERT_TRUE(svc.Start().ok());
  std::string answer = svc.Control("power-cut");
  EXPECT_NE(answer.find("no oracle"), std::string::npos) << answer;
}

}  // namespace service_power_test
}  // namespace storlab
