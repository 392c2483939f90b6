// Port: requests from outside a stack are answered exactly once, also when
// a power cut forgets what the stack was doing.
#include "sim/port.h"

#include <gtest/gtest.h>

#include "tests/sim/test_util.h"

namespace storlab {
namespace port_test {

using namespace time_literals;
using testing::MustLoadText;

TEST(Port, PassesRequestsThroughAndCountsThem) {
  Engine e;
  auto s = MustLoadText("[node.d]\ntype = \"ram\"\ncapacity = \"1MiB\"\nlatency = \"1ms\"\n", e);
  Port port(*s.stack, s.stack->root());
  std::vector<uint8_t> buf(4096, 7);
  int done = 0;
  Request r{.op = Op::kWrite, .length = 4096, .data = buf.data(), .done = [&](Status st) {
              EXPECT_TRUE(st.ok());
              ++done;
            }};
  port.Submit(std::move(r));
  EXPECT_EQ(port.in_flight(), 1u);
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(done, 1);
  EXPECT_EQ(port.in_flight(), 0u);
}

TEST(Port, APowerCutAnswersEveryRequestInFlightWithAborted) {
  Engine e;
  auto s = MustLoadText("[node.d]\ntype = \"ram\"\ncapacity = \"1MiB\"\nlatency = \"1ms\"\n", e);
  Port port(*s.stack, s.stack->root());
  std::vector<uint8_t> buf(4096, 7);
  std::vector<Status> answers;
  for (int i = 0; i < 3; ++i) {
    Request r{.op = i == 2 ? Op::kFlush : Op::kWrite,
              .offset = static_cast<uint64_t>(i) * 4096,
              .length = i == 2 ? 0u : 4096u,
              .data = buf.data(),
              .done = [&](Status st) { answers.push_back(st); }};
    port.Submit(std::move(r));
  }
  VirtualDriver(e).RunUntil(e.now() + 500_us);  // all three still in service
  ASSERT_TRUE(answers.empty());
  EXPECT_EQ(s.stack->PowerCut(), 3u);
  EXPECT_TRUE(answers.empty());  // from engine events, not inside PowerCut
  VirtualDriver(e).RunUntilIdle();
  ASSERT_EQ(answers.size(), 3u);
  for (const Status& st : answers) EXPECT_EQ(st.code(), Status::Code::kAborted);
  EXPECT_EQ(port.in_flight(), 0u);
  // The stack works after the cut, through the same port.
  bool ok = false;
  Request r{.op = Op::kRead, .length = 4096, .data = buf.data(), .done = [&](Status st) {
              ok = st.ok();
            }};
  port.Submit(std::move(r));
  VirtualDriver(e).RunUntilIdle();
  EXPECT_TRUE(ok);
}

TEST(Port, AFailedNodeAnswersEIOUntilItIsBack) {
  Engine e;
  auto s = MustLoadText("[node.d]\ntype = \"ram\"\ncapacity = \"1MiB\"\n", e);
  Node& d = s.stack->root();
  std::vector<uint8_t> buf(4096, 1);
  d.SetFailed(true);
  EXPECT_EQ(testing::Write(e, d, 0, buf).status.code(), Status::Code::kIoError);
  d.SetFailed(false);
  EXPECT_TRUE(testing::Write(e, d, 0, buf).status.ok());
}

}  // namespace port_test
}  // namespace storlab
