// The stack-file loader: structure, `use`, `count`, and errors that name the
// file, line and key.
#include "sim/profile/loader.h"

#include <gtest/gtest.h>

#include "tests/sim/test_util.h"

namespace storlab {
namespace loader_test {

Status LoadError(const std::string& text) {
  Engine e;
  BuildOptions o;
  o.data_mode.kind = DataMode::Kind::kNone;
  auto r = LoadStackText(text, "bad.toml", ".", e, o);
  EXPECT_FALSE(r.ok()) << "expected an error for:\n" << text;
  return r.ok() ? Status() : r.status();
}

void ExpectMessage(const Status& st, std::initializer_list<const char*> parts) {
  for (const char* p : parts) {
    EXPECT_NE(st.message().find(p), std::string::npos)
        << "message lacks '" << p << "': " << st.message();
  }
}

TEST(LoaderTest, NodesOutsideTheTreeAreErrors) {
  Status st = LoadError(R"([stack]
root = "top"

[node.top]
type = "ram"

[node.spare]
use = "ram"
count = 2
)");
  ExpectMessage(st, {"bad.toml:7", "node 'spare' is not part of the stack"});
}

TEST(LoaderTest, UseAppliesOverridesToTheUsedRoot) {
  Engine e;
  auto s = testing::MustLoadText(R"(
[node.disk]
use = "ram"
capacity = "32MiB"
latency = "1ms"
)",
                                 e);
  EXPECT_EQ(s.stack->root().name(), "disk");
  EXPECT_EQ(s.stack->root().geometry().capacity, uint64_t{32} << 20);
  EXPECT_NE(s.resolved.find("capacity = \"32MiB\""), std::string::npos) << s.resolved;
  EXPECT_NE(s.resolved.find("test.toml:4 (33554432 bytes)"), std::string::npos) << s.resolved;
  EXPECT_NE(s.resolved.find("# default"), std::string::npos) << s.resolved;
}

TEST(LoaderTest, ResolvedTextLoadsBack) {
  Engine e;
  auto s = testing::MustLoadText("[node.disk]\nuse = \"ram\"\ncapacity = \"32MiB\"\n", e);
  Engine e2;
  auto again = testing::MustLoadText(s.resolved, e2);
  EXPECT_EQ(again.stack->root().geometry().capacity, uint64_t{32} << 20);
}

TEST(LoaderTest, NodeNamesAreChecked) {
  ExpectMessage(LoadError("[node.\"my disk\"]\ntype = \"ram\"\n"),
                {"bad.toml:1", "node name 'my disk'"});
  ExpectMessage(LoadError("[node.\"/etc\"]\ntype = \"ram\"\n"), {"node name '/etc'"});
}

TEST(LoaderTest, HostTableIsRead) {
  Engine e;
  auto s = testing::MustLoadText(R"(
[host]
mem = "8GiB"
cores = 2
dirty_ratio = "40%"

[node.d]
type = "ram"
)",
                                 e);
  EXPECT_EQ(s.host.mem_bytes, uint64_t{8} << 30);
  EXPECT_EQ(s.host.cores, 2u);
  EXPECT_DOUBLE_EQ(s.host.dirty_ratio, 0.4);
}

TEST(LoaderTest, MalformedTomlNamesTheFileAndLine) {
  Status st = LoadError("[node.d]\ntype = \"ram\"\ncapacity = \n");
  ExpectMessage(st, {"bad.toml", "malformed TOML", "3"});
}

// Found by fuzzing (tests/fuzz/regression/stack/): toml11 3.7 reads out of
// bounds on invalid UTF-8 in a literal string, so the loader rejects it first.
TEST(LoaderTest, InvalidUtf8IsRejectedWithTheLine) {
  ExpectMessage(LoadError("[node.a]\ntype = 'r\xde'\n"), {"bad.toml:2", "not valid UTF-8"});
  ExpectMessage(LoadError("[node.a]\ntype = \"\xed\xa0\x80\"\n"), {"bad.toml:2", "UTF-8"});
  Engine e;
  auto ok = testing::MustLoadText("# caf\xc3\xa9 \xf0\x9f\x92\xbe\n[node.a]\ntype = \"ram\"\n", e);
  EXPECT_EQ(ok.stack->root().name(), "a");
}

