// The driver's watchdog (sim/watchdog.h): a run that stops getting anywhere
// ends with an error naming the node, whichever way it is stuck.
#include "sim/watchdog.h"

#include <gtest/gtest.h>

#include "sim/devices/ram_disk.h"
#include "sim/store/null_store.h"
#include "sim/virtual_driver.h"

namespace storlab {
namespace watchdog_test {

using namespace time_literals;

// A model gone wrong: it takes requests and, depending on `mode`, never
// completes them, or keeps rescheduling itself at the same instant.
class StuckNode : public Node {
 public:
  enum class Mode { kSwallow, kSpin, kTick };
  StuckNode(Engine& e, Mode mode) : Node(e, "stuck"), mode_(mode) { geometry_.capacity = 1 << 20; }
  std::string_view type() const override { return "stuck"; }

 protected:
  void DoSubmit(Request req) override {
    held_.push_back(std::move(req));
    if (mode_ == Mode::kSpin) Spin();
    if (mode_ == Mode::kTick) Tick();
  }

 private:
  void Spin() {
    engine_.After(Nanos(0), [this] { Spin(); });
  }
  void Tick() {  // a timer that never gets anything done (a retry loop)
    engine_.After(1_ms * 1000, [this] { Tick(); });
  }
  Mode mode_;
  std::vector<Request> held_;
};

struct StuckRun {
  explicit StuckRun(StuckNode::Mode mode) : stack(engine, "t", 1, DataMode()) {
    node = &stack.Adopt(std::make_unique<StuckNode>(engine, mode));
  }
  Status RunOneWrite() {
    bool done = false;
    node->Submit(Request{
        .op = Op::kWrite, .offset = 0, .length = 4096, .done = [&](Status) { done = true; }});
    Watchdog::Limits limits;
    limits.events_at_one_instant = 1 << 20;
    limits.check_every = 1 << 10;
    Watchdog wd(stack, limits);
    return VirtualDriver(engine).RunWatched([&] { return !done; }, wd);
  }
  Engine engine;
  Stack stack;
  StuckNode* node;
};

TEST(WatchdogTest, ADeadlockNamesTheNodeHoldingTheRequest) {
  StuckRun s(StuckNode::Mode::kSwallow);
  Status st = s.RunOneWrite();
  EXPECT_EQ(st.code(), Status::Code::kAborted);
  EXPECT_NE(st.message().find("deadlocked"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("node 'stuck' (stuck) holds 1 request"), std::string::npos)
      << st.message();
}

TEST(WatchdogTest, TimeThatStopsAdvancingIsAnError) {
  StuckRun s(StuckNode::Mode::kSpin);
  Status st = s.RunOneWrite();
  EXPECT_NE(st.message().find("simulated time stopped advancing at 0.000000 s"), std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("node 'stuck'"), std::string::npos) << st.message();
}

TEST(WatchdogTest, ADayWithoutACompletionIsAnError) {
  StuckRun s(StuckNode::Mode::kTick);
  Status st = s.RunOneWrite();
  EXPECT_NE(st.message().find("no request completed from 0.000000 s"), std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("node 'stuck'"), std::string::npos) << st.message();
  EXPECT_GE(s.engine.now(), Nanos::FromSeconds(24 * 3600));
  EXPECT_LT(s.engine.now(), Nanos::FromSeconds(25 * 3600));
}

// The deepest busy node is named: a layer waiting on its child is not
// where the work is stuck.
TEST(WatchdogTest, NamesTheDeepestBusyNode) {
  Engine e;
  Stack stack(e, "t", 1, DataMode());
  Node& stuck = stack.Adopt(std::make_unique<StuckNode>(e, StuckNode::Mode::kSwallow));
  struct Pass : NodeWrapper {
    using NodeWrapper::NodeWrapper;
    std::string_view type() const override { return "pass"; }
  };
  Node& top = stack.Adopt(std::make_unique<Pass>(e, "top", stuck));
  top.Submit(Request{.op = Op::kRead, .length = 4096, .done = [](Status) {}});
  Watchdog wd(stack);
  EXPECT_NE(wd.StuckNode().find("node 'stuck'"), std::string::npos) << wd.StuckNode();
  EXPECT_NE(wd.Deadlock(e).message().find("node 'stuck'"), std::string::npos);
}

TEST(WatchdogTest, AHealthyRunIsNotStopped) {
  Engine e;
  Stack stack(e, "t", 1, DataMode());
  RamDisk::Config c;
  c.capacity = 1 << 20;
  c.latency = 10_us;
  Node& ram = stack.Adopt(std::make_unique<RamDisk>(e, "ram", c, std::make_unique<NullStore>()));
  int left = 100000;
  std::function<void()> next = [&] {
    ram.Submit(Request{.op = Op::kRead, .length = 4096, .done = [&](Status) {
                         if (--left > 0) next();
                       }});
  };
  next();
  Watchdog::Limits limits;
  limits.check_every = 64;
  Watchdog wd(stack, limits);
  EXPECT_TRUE(VirtualDriver(e).RunWatched([&] { return left > 0; }, wd).ok());
  EXPECT_EQ(left, 0);
}

}  // namespace watchdog_test
}  // namespace storlab
