// Helpers for the HDD model's tests: an hdd-7200 with overridden keys, a
// stat by name, and a request that records its completion order.
// Test-only; single-threaded (runs on the engine's thread).
#ifndef STORLAB_TESTS_SIM_HDD_TEST_UTIL_H_
#define STORLAB_TESTS_SIM_HDD_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/sim/test_util.h"

namespace storlab::testing {

// hdd-7200 with `keys` overriding its profile.
inline LoadedStack Drive(Engine& e, const std::string& keys = "",
                         DataMode::Kind kind = DataMode::Kind::kRam) {
  return MustLoadText("[node.hdd]\nuse = \"hdd-7200\"\n" + keys + "\n", e, 1, kind);
}

inline double Stat(const Node& n, const std::string& name) {
  StatList l;
  n.AppendStats(l);
  for (const auto& v : l)
    if (v.name == name) return v.value;
  ADD_FAILURE() << "no stat " << name;
  return -1;
}

// Submits a request; `order` gets `tag` when it completes.
inline void Submit(Node& n, Op op, uint64_t off, uint64_t len, uint8_t* data,
                   std::vector<int>* order, int tag, uint32_t flags = 0) {
  Request r{.op = op,
            .flags = flags,
            .offset = off,
            .length = len,
            .data = data,
            .done = [order, tag](Status st) {
              EXPECT_TRUE(st.ok()) << st.ToString();
              order->push_back(tag);
            }};
  n.Submit(std::move(r));
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_HDD_TEST_UTIL_H_