// Each node keeps ~80 KB of statistics: a short file must not be able to ask
// for millions of them. A root and two children of count 1024: 2049 nodes.
TEST(LoaderTest, StacksOfMoreThan2048NodesAreErrors) {
  ExpectMessage(LoadError(R"([node.top]
type = "concat"
children = ["a", "b"]

[node.a]
type = "ram"
capacity = "1MiB"
count = 1024

[node.b]
type = "ram"
capacity = "1MiB"
count = 1024
)"),
                {"bad.toml:10", "node 'b'", "more than 2048 nodes"});
}

TEST(LoaderTest, UnknownKeyNamesLineAndSuggests) {
  Status st = LoadError("[node.d]\ntype = \"ram\"\ncapacty = \"1GiB\"\n");
  ExpectMessage(st, {"bad.toml:3", "node 'd'", "unknown key 'capacty'", "did you mean 'capacity'"});
}

TEST(LoaderTest, BadUnitNamesKeyAndLine) {
  Status st = LoadError("[node.d]\ntype = \"ram\"\nlatency = \"3 parsecs\"\n");
  ExpectMessage(st, {"bad.toml:3", "key 'latency'", "parsecs"});
}

TEST(LoaderTest, NegativeSizeIsRejected) {
  Status st = LoadError("[node.d]\ntype = \"ram\"\ncapacity = -5\n");
  ExpectMessage(st, {"bad.toml:3", "key 'capacity'", "negative"});
  st = LoadError("[node.d]\ntype = \"ram\"\ncapacity = \"-5GiB\"\n");
  ExpectMessage(st, {"bad.toml:3", "key 'capacity'", "negative"});
}

TEST(LoaderTest, MissingChildNamesTheReference) {
  Status st = LoadError("[node.top]\ntype = \"ram\"\nchildren = [\"ghost\"]\n");
  ExpectMessage(st, {"bad.toml:3", "child 'ghost' is not defined"});
}

TEST(LoaderTest, StructuralErrors) {
  ExpectMessage(LoadError("[node.d]\ncapacity = \"1GiB\"\n"), {"bad.toml:1", "'type'"});
  ExpectMessage(LoadError("[node.d]\ntype = \"warp-drive\"\n"),
                {"bad.toml:1", "unknown type 'warp-drive'", "known types"});
  ExpectMessage(LoadError("[node.a]\ntype = \"ram\"\n[node.b]\ntype = \"ram\"\n"),
                {"several nodes have no parent", "'a'", "'b'"});
  ExpectMessage(LoadError("[node.a]\ntype = \"ram\"\nchild = \"b\"\n[node.b]\ntype = \"ram\"\n"),
                {"bad.toml:3", "node 'a' of type 'ram' needs 0 children, has 1"});
  ExpectMessage(LoadError("[node.a]\nuse = \"no-such-stack\"\n"), {"bad.toml:1", "no-such-stack"});
  ExpectMessage(LoadError("[nodes.a]\ntype = \"ram\"\n"),
                {"bad.toml:1", "unknown top-level key 'nodes'"});
  ExpectMessage(LoadError("[stack]\nroot = \"x\"\n[node.a]\ntype = \"ram\"\n"),
                {"bad.toml:2", "root 'x' is not defined"});
  ExpectMessage(LoadError(""), {"no nodes"});
  ExpectMessage(LoadError("[node.a]\ntype = \"ram\"\ncount = 0\n"), {"bad.toml:3", "count"});
  ExpectMessage(LoadError("[host]\nmem = \"lots\"\n[node.a]\ntype = \"ram\"\n"),
                {"bad.toml:2", "key 'mem'"});
  ExpectMessage(LoadError("[node.a]\ntype = \"ram\"\nlatency = 5\n"),
                {"bad.toml:3", "key 'latency'", "unit"});
}

TEST(LoaderTest, CycleThroughUseIsCaught) {
  // A file that uses itself: the nesting limit stops it with a message.
  std::string path = ::testing::TempDir() + "/self.toml";
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("[node.me]\nuse = \"self.toml\"\n", f);
    std::fclose(f);
  }
  Engine e;
  BuildOptions o;
  auto r = LoadStack(path, e, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("nests too deeply"), std::string::npos)
      << r.status().message();
}

}  // namespace loader_test
}  // namespace storlab
