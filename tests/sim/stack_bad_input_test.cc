// Hostile and careless stack files (issue 14): nesting toml11 cannot take,
// files with thousands of nodes, rates of zero, files that are not stack
// files at all, huge values — each a clear error naming file, line and key,
// quick, and quoting nothing but a short printable prefix.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "sim/profile/catalog.h"
#include "sim/profile/loader.h"
#include "sim/quoted.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace stack_bad_input_test {

Status LoadError(const std::string& text, const std::string& dir = ".") {
  Engine e;
  BuildOptions o;
  o.data_mode.kind = DataMode::Kind::kNone;
  auto r = LoadStackText(text, "bad.toml", dir, e, o);
  EXPECT_FALSE(r.ok()) << "expected an error for:\n" << text.substr(0, 300);
  return r.ok() ? Status() : r.status();
}

void ExpectMessage(const Status& st, std::initializer_list<const char*> parts) {
  for (const char* p : parts) {
    EXPECT_NE(st.message().find(p), std::string::npos)
        << "message lacks '" << p << "': " << st.message().substr(0, 500);
  }
}

std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(QuotedTest, CapsAndEscapes) {
  EXPECT_EQ(Quoted("abc"), "'abc'");
  EXPECT_EQ(Quoted("a\x1b[2Jb\n"), "'a\\x1B[2Jb\\x0A'");
  EXPECT_EQ(Quoted(std::string(1000, 'x'), 4), "'xxxx...' (1000 bytes)");
  EXPECT_EQ(QuotedList({"a", "b"}), "'a', 'b'");
  std::vector<std::string> many;
  for (int i = 0; i < 20000; ++i) many.push_back("d" + std::to_string(i));
  EXPECT_EQ(QuotedList(many, 3), "'d0', 'd1', 'd2' and 19997 more");
}

// toml11 recurses once per level: 10,000 levels overflow the stack. The
// limit is checked before it parses, for every way of nesting.
TEST(StackBadInputTest, DeepNestingIsAnErrorBeforeParsing) {
  const char* kDeep = "nested more than 32 levels deep";
  ExpectMessage(LoadError("x = " + Repeat("[", 10000) + Repeat("]", 10000) + "\n"),
                {"bad.toml:1", kDeep});
  ExpectMessage(LoadError("[node.a]\ntype = \"ram\"\nx = " + Repeat("{a = ", 100000) + "1" +
                          Repeat("}", 100000) + "\n"),
                {"bad.toml:3", kDeep});
  ExpectMessage(LoadError("[node.a]\ntype = \"ram\"\n" + Repeat("x.", 100000) + "x = 1\n"),
                {"bad.toml:3", kDeep});
  ExpectMessage(LoadError("\n[" + Repeat("a.", 100000) + "a]\n"), {"bad.toml:2", kDeep});
  ExpectMessage(LoadError("x = [" + Repeat("[{a = ", 5000) + "1" + Repeat("}]", 5000) + "]\n"),
                {"bad.toml:1", kDeep});
  // Brackets, braces and dots inside strings and comments are not nesting.
  Engine e;
  auto ok = testing::MustLoadText("# " + Repeat("[{.", 1000) + "\n[stack]\ndescription = \"" +
                                      Repeat("[{.", 1000) + "\"\n[node.\"a.b\"]\ntype = \"ram\"\n",
                                  e);
  EXPECT_EQ(ok.stack->root().name(), "a.b");
  // A resolved catalog stack (the deepest real stack files) passes.
  auto nas = testing::MustLoad("nas-1gbe-raid5", e);
  testing::MustLoadText(nas.resolved, e);
}

// 20,000 nodes took 10-30 s and 165 MB before failing: toml11 is quadratic
// in the items of one array, and line numbers were counted from the start
// of the file for every value. Now the reading stops at node 2049.
TEST(StackBadInputTest, TwentyThousandNodesFailFastAtNode2049) {
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    text += "[node.d" + std::to_string(i) + "]\ntype = \"ram\"\ncapacity = \"1MiB\"\n";
  }
  ExpectMessage(LoadError(text), {"bad.toml:6145", "node 'd2048'", "2048 nodes"});
  ExpectMessage(LoadError("[node.top]\ntype = \"concat\"\nchildren = [" + Repeat("\"x\", ", 20000) +
                          "\"x\"]\n"),
                {"bad.toml:3", "more than 4096 items"});
  // Fewer than 2049 nodes, no root: the list of candidates is capped.
  std::string roots;
  for (int i = 0; i < 2000; ++i) {
    roots += "[node.r" + std::to_string(i) + "]\ntype = \"ram\"\ncapacity = \"1MiB\"\n";
  }
  Status st = LoadError(roots);
  ExpectMessage(st, {"several nodes have no parent ('r0', 'r1',", "and 1994 more)"});
  EXPECT_LT(st.message().size(), 300u) << st.message();
  // No wall-clock limit here (docs/developing.md: timing goals are measured
  // in benchmarks): the errors above name node 2049 and item 4097, so the
  // reading stopped there.
}

