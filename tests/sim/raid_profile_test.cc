// The raid node type's profile keys: defaults, and bad values reported with
// file, line and key.
#include <gtest/gtest.h>

#include "tests/sim/raid_test_util.h"

namespace storlab {
namespace raid_profile_test {

Status LoadError(const std::string& text) {
  Engine e;
  auto r = LoadStackText(text, "bad.toml", ".", e, BuildOptions{});
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? Status() : r.status();
}

std::string Array(const std::string& keys, int members, const std::string& disk = "") {
  return "[node.md]\ntype = \"raid\"\nchildren = [\"d\"]\n" + keys +
         "\n[node.d]\ntype = \"ram\"\ncapacity = \"8MiB\"\ncount = " + std::to_string(members) +
         "\n" + disk;
}

TEST(RaidProfileTest, DefaultsAreMds) {
  Engine e;
  auto s = testing::MustLoadText(Array("level = 5", 4), e);
  auto& md = dynamic_cast<RaidNode&>(s.stack->root());
  EXPECT_EQ(md.layout().chunk(), 512u * 1024);
  EXPECT_EQ(md.geometry().capacity, 3u * 8 * 1024 * 1024);
  EXPECT_EQ(md.array().rmw_level(), 1);
  EXPECT_EQ(md.array().stripe_heads().capacity(), 256u);  // md's NR_STRIPES
  EXPECT_EQ(md.sync().depth(), 2u);                       // 1 MiB stripe cache / 512 KiB steps
  EXPECT_NE(s.resolved.find("chunk"), std::string::npos);
}

TEST(RaidProfileTest, BadValuesNameFileLineAndKey) {
  struct Case {
    std::string text, expect;
  };
  const Case cases[] = {
      {Array("level = 5", 2),
       "bad.toml:4: node 'md', key 'level': raid5 needs at least 3 members, has 2"},
      {Array("level = 6", 3), "key 'level': raid6 needs at least 4 members, has 3"},
      {Array("level = 3", 4), "key 'level': expected 0, 1, 5, 6 or 10, got 3"},
      {Array("level = \"five\"", 4), "bad.toml:4: node 'md', key 'level': expected an integer"},
      {Array("chunk = \"64KiB\"", 4), "key 'level': is required"},
      {Array("level = 5\nchunk = \"48KiB\"", 4),
       "bad.toml:5: node 'md', key 'chunk': must be a power of two"},
      {Array("level = 5\nchunk = \"4KiB\"", 4, "logical_block = 8192\n"),
       "key 'chunk': must be a multiple of member 'd.0''s 8192-byte logical block"},
      {Array("level = 5\nchunk = \"16MiB\"", 4), "key 'chunk': is larger than the smallest member"},
      {Array("level = 5\ncopies = 2", 4), "key 'copies': applies to level 10 only"},
      {Array("level = 10\ncopies = 3", 2), "raid10 needs at least 3 members, has 2"},
      {Array("level = 5\nrmw_level = 3", 4), "key 'rmw_level': expected an integer in [0, 2]"},
      {Array("level = 5\nspeed_limit_min = \"300MB/s\"", 4),
       "key 'speed_limit_min': is above speed_limit_max"},
      {Array("level = 5\nstripe_cache_size = 16", 4),
       "key 'stripe_cache_size': expected an integer in [17, 32768]"},
      {Array("level = 1\nstripe_cache_size = 512", 2),
       "key 'stripe_cache_size': applies to levels 5 and 6 only"},
      {Array("level = 5\nchunck = \"64KiB\"", 4), "chunck"},
  };
  for (const Case& c : cases) {
    Status st = LoadError(c.text);
    EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
    EXPECT_NE(st.message().find(c.expect), std::string::npos)
        << "got: " << st.message() << "\nwanted: " << c.expect;
  }
}

}  // namespace raid_profile_test
}  // namespace storlab
