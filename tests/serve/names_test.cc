// Node names taken from the user (exports, control commands): resolved
// against the stack, and quoted back as every message quotes user text
// (Quoted/QuotedList, sim/quoted.h).
#include "sim/serve/names.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sim/devices/ram_disk.h"
#include "sim/stack.h"
#include "sim/store/null_store.h"

namespace storlab {
namespace names_test {

struct TenDisks {
  TenDisks() : stack(engine, "ten", 1, DataMode()) {
    RamDisk::Config c;
    c.capacity = 1 << 20;
    for (int i = 0; i < 10; ++i) {
      stack.Adopt(std::make_unique<RamDisk>(engine, "disk." + std::to_string(i), c,
                                            std::make_unique<NullStore>()));
    }
  }
  Engine engine;
  Stack stack;
};

TEST(NodeNames, CopiesResolveByTheirBaseName) {
  TenDisks t;
  auto r = ResolveNodeNames(t.stack, {"disk.3", "disk"}, "export");
  EXPECT_FALSE(r.ok());  // disk.3 twice
  EXPECT_NE(r.status().message().find("export 'disk.3' is named twice"), std::string::npos)
      << r.status().message();
  r = ResolveNodeNames(t.stack, {"disk"}, "export");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->size(), 10u);
}

TEST(NodeNames, AListOfNodesNamesTheFirstSixAndCountsTheRest) {
  TenDisks t;
  EXPECT_EQ(SomeNodeNames(t.stack),
            "'disk.0', 'disk.1', 'disk.2', 'disk.3', 'disk.4', 'disk.5' and 4 more");
}

TEST(NodeNames, AnUnknownNameIsQuotedShortAndPrintable) {
  TenDisks t;
  const std::string hostile = "\x1b[2J" + std::string(100, 'x');
  auto r = ResolveNodeNames(t.stack, {hostile}, "export");
  ASSERT_FALSE(r.ok());
  const std::string& m = r.status().message();
  EXPECT_EQ(m.find('\x1b'), std::string::npos) << m;
  EXPECT_EQ(m.find(std::string(41, 'x')), std::string::npos) << m;
  EXPECT_EQ(m.find("export '\\x1B[2J"), 0u) << m;
  EXPECT_NE(m.find("...' (104 bytes): stack 'ten' has no such node (its nodes: 'disk.0'"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("and 4 more)"), std::string::npos) << m;
}

}  // namespace names_test
}  // namespace storlab