// Every rate of every node type must be > 0 (nfs link_rate = "0MB/s" made
// a run spin forever). Generic: every rate of every node type (and of
// [host]) in the catalog and conformance stacks' resolved listings, set to 0,
// is an error naming its key and line - except the keys whose model reads 0
// as "no limit". Each type's key is set to 0 once, in the smallest listing
// that has it: a type reads a key with one Params::Rate getter, which
// refuses 0 whatever the stack around it, so the same key of the same type
// in another listing (the HDD's outer_rate in a dozen stacks) only re-parsed
// a bigger stack: over 200 loads where some 20 check every type's rates.
TEST(StackBadInputTest, EveryRateOfEveryNodeTypeMustBePositive) {
  std::vector<std::string> texts;
  Engine e;
  for (const auto& c : Catalog())
    texts.push_back(testing::MustLoad(std::string(c.name), e).resolved);
  for (const auto& f : std::filesystem::directory_iterator(std::string(STORLAB_SOURCE_DIR_DEFAULT) +
                                                           "/tests/sim/conformance")) {
    std::ifstream in(f.path());
    std::stringstream ss;
    ss << in.rdbuf();
    // Only those whose resolved listing loads back (some list defaults that
    // the model reads as "not given", such as a cache's size = 0).
    std::string resolved = testing::MustLoadText(ss.str(), e).resolved;
    Engine e2;
    if (LoadStackText(resolved, "r.toml", ".", e2, BuildOptions()).ok()) texts.push_back(resolved);
  }
  std::stable_sort(texts.begin(), texts.end(),
                   [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  const std::regex rate(R"(^(\w+) = "[^"]*B/s" +# .*$)");
  const std::set<std::string> no_limit = {"bandwidth", "write_rate"};  // ram, ssd
  std::set<std::string> checked;
  std::set<std::pair<std::string, std::string>> tried;  // (section's type, key)
  for (const std::string& text : texts) {
    std::vector<std::string> lines;
    std::stringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::string type;  // the section's `type = ` line, or its header ([host])
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].starts_with("[")) type = lines[i];
      if (lines[i].starts_with("type = ")) type = lines[i].substr(0, lines[i].find('#'));
      std::smatch m;
      if (!std::regex_match(lines[i], m, rate)) continue;
      const std::string key = m[1];
      if (!tried.emplace(type, key).second) continue;
      std::vector<std::string> changed = lines;
      changed[i] = key + " = \"0B/s\"";
      std::string t;
      for (const auto& l : changed) t += l + "\n";
      Engine e2;
      BuildOptions o;
      o.data_mode.kind = DataMode::Kind::kNone;
      auto r = LoadStackText(t, "zero.toml", ".", e2, o);
      if (no_limit.count(key)) {
        EXPECT_TRUE(r.ok()) << key << ": " << r.status().message();
        continue;
      }
      ASSERT_FALSE(r.ok()) << key << " = 0 accepted in:\n" << t;
      ExpectMessage(r.status(), {("zero.toml:" + std::to_string(i + 1)).c_str(),
                                 ("key '" + key + "'").c_str(), "must be positive"});
      checked.insert(key);
    }
  }
  EXPECT_GE(tried.size(), 19u) << "the listings lost node types or rates";
  // The rates of nfs, link, ssd, hdd, cache, raid, zfs, page_cache, [host].
  for (const char* k :
       {"link_rate", "line_rate", "channel_rate", "outer_rate", "interface_rate", "ram_bandwidth",
        "speed_limit_min", "speed_limit_max", "copy_rate_per_core", "memory_bandwidth"}) {
    EXPECT_TRUE(checked.count(k)) << k << " was not found in any stack";
  }
}

TEST(StackBadInputTest, EachErrorNamesTheKeyThatIsWrong) {
  const std::string link = "[node.l]\ntype = \"link\"\nkind = \"sata3\"\nchild = \"d\"\n";
  const std::string ram = "[node.d]\ntype = \"ram\"\ncapacity = \"64MiB\"\n";
  ExpectMessage(LoadError(link + "efficiency = 0.0\n" + ram),
                {"bad.toml:5", "key 'efficiency'", "must be more than 0"});
  ExpectMessage(LoadError(link + "encoding = \"0%\"\n" + ram), {"key 'encoding'"});
  ExpectMessage(LoadError("[node.d]\ntype = \"ssd\"\nprogram_time = \"0us\"\n"),
                {"bad.toml:3", "key 'program_time'", "must be longer than 0"});
  ExpectMessage(LoadError("[node.d]\ntype = \"ssd\"\nslc_read_time = \"0us\"\n"),
                {"key 'slc_read_time'"});
  ExpectMessage(LoadError("[node.d]\ntype = \"hdd\"\ninner_fraction = 0\n"),
                {"key 'inner_fraction'"});
  // An unknown key is unknown, whatever its value.
  ExpectMessage(LoadError("[node.d]\ntype = \"ram\"\nx = [1]\n"),
                {"bad.toml:3", "unknown key 'x'"});
  ExpectMessage(LoadError("[node.d]\ntype = \"ram\"\ncapacity = [1, 2]\n"),
                {"key 'capacity'", "a list that is not all strings"});
  // [host] errors name the table, not a node called 'host'.
  Status host = LoadError("[host]\nmem = \"1k\"\n" + ram);
  ExpectMessage(host, {"bad.toml:2", "[host], key 'mem'"});
  EXPECT_EQ(host.message().find("node 'host'"), std::string::npos) << host.message();
  ExpectMessage(LoadError("[host]\nmemm = \"1GiB\"\n" + ram), {"[host]: unknown key 'memm'"});
  // RAID1 has no chunks: small members are fine, and no error talks of one.
  Engine e;
  auto mirror = testing::MustLoadText(
      "[node.m]\ntype = \"raid\"\nlevel = 1\nchildren = [\"d\"]\n[node.d]\ntype = \"ram\"\n"
      "capacity = \"256KiB\"\ncount = 2\n",
      e);
  EXPECT_EQ(mirror.stack->root().geometry().capacity, 256u * 1024);
  testing::MustLoadText(mirror.resolved, e);
}

// A file that is not a stack file is never quoted: `use = "/etc/passwd"`
// printed the password file's first line.
TEST(StackBadInputTest, FilesThatAreNotStackFilesAreNotQuoted) {
  const std::string dir = ::testing::TempDir();
  const std::string secret = "root:$6$SECRETHASH:19000:0:99999:7:::";
  std::ofstream(dir + "/shadow") << secret << "\nbin:*:19000:0:99999:7:::\n";
  std::ofstream(dir + "/Cargo.toml") << "[package]\nname = \"SECRETNAME\"\n";
  for (const char* f : {"shadow", "Cargo.toml"}) {
    Status st = LoadError("[node.a]\nuse = \"" + std::string(f) + "\"\n", dir);
    ExpectMessage(st, {"bad.toml:1", "not a TOML stack file"});
    EXPECT_EQ(st.message().find("SECRET"), std::string::npos) << st.message();
  }
  // A stack file with one bad line: the line's start is quoted, short.
  Status st = LoadError("[node.a]\ntype = \"ram\"\ncapacity = \"" + std::string(5000, '9') + "\n");
  ExpectMessage(st, {"bad.toml:3", "malformed TOML", "'capacity = \"999", "...' (5012 bytes)"});
  EXPECT_LT(st.message().size(), 300u) << st.message();
}

// A 1 MB capacity string was echoed whole. 8 KiB here (it was 128 KiB),
// 200 times the 40 characters a message quotes: toml11 copies the line
// many times over, and a longer one only made the sanitizer build slower.
TEST(StackBadInputTest, HugeValuesAreCappedInMessages) {
  const std::string huge(1 << 13, '7');
  for (const std::string& kv : {"capacity = \"" + huge + "x\"", "capacity = \"x" + huge + "\"",
                                "latency = \"" + huge + "\"", "bandwidth = \"" + huge + "zB/s\"",
                                "queue_depth = \"" + huge + "\""}) {
    Status st = LoadError("[node.d]\ntype = \"ram\"\n" + kv + "\n");
    ExpectMessage(st, {"bad.toml:3", "...' (819"});
    EXPECT_LT(st.message().size(), 400u) << st.message().substr(0, 600);
  }
  Status name = LoadError("[node.d]\ntype = \"" + huge + "\"\n");
  EXPECT_LT(name.message().size(), 600u) << name.message().substr(0, 700);
}

}  // namespace stack_bad_input_test
}  // namespace storlab
