// The exports' saved state (ServiceOptions::state_dir): what one service
// wrote is there for the next one on the same stack, the clock goes on, and
// a state of another stack or data mode is refused before anything is
// served. (Every catalog node type saves now; a node that cannot is refused
// by CheckStackCanSave, which the service calls: tests/sim/stack_state_test.cc.)
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/serve/service.h"
#include "tests/serve/serve_test_util.h"

namespace storlab {
namespace service_state_test {

using testing::Io;
using testing::ManualClock;
using testing::ServeStack;

class ServiceStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("storlab-service-state-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  ServiceOptions Options(const std::string& stack) {
    ServiceOptions o;
    o.stack = ServeStack(stack);
    o.clock = &clock_;
    o.compensate.mode = CompensationOptions::Mode::kOff;
    o.state_dir = dir_.string();
    return o;
  }
  ManualClock clock_{/*auto_jump=*/true};
  std::filesystem::path dir_;
};

TEST_F(ServiceStateTest, WhatOneRunWroteTheNextReads) {
  std::vector<uint8_t> data(64 * 1024);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
  int64_t first_time = 0;
  {
    auto svc = testing::Start(Options("small-ram.toml"));
    ASSERT_TRUE(svc);
    auto s = svc->OpenSession(0);
    ASSERT_TRUE(s->Do(Io(Op::kWrite, 4096, data.size(), data.data())).ok());
    svc->Shutdown();
    first_time = svc->Stats()["service"]["time_ns"].get<int64_t>();
  }
  ASSERT_TRUE(std::filesystem::exists(dir_ / "MANIFEST"));
  auto svc = testing::Start(Options("small-ram.toml"));
  ASSERT_TRUE(svc);
  auto s = svc->OpenSession(0);
  std::vector<uint8_t> got(data.size());
  ASSERT_TRUE(s->Do(Io(Op::kRead, 4096, got.size(), got.data())).ok());
  EXPECT_EQ(got, data);
  // The clock goes on from where the first run's stack went idle.
  EXPECT_GE(svc->Stats()["service"]["time_ns"].get<int64_t>(), first_time);
  // The oracle takes the restored content as it is (no stale-read alarm).
  EXPECT_EQ(svc->Stats()["service"]["oracle"][0]["read_violations"], 0);
}

TEST_F(ServiceStateTest, AnotherStackOrDataModeIsRefusedNamingTheDirectory) {
  {
    auto svc = testing::Start(Options("small-ram.toml"));
    ASSERT_TRUE(svc);
  }
  ServiceOptions other = Options("mirror.toml");
  auto s = Service::Create(other);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find(dir_.string()), std::string::npos) << s.status().ToString();
  ServiceOptions timing = Options("small-ram.toml");
  timing.store.kind = DataMode::Kind::kNone;
  s = Service::Create(timing);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("timing-only"), std::string::npos) << s.status().ToString();
}

}  // namespace service_state_test
}  // namespace storlab
