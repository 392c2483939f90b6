// Every model's own figures come from its stat table: each has a unit of
// sim/stat_table.h and a name no other figure of the node has; NodeAs<T>
// finds exactly the nodes of its model.
#include "sim/stat_table.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sim/devices/hdd.h"
#include "sim/layers/nfs/nfs.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace stat_table_test {

TEST(StatTableTest, EveryFigureOfEveryCatalogNodeHasAUnitAndAUniqueName) {
  const std::set<std::string_view> units = {kCount, kBytes,   kNanos,     kMillis, kBytesPerSecond,
                                            kRatio, kPercent, kCylinders, kFlag};
  size_t figures = 0;
  std::set<NodeKind> kinds;
  for (const std::string& c : testing::CatalogAndConformanceStacks()) {
    Engine e;
    LoadedStack s = testing::MustLoad(c, e);
    for (const auto& n : s.stack->nodes()) {
      StatList list;
      n->AppendStats(list);
      std::set<std::string> names;
      for (const StatValue& v : list) {
        EXPECT_TRUE(units.count(v.unit))
            << c << ": " << n->name() << "." << v.name << " has unit '" << v.unit << "'";
        EXPECT_TRUE(names.insert(v.name).second) << c << ": " << n->name() << "." << v.name;
        ++figures;
      }
      kinds.insert(n->kind());
      EXPECT_NE(n->kind(), NodeKind::kOther)
          << c << ": " << n->name() << " (" << n->type() << ") has no NodeKind";
    }
  }
  EXPECT_GT(figures, 500u);
  // Every model is in some stack, but the oracle (tests put it on top) and
  // a cache's RAM (its cache node owns it, no stack lists it).
  for (auto k = static_cast<int>(NodeKind::kRam); k < static_cast<int>(NodeKind::kOracle); ++k) {
    if (static_cast<NodeKind>(k) == NodeKind::kCacheMemory) continue;
    EXPECT_TRUE(kinds.count(static_cast<NodeKind>(k))) << "no stack has NodeKind " << k;
  }
}

TEST(StatTableTest, NodeAsFindsTheModelsNodesOnly) {
  Engine e;
  LoadedStack s = testing::MustLoad("nas-1gbe-raid5", e);
  int hdds = 0, nfs = 0;
  for (const auto& n : s.stack->nodes()) {
    const Node* node = n.get();
    if (const Hdd* h = NodeAs<Hdd>(node)) {
      EXPECT_EQ(h->type(), "hdd");
      ++hdds;
    }
    if (NodeAs<Nfs>(node) != nullptr) ++nfs;
    EXPECT_EQ(NodeAs<Hdd>(node) != nullptr, n->type() == "hdd");
  }
  EXPECT_EQ(hdds, 4);
  EXPECT_EQ(nfs, 1);
  EXPECT_EQ(NodeAs<Hdd>(static_cast<const Node*>(nullptr)), nullptr);
}

// A table reads plain members (integers, Nanos, bools) and computed figures.
struct Demo {
  uint64_t ops = 7;
  Nanos busy = Nanos(1500);
  bool failed = true;
};
TEST(StatTableTest, FieldsReadMembersOfEachType) {
  static constexpr StatField<Demo> kTable[] = {
      Field<&Demo::ops>("ops", kCount),
      Field<&Demo::busy>("busy_ns", kNanos),
      Field<&Demo::failed>("failed", kFlag),
      {"twice", kCount, [](const Demo& d) { return 2 * StatNumber(d.ops); }},
  };
  StatList out;
  AppendStatTable(Demo{}, kTable, out, "x_");
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].name, "x_ops");
  EXPECT_EQ(out[0].value, 7);
  EXPECT_EQ(out[1].value, 1500);
  EXPECT_EQ(out[1].unit, kNanos);
  EXPECT_EQ(out[2].value, 1);
  EXPECT_EQ(out[3].value, 14);
}

}  // namespace stat_table_test
}  // namespace storlab
