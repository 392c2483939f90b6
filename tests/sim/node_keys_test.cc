// `storlab stacks types TYPE`: every node type's keys, described by its own
// factory (sim/profile/node_keys.h), each with a meaning; every key a stack
// file sets is among them; an unknown type is an error naming it.
#include "sim/profile/node_keys.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "sim/profile/catalog.h"
#include "sim/profile/node_types.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace node_keys_test {

const Params::Described* FindKey(const std::vector<Params::Described>& keys,
                                 const std::string& key) {
  for (const auto& k : keys)
    if (k.key == key) return &k;
  return nullptr;
}

TEST(NodeKeysTest, EveryNodeTypeListsItsKeysEachWithAMeaning) {
  for (const auto& t : NodeTypes()) {
    auto keys = DescribeNodeType(t.name);
    ASSERT_TRUE(keys.ok()) << keys.status().message();
    if (t.name == "concat") {  // no keys of its own
      EXPECT_TRUE(keys->empty());
      continue;
    }
    EXPECT_FALSE(keys->empty()) << t.name;
    std::set<std::string> seen;
    for (const auto& k : *keys) {
      EXPECT_TRUE(seen.insert(k.key).second) << t.name << ": " << k.key << " listed twice";
      EXPECT_FALSE(k.meaning.empty()) << t.name << ": " << k.key << " has no meaning";
      EXPECT_FALSE(k.type.empty()) << t.name << ": " << k.key;
      EXPECT_FALSE(k.fallback.empty()) << t.name << ": " << k.key << " has no default";
    }
    const std::string table = FormatNodeKeys(*keys);
    EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), static_cast<long>(keys->size()) + 1);
  }
}

TEST(NodeKeysTest, KeysAreDescribedAsTheFactoryReadsThem) {
  auto hdd = DescribeNodeType("hdd");
  ASSERT_TRUE(hdd.ok());
  const auto* rpm = FindKey(*hdd, "rpm");
  ASSERT_NE(rpm, nullptr);
  EXPECT_EQ(rpm->type, "integer");
  EXPECT_EQ(rpm->fallback, "7200");
  EXPECT_EQ(rpm->range, "1000 .. 20000");
  const auto* cap = FindKey(*hdd, "capacity");
  ASSERT_NE(cap, nullptr);
  EXPECT_EQ(cap->type, "size");
  EXPECT_EQ(cap->unit, "bytes");
  EXPECT_EQ(cap->fallback, "16TB");
  EXPECT_NE(FindKey(*hdd, "write_average_seek"), nullptr);

  auto link = DescribeNodeType("link");
  ASSERT_TRUE(link.ok());
  ASSERT_NE(FindKey(*link, "kind"), nullptr);
  EXPECT_EQ(FindKey(*link, "kind")->fallback, "required");
  EXPECT_EQ(FindKey(*link, "line_rate")->fallback, "per kind");

  auto ssd = DescribeNodeType("ssd");
  ASSERT_TRUE(ssd.ok());
  EXPECT_EQ(FindKey(*ssd, "interface")->range, "\"sata\" | \"nvme\"");

  // Keys read only on one branch: a zvol's volblocksize, a cache device's
  // metadata and a RAM cache's latency (the cache is described both ways).
  auto zfs = DescribeNodeType("zfs");
  ASSERT_TRUE(zfs.ok());
  EXPECT_NE(FindKey(*zfs, "volblocksize"), nullptr);
  EXPECT_EQ(FindKey(*zfs, "recordsize")->fallback, "128KiB");
  auto cache = DescribeNodeType("cache");
  ASSERT_TRUE(cache.ok());
  EXPECT_NE(FindKey(*cache, "metadata_size"), nullptr);
  EXPECT_NE(FindKey(*cache, "ram_latency"), nullptr);
  EXPECT_EQ(FindKey(*cache, "size")->fallback, "required (1 child), 0 (2 children)");
}

// Every key of every catalog stack's resolved listing (each key its
// factory read) is in its node type's description.
TEST(NodeKeysTest, EveryKeyOfEveryCatalogStackIsListed) {
  const std::regex type_line(R"re(^type = "(\w+)"$)re");
  const std::regex key_line(R"re(^(\w+) = .*$)re");
  size_t checked = 0;
  for (const auto& c : Catalog()) {
    Engine e;
    const std::string resolved = testing::MustLoad(std::string(c.name), e).resolved;
    std::stringstream in(resolved);
    std::vector<Params::Described> keys;
    std::string type;
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (line.rfind("[", 0) == 0) {
        type.clear();
      } else if (std::regex_match(line, m, type_line)) {
        type = m[1];
        auto described = DescribeNodeType(type);
        ASSERT_TRUE(described.ok()) << described.status().message();
        keys = *described;
      } else if (!type.empty() && std::regex_match(line, m, key_line) && m[1] != "children") {
        EXPECT_NE(FindKey(keys, m[1]), nullptr)
            << c.name << ": " << type << " key " << m[1] << " is not listed";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100u);
}

TEST(NodeKeysTest, AnUnknownTypeIsAnErrorNamingItAndTheKnownTypes) {
  auto r = DescribeNodeType("hdx");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("unknown node type 'hdx'"), std::string::npos)
      << r.status().message();
  for (const auto& t : NodeTypes()) {
    EXPECT_NE(r.status().message().find(std::string(t.name)), std::string::npos) << t.name;
  }
}

}  // namespace node_keys_test
}  // namespace storlab
