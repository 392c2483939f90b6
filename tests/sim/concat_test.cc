// Concat: requests split at child boundaries, flushes reach every child.
#include "sim/layers/concat.h"

#include <gtest/gtest.h>

#include "tests/sim/test_util.h"

namespace storlab {
namespace concat_test {

TEST(ConcatTest, SplitsRequestsAtTheBoundary) {
  Engine e;
  auto s = testing::MustLoadText(R"(
[node.c]
type = "concat"
children = ["a", "b"]
[node.a]
type = "ram"
capacity = "1MiB"
[node.b]
type = "ram"
capacity = "2MiB"
)",
                                 e);
  Node& c = s.stack->root();
  Node& a = *s.stack->Find("a");
  Node& b = *s.stack->Find("b");
  EXPECT_EQ(c.geometry().capacity, 3u << 20);
  auto w = testing::Pattern(65536, 1);
  ASSERT_TRUE(testing::Write(e, c, (1 << 20) - 16384, w).status.ok());
  EXPECT_EQ(a.stats().op(Op::kWrite).bytes, 16384u);
  EXPECT_EQ(b.stats().op(Op::kWrite).bytes, 49152u);
  std::vector<uint8_t> r(65536);
  ASSERT_TRUE(testing::Read(e, c, (1 << 20) - 16384, r).status.ok());
  EXPECT_EQ(r, w);
  std::vector<uint8_t> rb(49152);
  ASSERT_TRUE(testing::Read(e, b, 0, rb).status.ok());
  EXPECT_TRUE(std::equal(rb.begin(), rb.end(), w.begin() + 16384));
  ASSERT_TRUE(testing::Flush(e, c).status.ok());
  EXPECT_EQ(a.stats().op(Op::kFlush).ops, 1u);
  EXPECT_EQ(b.stats().op(Op::kFlush).ops, 1u);
}

}  // namespace concat_test
}  // namespace storlab
