// sim/stack_state.h: a stack with a node that cannot save its state is
// refused naming the node, before anything is saved. Every catalog node
// type saves now (tests/workloads/state_layers_test.cc checks the
// catalog), so a test node stands for one that does not.
#include "sim/stack_state.h"

#include <gtest/gtest.h>

#include <memory>

#include "sim/engine.h"
#include "sim/stack.h"
#include "tests/sim/cache_unit_util.h"

namespace storlab {
namespace stack_state_test {

TEST(StackStateTest, ANodeThatCannotSaveIsRefusedNamingIt) {
  Engine engine;
  Stack stack(engine, "t", 1, DataMode{});
  auto& node = stack.Adopt(std::make_unique<testing::Recorder>(engine, "odd", Nanos(1000)));
  stack.set_root(&node);
  EXPECT_EQ(CheckStackCanSave(stack).message(), "node odd (type recorder) cannot save its state");
  auto parts = SaveStackNodes(stack);
  ASSERT_FALSE(parts.ok());
  EXPECT_EQ(parts.status().message(), "node odd (type recorder) cannot save its state");
}

}  // namespace stack_state_test
}  // namespace storlab
